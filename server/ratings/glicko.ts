/**
 * Glicko-2 (Glickman) through the `glicko2` library: a rating, its deviation (how sure we are) and
 * volatility per account and side. Every rated game is one rating period for its two players (the
 * deviation shrinks with games played; idle periods do not widen it here).
 */
import { Glicko2 } from 'glicko2';

export interface Rating {
  rating: number;
  rd: number;
  vol: number;
  games: number;
}

/** Glickman's suggested system constant and a newcomer's rating, deviation and volatility. */
export const GLICKO = { tau: 0.5, rating: 1500, rd: 350, vol: 0.06 } as const;

export const newRating = (): Rating => ({ rating: GLICKO.rating, rd: GLICKO.rd, vol: GLICKO.vol, games: 0 });

/**
 * One rating period for `player` against each opponent with its score (1 win, 0 loss, 0.5 draw):
 * the player's new rating (the opponents' own changes are computed from their side).
 */
export function ratePeriod(player: Rating, games: { opponent: Pick<Rating, 'rating' | 'rd' | 'vol'>; score: number }[]): Rating {
  const g = new Glicko2({ tau: GLICKO.tau, rating: GLICKO.rating, rd: GLICKO.rd, vol: GLICKO.vol });
  const me = g.makePlayer(player.rating, player.rd, player.vol);
  g.updateRatings(games.map((x) => [me, g.makePlayer(x.opponent.rating, x.opponent.rd, x.opponent.vol), x.score]));
  return { rating: me.getRating(), rd: me.getRd(), vol: me.getVol(), games: player.games + games.length };
}

/** One game between two players: both new ratings, from the ratings both had before it. */
export function rateGame(a: Rating, b: Rating, scoreOfA: number): [Rating, Rating] {
  return [ratePeriod(a, [{ opponent: b, score: scoreOfA }]), ratePeriod(b, [{ opponent: a, score: 1 - scoreOfA }])];
}
