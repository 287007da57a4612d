/**
 * The bot's sampled worlds: each one must look, from the bot's seat, exactly like the view it was given,
 * and hold every card and token exactly once. Checked at every decision of seeded random games.
 */
import { describe, expect, it } from 'vitest';
import { DECKS, legalMoves, playerView, TOKEN, type PlayerID, type WatergateState } from '../../game';
import { excludedColours, samplerFor } from '../../bots/determinize';
import { botRng } from '../../bots/rng';
import { randomDecisions } from '../helpers/rng';

/** The live state at each decision of a seeded random game. */
function* decisionPoints(seed: number): Generator<WatergateState> {
  for (const { G } of randomDecisions(seed)) yield G;
}

function cardsOnce(W: WatergateState, side: PlayerID): string[] {
  const all = [...W.hands[side], ...W.decks[side], ...W.discards[side], ...W.removed[side]];
  if (W.drawnCard?.player === side) all.push(W.drawnCard.card);
  const inPlay = new Set([...W.chain.map((e) => e.card), ...W.resolving, ...W.tasks.flatMap((t) => (t.t === 'dispose' ? [t.card] : []))]);
  return [...all, ...[...inPlay].filter((c) => DECKS[side].includes(c))].sort();
}

function tokensOnce(W: WatergateState): string[] {
  const pins = new Set([...W.tasks.flatMap((t) => (t.t === 'pin' ? t.tokens : [])), ...(W.prompt?.kind === 'pin' ? W.prompt.tokens : [])]);
  return [
    ...W.bag,
    ...W.track.evidence.map((t) => t.id),
    ...Object.values(W.board).flatMap((s) => (s ? [s.token] : [])),
    ...W.removedTokens,
    ...(W.peek?.tokens ?? []),
    ...pins,
  ].sort();
}

describe('sampled worlds agree with the view', () => {
  it('look exactly like the view from the bot seat, at every decision of 4 random games, for both seats', () => {
    let checked = 0;
    for (const seed of [11, 12, 13, 14]) {
      for (const G of decisionPoints(seed)) {
        const real = { cards0: cardsOnce(G, '0'), cards1: cardsOnce(G, '1'), tokens: tokensOnce(G) };
        for (const seat of ['0', '1'] as const) {
          const view = playerView(G, seat);
          const sampler = samplerFor(view);
          const rng = botRng(checked + 1);
          for (let k = 0; k < 2; k++) {
            const W = sampler.sample(rng);
            // Same public fields, own hand, sizes, known cards and tokens: the whole view is reproduced.
            expect(playerView(W, seat)).toEqual(view);
            // Nothing invented or lost: every card and every bag token exactly once, as in the real game.
            expect(cardsOnce(W, '0')).toEqual(real.cards0);
            expect(cardsOnce(W, '1')).toEqual(real.cards1);
            expect(tokensOnce(W)).toEqual(real.tokens);
            // The search can run the pure engine on it: the decision-maker's legal moves are those of the real game.
            if (G.prompt!.player === seat) expect(legalMoves(W, seat)).toEqual(legalMoves(G, seat));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('invents the hidden parts: the opponent hand is sampled, not copied from the real state', () => {
    const G = decisionPoints(21).next().value as WatergateState;
    const sampler = samplerFor(playerView(G, '0'));
    const rng = botRng(5);
    const real = [...G.hands['1']].sort().join();
    const hands = new Set(Array.from({ length: 40 }, () => [...sampler.sample(rng).hands['1']].sort().join()));
    expect(hands.size).toBeGreaterThan(10);
    expect(hands.has(real) ? hands.size - 1 : hands.size).toBeGreaterThan(9);
  });

  it('uses the record: after "no face-down blue token", no sampled face-down token is blue', () => {
    // Find a real game where the Editor asked for a colour and Nixon answered "none" while tokens stayed face down.
    for (let seed = 1; seed < 400; seed++) {
      for (const G of decisionPoints(seed)) {
        const view = playerView(G, '0');
        const banned = excludedColours(view);
        const down = G.track.evidence.filter((t) => !t.up).length;
        if (banned.size === 0 || down === 0 || G.prompt!.player !== '0') continue;
        const sampler = samplerFor(view);
        const rng = botRng(seed);
        for (let k = 0; k < 30; k++) {
          const W = sampler.sample(rng);
          for (const t of W.track.evidence.filter((x) => !x.up)) for (const c of TOKEN[t.id].colours) expect(banned.has(c)).toBe(false);
        }
        // And the real face-down tokens obey the same rule (the inference is sound).
        for (const t of G.track.evidence.filter((x) => !x.up)) for (const c of TOKEN[t.id].colours) expect(banned.has(c)).toBe(false);
        return;
      }
    }
    throw new Error('no seeded game produced an ask answered "none" with tokens still face down');
  });

  it('refuses the full state and a spectator view', () => {
    const G = decisionPoints(3).next().value as WatergateState;
    expect(() => samplerFor(G as never)).toThrow(/never the full state/);
    expect(() => samplerFor(playerView(G, null))).toThrow(/seat/);
  });
});
