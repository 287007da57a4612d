/**
 * The board offers exactly the engine's legal moves although it only holds the player's view:
 * client/legal.ts must agree with legalMoves on the full state at every decision of real games.
 */
import { describe, expect, it } from 'vitest';
import { newGame, playerView, type PlayerID } from '../../game';
import { legalMovesFromView } from '../../client/legal';
import { randomDecisions, seeded } from '../helpers/rng';

const key = (m: unknown) => JSON.stringify(m);

describe('legal moves from the player view', () => {
  it('match the engine at every decision of 12 random games, for both roles and every prompt kind', () => {
    const kinds = new Set<string>();
    let decisions = 0;
    for (let seed = 1; seed <= 12; seed++)
      for (const { G, player: p, moves } of randomDecisions(seed)) {
        const fromView = legalMovesFromView(playerView(G, p), p).map(key).sort();
        expect(fromView).toEqual(moves.map(key).sort());
        // The opponent is never offered anything.
        const other: PlayerID = p === '0' ? '1' : '0';
        expect(legalMovesFromView(playerView(G, other), other)).toEqual([]);
        kinds.add(G.prompt!.kind);
        decisions++;
      }
    expect(decisions).toBeGreaterThan(500);
    for (const k of ['play', 'react', 'choose', 'pin']) expect(kinds).toContain(k);
  });

  it('offers nothing to spectators', () => {
    const G = newGame({}, seeded(3));
    expect(legalMovesFromView(playerView(G, null), null)).toEqual([]);
  });
});
