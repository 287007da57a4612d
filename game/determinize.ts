/**
 * Determinization: from one seat's view and the public record, sample complete game states that agree
 * with everything that seat has seen — a sampling filler for game/infostate.ts's `refiller`, which knows
 * what is hidden. Only the hidden parts are invented: the opponent's hand and deck, our own deck order,
 * the bag, tokens the opponent drew privately, and (for the Editor) which tokens lie face down on the
 * track. The bot never receives anything but a WatergateView.
 *
 * With the rules (not in bots/) because two users need it: our bot's search (bots/ismcts.ts) and the game
 * interface's `resample` (game/api.ts, OpenSpiel's ResampleFromInfostate).
 */
import { DECKS } from './cards';
import { refiller } from './infostate';
import { pinSpaces } from './pinning';
import { other } from './state';
import { BAG_TOKENS, TOKEN } from './tokens';
import { COLOURS, type CardId, type Colour, type PlayerID, type TokenId, type WatergateState, type WatergateView } from './types';

/** The randomness sampling needs: a shuffle in place (the bots' BotRng is one). */
export interface ShuffleRng {
  /** Shuffles `a` in place and returns it. */
  shuffleInPlace<T>(a: T[]): T[];
}

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
  sample(rng: ShuffleRng): WatergateState;
}

/** Prepares the sampling for one decision (the view's public part is made plain data once). */
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

  const known = tokensKnown(view);
  const tokenPool = BAG_TOKENS.filter((t) => !known.has(t));
  const banned = excludedColours(view);
  const fits = (t: TokenId) => !TOKEN[t].colours.some((c) => banned.has(c));
  const refill = refiller(view);

  return {
    viewer: me,
    sample(rng) {
      // The filler is asked in refill's order: the opponent's cards from those nobody has seen (hand, a
      // drawn card, deck), our own deck order, then the tokens nobody has seen — face-down track slots
      // first (respecting what the record rules out), the opponent's drawn tokens, the bag.
      let cards: CardId[] = [];
      let pool: TokenId[] = [];
      return refill({
        opponentHand(size) {
          cards = rng.shuffleInPlace([...oppPool]);
          return cards.splice(0, size);
        },
        opponentDrawnCard: () => cards.pop()!,
        opponentDeck: (size) => cards.slice(0, size),
        ownDeck: (size) => rng.shuffleInPlace([...myDeckPool]).slice(0, size),
        faceDown(count) {
          pool = rng.shuffleInPlace([...tokenPool]);
          const down: TokenId[] = [];
          for (let i = 0; i < pool.length && down.length < count; i++) if (fits(pool[i])) down.push(pool.splice(i--, 1)[0]);
          while (down.length < count && pool.length > 0) down.push(pool.pop()!); // the record was inconsistent: stay total
          return down;
        },
        opponentPeek: (count) => pool.splice(0, count),
        bag: () => pool,
        // Tokens the opponent kept from a private draw: any unseen token that can be pinned, as the kept one could.
        keptToPin: (G, count) =>
          Array.from({ length: count }, () => {
            const i = G.bag.findIndex((t) => pinSpaces(G, t).length > 0);
            return i >= 0 ? G.bag.splice(i, 1)[0] : G.bag.pop()!;
          }),
      });
    },
  };
}
