/**
 * Bad input changes nothing: at random points of seeded games, junk arguments, other prompts' moves,
 * other players' moves and near-miss variants of legal moves are all refused with a reason.
 */
import { describe, expect, it } from 'vitest';
import { applyMove, MOVE_NAMES, newGame } from '../../game/engine';
import type { WatergateState } from '../../game/types';
import { engineDriver, playout, randomChooser } from '../../tools/playout';
import { seeded } from '../helpers/rng';

const JUNK: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1e9,
  NaN,
  '',
  'x'.repeat(100_000),
  [],
  [1, 2, 3],
  {},
  { card: 'N01' },
  { card: 'E23', as: 'value', target: { kind: 'evidence', token: { hidden: -1 } } },
  { tokens: 'T01' },
  { tokens: [{ hidden: 1.5 }] },
  { split: [{ token: 'T01', steps: '4' }] },
  { split: [{ token: { hidden: 0 }, steps: Infinity }] },
  { informants: ['I_NOBODY'] },
  { spaces: ['Z9'] },
  { card: { toString: 'N05' } },
  { token: 'T99', space: 'A1' },
  JSON.parse('{"__proto__": {"polluted": true}, "card": "E23"}'),
];

/** Small changes to a legal argument that are (usually) illegal. */
function nearMisses(arg: unknown): unknown[] {
  const text = JSON.stringify(arg ?? null);
  return [
    JSON.parse(text.replace(/"T(\d\d)"/, '"T36"')),
    JSON.parse(text.replace(/"steps":(\d)/, '"steps":9')),
    JSON.parse(text.replace(/"space":"[A-C]\d+"/, '"space":"NIXON"')),
    JSON.parse(text.replace(/"(N|E)(\d\d)"/, (_m, s, d) => `"${s === 'N' ? 'E' : 'N'}${d}"`)),
    JSON.parse(text.replace(/"hidden":(\d)/, '"hidden":7')),
  ];
}

describe('bad input', () => {
  it('is refused with a reason and changes nothing, at every kind of decision', () => {
    const kinds = new Set<string>();
    let refusals = 0;
    for (let g = 0; g < 8; g++) {
      const rng = seeded(500 + g);
      for (const { state: G, player: p, moves: legal } of playout(engineDriver(rng), newGame(undefined, rng), randomChooser(rng))) {
        const other = p === '0' ? '1' : '0';
        kinds.add(G.prompt!.kind);
        const legalText = new Set(legal.map((m) => JSON.stringify([m.move, m.args[0] ?? null])));
        const attempts: [string, string, unknown][] = [];
        for (const junk of JUNK.slice(rng.int(4), rng.int(4) + 8))
          for (const move of MOVE_NAMES) {
            // Resigning without an argument is every player's right at any moment (test/game/resign.test.ts).
            if (move !== 'resign' || (junk !== undefined && junk !== null)) attempts.push([p, move, junk]);
          }
        for (const m of legal.slice(0, 3)) attempts.push([other, m.move, m.args[0]]); // the wrong player
        attempts.push([p, 'endTurn', undefined], [p, '__proto__', {}]);
        for (const m of legal.slice(0, 4)) for (const miss of nearMisses(m.args[0])) attempts.push([p, m.move, miss]);
        // Every refusal must leave the state as it was here (checked after each attempt).
        const snapshot = JSON.stringify(G);
        for (const [who, move, arg] of attempts) {
          if (who === p && legalText.has(JSON.stringify([move, arg ?? null]))) continue; // a near miss that is legal
          const err = applyMove(G, who as '0' | '1', move, arg, rng);
          if (err === null) {
            // Only a legal move may pass; it must be one legalMoves would have listed.
            throw new Error(`accepted ${move} ${JSON.stringify(arg)?.slice(0, 200)} from ${who} at ${JSON.stringify((JSON.parse(snapshot) as WatergateState).prompt)}`);
          }
          expect(typeof err).toBe('string');
          if (JSON.stringify(G) !== snapshot) expect(G).toEqual(JSON.parse(snapshot)); // shows the difference
          refusals++;
        }
        // …then the playout makes one of the legal moves (and fails the test if it were refused).
      }
    }
    expect([...kinds]).toEqual(expect.arrayContaining(['play', 'react', 'choose', 'pin']));
    expect(refusals).toBeGreaterThan(3_000);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 300_000);
});
