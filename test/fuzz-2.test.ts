import { describe, expect, it } from 'vitest';
import { fuzzGames } from './fuzz.shared';

describe('seeded random play through boardgame.io (part 2 of 4)', () => {
  it('250 complete games end with a winner; every card, token and momentum token accounted for; no secret in any view or record line', () => {
    const { winners } = fuzzGames(2000, 250);
    expect(winners).toHaveLength(250);
  }, 600_000);
});
