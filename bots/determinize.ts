/**
 * Determinization: from one seat's view and the public record, sample complete game states that agree
 * with everything that seat has seen. Only the hidden parts are invented: the opponent's hand and deck,
 * our own deck order, the bag, tokens the opponent drew privately, and (for the Editor) which tokens lie
 * face down on the track. The bot never receives anything but a WatergateView.
 */
import { BAG_TOKENS, COLOURS, DECKS, pinSpaces, TOKEN, type CardId, type Colour, type PlayerID, type TokenId, type WatergateState, type WatergateView } from '../game';
import type { BotRng } from './rng';

const other = (p: PlayerID): PlayerID => (p === '0' ? '1' : '0');

/** Cards whose place every viewer can see (piles, the "in play" area, pending work). */
function cardsInOpen(view: WatergateView): Set<CardId> {
  const seen = new Set<CardId>();
  for (const p of ['0', '1'] as const) {
    for (const c of view.discards[p]) seen.add(c);
    for (const c of view.removed[p]) seen.add(c);
  }
  for (const e of view.chain) seen.add(e.card);
  for (const c of view.resolving) seen.add(c);
  for (const t of view.tasks) if (t.t === 'dispose') seen.add(t.card);
  return seen;
}

/** Tokens whose identity this viewer can see. */
function tokensKnown(view: WatergateView): Set<TokenId> {
  const seen = new Set<TokenId>();
  for (const s of Object.values(view.board)) if (s) seen.add(s.token);
  for (const t of view.track.evidence) if (t.id !== null) seen.add(t.id);
  for (const t of view.removedTokens) seen.add(t);
  if (view.peek?.tokens) for (const t of view.peek.tokens) seen.add(t);
  for (const t of view.tasks) if (t.t === 'pin') for (const id of t.tokens) if (id) seen.add(id);
  if (view.prompt?.kind === 'pin') for (const id of view.prompt.tokens) if (id) seen.add(id);
  return seen;
}

/**
 * Colours that no face-down track token can have, read from the public record: every face-down token on
 * the track was drawn at this round's start (R7, K15), so an ask answered "none" since that draw rules
 * its colour out for all of them.
 */
export function excludedColours(view: WatergateView): Set<Colour> {
  const out = new Set<Colour>();
  for (let i = view.log.length - 1; i >= 0; i--) {
    const e = view.log[i];
    if (e.key === 'draw.tokens') break;
    if (e.key === 'ask.none' && COLOURS.includes(e.params.colour as Colour)) out.add(e.params.colour as Colour);
  }
  return out;
}

export interface Sampler {
  readonly viewer: PlayerID;
  /** A fresh complete state consistent with the view; the caller may mutate it freely. */
  sample(rng: BotRng): WatergateState;
}

/** Prepares the sampling for one decision (the view's public part is serialised once). */
export function samplerFor(view: WatergateView): Sampler {
  if ('bag' in view || 'decks' in view) throw new Error('a bot takes a player view, never the full state');
  const me = view.viewer;
  if (me === null) throw new Error('a bot plays a seat: the view must belong to the Editor or Nixon');
  const opp = other(me);
  if (view.hands[me] === null) throw new Error('the view does not show its own hand');

  const open = cardsInOpen(view);
  const myHand = view.hands[me]!;
  const myDrawn = view.drawnCard?.player === me ? view.drawnCard.card : null;
  const mine = new Set<CardId>([...open, ...myHand, ...(myDrawn ? [myDrawn] : [])]);
  const myDeckPool = DECKS[me].filter((c) => !mine.has(c));
  const oppPool = DECKS[opp].filter((c) => !open.has(c));
  const oppDrawnHidden = view.drawnCard?.player === opp;

  const known = tokensKnown(view);
  const tokenPool = BAG_TOKENS.filter((t) => !known.has(t));
  const faceDownSlots = view.track.evidence.filter((t) => t.id === null).length;
  const banned = excludedColours(view);
  const fits = (t: TokenId) => !TOKEN[t].colours.some((c) => banned.has(c));
  const oppPeek = view.peek && view.peek.player === opp ? view.peek.count : 0;

  const { viewer: _v, handSizes, deckSizes, bagSize: _b, hands: _h, track, peek, drawnCard, log, ...rest } = view;
  const base = JSON.stringify(rest);
  const faceUp = track.evidence.filter((t) => t.id !== null);
  const downPos = track.evidence.filter((t) => t.id === null).map((t) => t.pos);

  return {
    viewer: me,
    sample(rng) {
      const G = JSON.parse(base) as WatergateState;
      // Opponent: hand, then a drawn card, then the deck, from the cards nobody has seen.
      const cards = rng.shuffleInPlace([...oppPool]);
      const oppHand = cards.splice(0, handSizes[opp]);
      const oppDrawn = oppDrawnHidden ? cards.pop() : undefined;
      const oppDeck = cards.slice(0, deckSizes[opp]);
      const myDeck = rng.shuffleInPlace([...myDeckPool]).slice(0, deckSizes[me]);
      G.hands = { [me]: [...myHand], [opp]: oppHand } as WatergateState['hands'];
      G.decks = { [me]: myDeck, [opp]: oppDeck } as WatergateState['decks'];

      // Tokens: face-down track slots first (respecting what the record rules out), then the opponent's peek, the rest is the bag.
      const pool = rng.shuffleInPlace([...tokenPool]);
      const down: TokenId[] = [];
      for (let i = 0; i < pool.length && down.length < faceDownSlots; i++) if (fits(pool[i])) down.push(pool.splice(i--, 1)[0]);
      while (down.length < faceDownSlots && pool.length > 0) down.push(pool.pop()!); // the record was inconsistent: stay total
      const oppTokens = pool.splice(0, oppPeek);
      G.bag = pool;
      G.track = {
        initiative: track.initiative,
        momentum: track.momentum,
        evidence: [...faceUp.map((t) => ({ id: t.id!, pos: t.pos, up: t.up })), ...down.map((id, i) => ({ id, pos: downPos[i], up: false }))],
      };
      G.peek = peek ? { player: peek.player, tokens: peek.player === me ? [...(peek.tokens ?? [])] : oppTokens } : null;
      // Tokens the opponent kept from a private draw and has still to pin (shown as ''): any unseen token
      // that can be pinned, as the kept one could.
      const unnamed = (ids: TokenId[]) =>
        ids.map((id) => {
          if (id) return id;
          const i = G.bag.findIndex((t) => pinSpaces(G, t).length > 0);
          return i >= 0 ? G.bag.splice(i, 1)[0] : G.bag.pop()!;
        });
      if (G.prompt?.kind === 'pin' && G.prompt.tokens.includes('')) G.prompt = { ...G.prompt, tokens: unnamed(G.prompt.tokens) };
      for (const [i, t] of G.tasks.entries()) if (t.t === 'pin' && t.tokens.includes('')) G.tasks[i] = { ...t, tokens: unnamed(t.tokens) };
      G.drawnCard = drawnCard ? { player: drawnCard.player, card: drawnCard.player === me ? myDrawn! : oppDrawn! } : null;
      G.log = log.slice();
      return G;
    },
  };
}
