/**
 * game/random.ts draws what boardgame.io's random plugin draws from the same data: the same shuffles, in
 * order, and the same generator state afterwards — from a fresh seed and from a stored state — and leaves
 * the data as it was when nothing is drawn.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { randomFrom, type RandomData } from '../../game/random';

// boardgame.io does not export its random plugin: it is read from the package's own file, this version's.
const internal = createRequire(import.meta.url).resolve('boardgame.io/internal');
const { RandomPlugin } = createRequire(internal)('./plugin-random-7425844d.js') as {
  RandomPlugin: { api(o: { data: RandomData }): { Shuffle<T>(d: T[]): T[]; _private: { getState(): RandomData } } };
};

describe('randomFrom', () => {
  it("shuffles as boardgame.io's random plugin does and leaves the same state, from a seed and from a stored state", () => {
    for (let k = 0; k < 200; k++) {
      let data: RandomData = { seed: `seed-${k}` };
      for (let move = 0; move < 4; move++) {
        const decks = Array.from({ length: 1 + (k % 3) }, (_, i) => Array.from({ length: 3 + ((k * 7 + i + move) % 40) }, (_, j) => `c${j}`));
        const theirs = RandomPlugin.api({ data });
        const ours = randomFrom(data);
        expect(decks.map((d) => ours.rng.Shuffle(d))).toEqual(decks.map((d) => theirs.Shuffle(d)));
        expect(ours.data()).toEqual(theirs._private.getState());
        data = ours.data();
      }
      expect(data.prngstate).toBeDefined();
    }
  });

  it('keeps the data as it was when nothing is drawn', () => {
    const data: RandomData = { seed: 'idle' };
    expect(randomFrom(data).data()).toBe(data);
  });
});
