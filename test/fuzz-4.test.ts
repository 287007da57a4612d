import { describe, expect, it } from 'vitest';
import { fuzzGames } from './fuzz.shared';

describe('seeded random play through boardgame.io (part 4 of 4, rulebook2019 jokers, unpinnable tokens removed)', () => {
  it('250 complete games end with a winner; every card, token and momentum token accounted for; no secret in any view or record line', () => {
    const { winners } = fuzzGames(4000, 250, { jokerFallback: 'rulebook2019', pinImpossible: 'removeFromGame' });
    expect(winners).toHaveLength(250);
  }, 600_000);
});
