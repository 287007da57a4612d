/** How many fuzz games a run plays: CI's full size, a developer's smaller one, or what FUZZ_GAMES asks. */
import { describe, expect, it } from 'vitest';
import { FULL_GAMES, FUZZ_DEV_GAMES, fuzzSize } from '../helpers/fuzz';

describe('fuzz size', () => {
  it('plays the full 250 games per set in CI and fewer on a developer machine', () => {
    expect(FULL_GAMES).toBe(250);
    expect(fuzzSize({ CI: 'true' })).toBe(FULL_GAMES);
    expect(fuzzSize({ CI: '1' })).toBe(FULL_GAMES);
    expect(fuzzSize({})).toBe(FUZZ_DEV_GAMES);
    expect(fuzzSize({ CI: 'false' })).toBe(FUZZ_DEV_GAMES);
    expect(FUZZ_DEV_GAMES).toBeLessThan(FULL_GAMES);
  });

  it('plays what FUZZ_GAMES asks for, in CI or not, and refuses what is not a number of games', () => {
    expect(fuzzSize({ FUZZ_GAMES: '250' })).toBe(250);
    expect(fuzzSize({ CI: 'true', FUZZ_GAMES: '12' })).toBe(12);
    for (const bad of ['0', '-3', '2.5', 'all']) expect(() => fuzzSize({ FUZZ_GAMES: bad }), bad).toThrow(/FUZZ_GAMES/);
  });
});
