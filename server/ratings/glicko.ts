/**
 * Glicko-2 (Glickman) through the `glicko2` library: a rating, its deviation (how sure we are) and
 * volatility per account and side. Every rated game is one rating period for its two players, and the
 * time between a side's games widens its deviation as Glicko-2 widens it over rating periods without
 * games (`atTime`), so a player back after months moves faster than one who plays every day.
 */
import { Glicko2 } from 'glicko2';

export interface Rating {
  rating: number;
  rd: number;
  vol: number;
  games: number;
  /** When this side last had a rated game (ms since the epoch); null before its first. */
  ratedAt: number | null;
}

/** Glickman's suggested system constant and a newcomer's rating, deviation and volatility. */
export const GLICKO = { tau: 0.5, rating: 1500, rd: 350, vol: 0.06 } as const;

/** Glicko-2's scale: a deviation of `rd` on the rating scale is `rd / SCALE` on Glicko-2's (400 / ln 10). */
const SCALE = 400 / Math.LN10;

/**
 * How long an idle rating period lasts. With a typical volatility of 0.06 a deviation of 60 grows to
 * about 83 after a month without rated games, 208 after a year, and back to a newcomer's 350 after
 * about three years.
 */
export const IDLE_PERIOD_MS = 24 * 60 * 60 * 1000;

export const newRating = (): Rating => ({ rating: GLICKO.rating, rd: GLICKO.rd, vol: GLICKO.vol, games: 0, ratedAt: null });

/**
 * The rating as it stands at `now`: each idle period since its last rated game adds the volatility's
 * square to the deviation's (φ² + σ², Glickman's step for a player who did not compete), counted in
 * fractions of a period, never past a newcomer's deviation.
 */
export function atTime(r: Rating, now: number): Rating {
  if (r.ratedAt === null || !(now > r.ratedAt)) return r;
  const phi = r.rd / SCALE;
  const periods = (now - r.ratedAt) / IDLE_PERIOD_MS;
  return { ...r, rd: Math.min(GLICKO.rd, SCALE * Math.sqrt(phi * phi + r.vol * r.vol * periods)) };
}

/**
 * One rating period for `player` against each opponent with its score (1 win, 0 loss, 0.5 draw):
 * the player's new rating (the opponents' own changes are computed from their side), rated at `at`.
 */
export function ratePeriod(player: Rating, games: { opponent: Pick<Rating, 'rating' | 'rd' | 'vol'>; score: number }[], at: number | null = player.ratedAt): Rating {
  const g = new Glicko2({ tau: GLICKO.tau, rating: GLICKO.rating, rd: GLICKO.rd, vol: GLICKO.vol });
  const me = g.makePlayer(player.rating, player.rd, player.vol);
  g.updateRatings(games.map((x) => [me, g.makePlayer(x.opponent.rating, x.opponent.rd, x.opponent.vol), x.score]));
  return { rating: me.getRating(), rd: me.getRd(), vol: me.getVol(), games: player.games + games.length, ratedAt: at };
}

/** One game between two players, ended at `at`: both new ratings, from the ratings both had then. */
export function rateGame(a: Rating, b: Rating, scoreOfA: number, at: number): [Rating, Rating] {
  const [a0, b0] = [atTime(a, at), atTime(b, at)];
  return [ratePeriod(a0, [{ opponent: b0, score: scoreOfA }], at), ratePeriod(b0, [{ opponent: a0, score: 1 - scoreOfA }], at)];
}
