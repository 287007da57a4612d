/**
 * The bots' own seeded PRNG (mulberry32). It implements the engine's `Rng` so the pure engine can run
 * sampled worlds and playouts. Bots never use Math.random: a seed makes every decision reproducible.
 */
import type { Rng } from '../game';

export interface BotRng extends Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Shuffles in place and returns the same array (no copy: the hot path of sampling). */
  shuffleInPlace<T>(a: T[]): T[];
}

export function botRng(seed: number): BotRng {
  let a = seed >>> 0 || 0x9e3779b9;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const shuffleInPlace = <T>(out: T[]): T[] => {
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(i + 1);
      const x = out[i];
      out[i] = out[j];
      out[j] = x;
    }
    return out;
  };
  return { next, int, shuffleInPlace, Shuffle: <T>(deck: T[]): T[] => shuffleInPlace([...deck]) };
}

/** A seed from a string (a match id, a test name): FNV-1a. */
export function seedFrom(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
