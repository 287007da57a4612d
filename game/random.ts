/**
 * boardgame.io's random plugin as a plain function of the data it keeps in a state
 * (`plugins.random.data`: the match's seed, then the generator's state): the same Alea generator
 * (seedrandom's, which boardgame.io's is adapted from) and the same Shuffle. A state advanced with it
 * (game/advance.ts) draws exactly what boardgame.io's reducer draws from the same data
 * (test/game/advance.test.ts compares them over whole games).
 */
import alea from 'seedrandom/lib/alea.js';
import type { Rng } from './types';

export interface RandomData {
  seed: string | number;
  prngstate?: { c: number; s0: number; s1: number; s2: number };
}

/** A generator for one move: `rng` draws, `data()` is what the state keeps afterwards (the same object if nothing was drawn). */
export function randomFrom(data: RandomData): { rng: Rng; data(): RandomData } {
  let gen: ReturnType<typeof alea> & { state(): NonNullable<RandomData['prngstate']> } | null = null;
  const next = () => {
    // boardgame.io seeds from `seed` until a state exists, then only from the state.
    gen ??= data.prngstate ? alea('', { state: data.prngstate }) : alea(String(data.seed), { state: true });
    return gen();
  };
  return {
    rng: {
      Shuffle<T>(deck: T[]): T[] {
        const rest = [...deck];
        const out: T[] = new Array(deck.length);
        for (let left = deck.length, k = 0; left > 0; ) {
          const i = Math.trunc(left * next());
          out[k++] = rest[i];
          rest[i] = rest[--left];
        }
        return out;
      },
    },
    data: () => (gen ? { ...data, prngstate: gen.state() } : data),
  };
}
