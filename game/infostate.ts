/**
 * Hidden information, in one place (as OpenSpiel's State does with InformationStateString and
 * ResampleFromInfostate): the list of the state's secrets below says who may see each one, and the
 * three uses are made from it —
 *
 * - `hide(G, viewer)`: the viewer's information state (boardgame.io's playerView);
 * - `refill(view, filler)`: a complete state again from a view, the hidden parts supplied by a filler —
 *   `EMPTY` for the browser's legal moves (nothing invented: the engine never reads what a player cannot
 *   see when listing that player's moves), a sampling filler for the bot's worlds and the game interface's `resample` (game/determinize.ts);
 * - `secretsOf(G, viewer)`: the ids the viewer must not find anywhere in its view (the tests' scans).
 *
 * docs/RULES.md "Who sees what" states the same in words.
 */
import { copy } from './plain';
import { other } from './state';
import { EDITOR, NIXON, type CardId, type PlayerID, type TokenId, type WatergateState, type WatergateView } from './types';

const SEATS = [EDITOR, NIXON] as const;
const seat = (playerID: string | null | undefined): PlayerID | null => (playerID === EDITOR || playerID === NIXON ? playerID : null);

type PinLike = { player: PlayerID; tokens: TokenId[]; secret?: true };

/**
 * The secrets. Each names the ids it hides from a viewer: hands (their owner sees them), decks and the bag
 * (nobody: sizes only), face-down track tokens (Nixon alone, R7), tokens drawn by PIN_FROM_BAG (their
 * drawer alone until pinned or returned, K3 — in `peek`, then in the pin prompt and tasks) and the card
 * drawn by DRAW_AND_PLAY_TOP (its drawer alone until played).
 */
export const SECRETS: readonly { name: string; hidden(G: WatergateState, viewer: PlayerID | null, each: (id: string) => void): void }[] = [
  { name: 'hands', hidden: (G, v, each) => SEATS.forEach((p) => p !== v && G.hands[p].forEach(each)) },
  { name: 'decks', hidden: (G, _v, each) => SEATS.forEach((p) => G.decks[p].forEach(each)) },
  { name: 'bag', hidden: (G, _v, each) => G.bag.forEach(each) },
  { name: 'face-down track tokens', hidden: (G, v, each) => v !== NIXON && G.track.evidence.forEach((t) => !t.up && each(t.id)) },
  { name: 'drawn tokens', hidden: (G, v, each) => G.peek && G.peek.player !== v && G.peek.tokens.forEach(each) },
  {
    name: 'kept tokens',
    hidden: (G, v, each) => [G.prompt, ...G.tasks].forEach((x) => x && 'tokens' in x && (x as PinLike).secret && (x as PinLike).player !== v && (x as PinLike).tokens.forEach(each)),
  },
  { name: 'drawn card', hidden: (G, v, each) => G.drawnCard && G.drawnCard.player !== v && each(G.drawnCard.card) },
];

/** Calls `each` with every id the viewer must not see (an id may come twice). */
export function eachSecret(G: WatergateState, viewer: PlayerID | null, each: (id: string) => void): void {
  for (const s of SECRETS) s.hidden(G, viewer, each);
}

/** Every id the viewer must not find in its view. */
export function secretsOf(G: WatergateState, viewer: PlayerID | null): Set<string> {
  const out = new Set<string>();
  eachSecret(G, viewer, (id) => out.add(id));
  return out;
}

/** A pin prompt or task as `viewer` may see it: a private draw's tokens are '' to all but the drawer. */
const maskPin = <T extends PinLike>(x: T, viewer: PlayerID | null): T => (x.secret && x.player !== viewer ? { ...x, tokens: x.tokens.map(() => '') } : x);

/**
 * The viewer's information state: the state without what SECRETS hides from it. Every field is named
 * (the type makes a new field of the state a compile error here until it is shown or hidden): copying
 * "the rest" with object rest syntax cost about 34 µs a view (measured, two views a move), this about 1.
 */
export function hide(G: WatergateState, playerID: string | null | undefined): WatergateView {
  const viewer = seat(playerID);
  const { hands, decks, bag, track, peek, drawnCard, prompt, tasks } = G;
  const seesTrack = viewer === NIXON;
  // Face-down tokens are listed after the face-up ones, without ids, so neither order nor id says anything.
  const evidence = seesTrack
    ? track.evidence.map((t) => ({ ...t }))
    : [...track.evidence.filter((t) => t.up).map((t) => ({ ...t })), ...track.evidence.filter((t) => !t.up).map((t) => ({ id: null, pos: t.pos, up: false }))];
  return {
    options: G.options,
    round: G.round,
    phase: G.phase,
    initiative: G.initiative,
    leader: G.leader,
    turnPlayer: G.turnPlayer,
    turnSeq: G.turnSeq,
    turnsBegun: G.turnsBegun,
    eventsRestricted: G.eventsRestricted,
    board: G.board,
    informants: G.informants,
    momentum: G.momentum,
    discards: G.discards,
    removed: G.removed,
    removedTokens: G.removedTokens,
    chain: G.chain,
    resolving: G.resolving,
    log: G.log,
    winner: G.winner,
    endReason: G.endReason,
    ...(G.aborted !== undefined ? { aborted: G.aborted } : {}),
    connected: G.connected,
    prompt: prompt?.kind === 'pin' ? maskPin(prompt, viewer) : prompt,
    tasks: tasks.some((t) => t.t === 'pin' && t.secret) ? tasks.map((t) => (t.t === 'pin' ? maskPin(t, viewer) : t)) : tasks,
    viewer,
    hands: { [EDITOR]: viewer === EDITOR ? [...hands[EDITOR]] : null, [NIXON]: viewer === NIXON ? [...hands[NIXON]] : null },
    handSizes: { [EDITOR]: hands[EDITOR].length, [NIXON]: hands[NIXON].length },
    deckSizes: { [EDITOR]: decks[EDITOR].length, [NIXON]: decks[NIXON].length },
    bagSize: bag.length,
    track: { initiative: track.initiative, momentum: track.momentum, evidence },
    peek: peek && { player: peek.player, tokens: viewer === peek.player ? [...peek.tokens] : null, count: peek.tokens.length },
    drawnCard: drawnCard && { player: drawnCard.player, card: viewer === drawnCard.player ? drawnCard.card : null },
  };
}

/**
 * What a filler supplies for the parts of a state its viewer cannot see, asked in this order: the
 * opponent's hand, the opponent's drawn card, the opponent's deck, the viewer's own deck, then the
 * face-down track tokens, the opponent's drawn tokens, the bag, and last the tokens the opponent kept to
 * pin (`G` is the state as filled so far).
 */
export interface Filler {
  opponentHand(size: number): CardId[];
  opponentDrawnCard(): CardId | null;
  opponentDeck(size: number): CardId[];
  ownDeck(size: number): CardId[];
  faceDown(count: number): TokenId[];
  opponentPeek(count: number): TokenId[];
  bag(size: number): TokenId[];
  keptToPin(G: WatergateState, count: number): TokenId[];
}

/** Nothing invented: empty hands, decks and bag; hidden ids stay as the view has them (null or ''). */
export const EMPTY: Filler = {
  opponentHand: () => [],
  opponentDrawnCard: () => null,
  opponentDeck: () => [],
  ownDeck: () => [],
  faceDown: () => [],
  opponentPeek: () => [],
  bag: () => [],
  keptToPin: () => [],
};

/**
 * Complete states from a seat's view: what the view shows, and a filler's choices for the rest. The view's
 * public part is made plain data once, for callers that refill the same view many times (a bot's search),
 * and each state gets its own copy of it; the record's entries are shared (nobody writes to past entries).
 */
export function refiller(view: WatergateView): (filler: Filler) => WatergateState {
  const me = view.viewer;
  if (me === null) throw new Error('a spectator view cannot be refilled: it belongs to no seat');
  const opp = other(me);
  const { viewer: _v, handSizes, deckSizes, bagSize, hands, track, peek, drawnCard, log, ...rest } = view;
  // Serialised and parsed back once, so the template holds plain data only (no undefined fields, as the
  // state's stored form); copying it is about twice as fast as parsing the text for every state.
  const base = JSON.parse(JSON.stringify(rest)) as Omit<WatergateState, 'hands' | 'decks' | 'bag' | 'track' | 'peek' | 'drawnCard' | 'log'>;
  const myHand = hands[me] ?? [];
  const faceUp = track.evidence.filter((t) => t.id !== null);
  const downPos = track.evidence.filter((t) => t.id === null).map((t) => t.pos);
  const hasUnnamed = [view.prompt, ...view.tasks].some((x) => x && 'tokens' in x && x.tokens.includes(''));
  return (filler) => {
    const G = copy(base) as WatergateState;
    const oppHand = filler.opponentHand(handSizes[opp]);
    const oppDrawn = drawnCard?.player === opp ? filler.opponentDrawnCard() : null;
    const oppDeck = filler.opponentDeck(deckSizes[opp]);
    const myDeck = filler.ownDeck(deckSizes[me]);
    G.hands = { [me]: [...myHand], [opp]: oppHand } as WatergateState['hands'];
    G.decks = { [me]: myDeck, [opp]: oppDeck } as WatergateState['decks'];
    const down = filler.faceDown(downPos.length);
    const oppTokens = peek && peek.player === opp ? filler.opponentPeek(peek.count) : [];
    G.bag = filler.bag(bagSize);
    G.track = {
      initiative: track.initiative,
      momentum: track.momentum,
      evidence: [
        ...faceUp.map((t) => ({ id: t.id!, pos: t.pos, up: t.up })),
        // Not filled (EMPTY): the slots stay anonymous, as the engine treats them for the Editor (blind picks).
        ...downPos.map((pos, i) => ({ id: down[i] ?? (null as unknown as TokenId), pos, up: false })),
      ],
    };
    G.peek = peek ? { player: peek.player, tokens: peek.player === me ? [...(peek.tokens ?? [])] : oppTokens } : null;
    G.drawnCard = drawnCard ? { player: drawnCard.player, card: (drawnCard.player === me ? drawnCard.card : oppDrawn) as CardId } : null;
    G.log = log.slice();
    if (hasUnnamed) {
      // Tokens the opponent kept from a private draw and has still to pin are '' in the view.
      const unnamed = (ids: TokenId[]) => {
        const n = ids.filter((id) => !id).length;
        if (n === 0) return ids;
        const filled = filler.keptToPin(G, n);
        return ids.map((id) => id || (filled.shift() ?? id));
      };
      if (G.prompt?.kind === 'pin') G.prompt = { ...G.prompt, tokens: unnamed(G.prompt.tokens) };
      G.tasks = G.tasks.map((t) => (t.t === 'pin' ? { ...t, tokens: unnamed(t.tokens) } : t));
    }
    return G;
  };
}

/** One complete state from a seat's view (see `refiller`). */
export const refill = (view: WatergateView, filler: Filler): WatergateState => refiller(view)(filler);
