/** Seeded random play through boardgame.io's reducer (test/helpers/fuzz.ts): seeds from 1000, default rules. */
import { describe } from 'vitest';
import { fuzzSet } from '../helpers/fuzz';

describe('seeded random play through boardgame.io', () => {
  fuzzSet(1000);
});
