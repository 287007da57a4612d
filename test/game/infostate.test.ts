/**
 * Hidden information in one place (game/infostate.ts): hiding a state for a seat and refilling the view
 * with the true hidden parts gives the state back — so the list of secrets says everything a view
 * leaves out — and the views name none of the secrets, at every decision of seeded random games.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY, hide, refill, secretsOf, type Filler } from '../../game/infostate';
import type { PlayerID, TokenId, WatergateState } from '../../game/types';
import { randomDecisions } from '../helpers/rng';

/** A filler that knows the truth: it hands back exactly what the view left out. */
function truth(G: WatergateState, me: PlayerID): Filler {
  const opp: PlayerID = me === '0' ? '1' : '0';
  const kept = [G.prompt, ...G.tasks].flatMap((x) => (x && 'tokens' in x && x.secret && x.player !== me ? x.tokens : []));
  return {
    opponentHand: () => [...G.hands[opp]],
    opponentDrawnCard: () => G.drawnCard!.card,
    opponentDeck: () => [...G.decks[opp]],
    ownDeck: () => [...G.decks[me]],
    faceDown: () => G.track.evidence.filter((t) => !t.up).map((t) => t.id),
    opponentPeek: () => [...G.peek!.tokens],
    bag: () => [...G.bag],
    keptToPin: (_G, n) => kept.splice(0, n) as TokenId[],
  };
}

const sortTrack = (G: WatergateState) => ({ ...G, track: { ...G.track, evidence: [...G.track.evidence].sort((a, b) => a.id.localeCompare(b.id)) } });

describe('information state', () => {
  it('hide then refill with the truth gives the state back, for both seats, at every decision of 20 games', () => {
    let checked = 0;
    for (let seed = 1; seed <= 20; seed++) {
      for (const { G } of randomDecisions(4000 + seed)) {
        for (const me of ['0', '1'] as const) {
          const back = refill(hide(G, me), truth(G, me));
          // The Editor's view lists face-down track tokens after the face-up ones: compare as sets.
          expect(sortTrack(back)).toEqual(sortTrack(JSON.parse(JSON.stringify(G))));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('a view names none of its viewer\'s secrets; refilling it with nothing invented names none either', () => {
    for (let seed = 1; seed <= 10; seed++) {
      for (const { G } of randomDecisions(5000 + seed)) {
        for (const viewer of ['0', '1', null] as const) {
          const secrets = secretsOf(G, viewer);
          const named = (x: unknown) => (JSON.stringify(x).match(/\b[TNE]\d\d\b/g) ?? []).filter((id) => secrets.has(id));
          const view = hide(G, viewer);
          expect(named({ ...view, log: [] })).toEqual([]);
          if (viewer !== null) expect(named({ ...refill(view, EMPTY), log: [] })).toEqual([]);
        }
      }
    }
  });

  it('a spectator view belongs to no seat and cannot be refilled', () => {
    const G = (randomDecisions(1).next().value as { G: WatergateState }).G;
    expect(() => refill(hide(G, null), EMPTY)).toThrow(/spectator/);
  });
});
