/** Seeded random play through boardgame.io's reducer (test/helpers/fuzz.ts): seeds from 4000, the other rule options. */
import { describe } from 'vitest';
import type { SetupData } from '../../game/types';
import { fuzzSet } from '../helpers/fuzz';

describe('seeded random play through boardgame.io', () => {
  fuzzSet(4000, { jokerFallback: 'rulebook2019', pinImpossible: 'removeFromGame' } as SetupData, ', rulebook2019 jokers and unpinnable tokens removed');
});
