/** A seeded Rng for driving the pure engine in tests (boardgame.io's own PRNG drives real matches). */
import type { Rng } from '../../game/types';

export function seeded(seed: number): Rng & { next(): number; int(n: number): number } {
  let a = seed >>> 0 || 1;
  const next = () => {
    // mulberry32
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    Shuffle<T>(deck: T[]): T[] {
      const out = [...deck];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}
