/** The public game record: every line readable, in words, and naming nothing secret. */
import { describe as suite, expect, it } from 'vitest';
import { describe, MESSAGES } from '../game/record';
import { E, N, Scenario, randomGame } from './helpers/scenario';

suite('the game record', () => {
  it('says in words who did what', () => {
    const s = new Scenario(200).hand(E, ['E31']).hand(N, ['N02', 'N20']).turn(N);
    s.value(N, 'N02', { kind: 'initiative' });
    expect(describe(s.G.log.at(-1)!)).toBe('Nixon played Chuck Colson for its value: moved the initiative token 1 step.');
    s.action(E, 'E31').pass(N);
    expect(s.G.log.slice(-3).map(describe)).toEqual([
      'Editor played John Dean for its action.',
      'Nixon did not react.',
      'Editor pinned the picture of John Dean face up.',
    ]);
  });

  it('has words for every line the engine writes', () => {
    const keys = new Set<string>();
    for (let g = 0; g < 40; g++) {
      const G = randomGame(300 + g, undefined, g % 2 ? { jokerFallback: 'rulebook2019', pinImpossible: 'removeFromGame' } : undefined);
      for (const entry of G.log) {
        keys.add(entry.key);
        expect(MESSAGES[entry.key], entry.key).toBeDefined();
        expect(describe(entry)).not.toMatch(/undefined|NaN|\[object/);
      }
    }
    expect(keys.size).toBeGreaterThan(30);
  });
});
