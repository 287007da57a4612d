/**
 * What a finished match means for its players' records (pure: storage calls it inside the write that
 * ends the game, through the commit door). A match is rated when it was created rated, both seats are held
 * by two different accounts (never the computer), the game was not aborted and the two accounts have not
 * had PAIR_LIMIT rated games in the day before and were not seen together (SEEN_TOGETHER; storage reads
 * both in the same write); otherwise the
 * records say why, as a code (protocol/accounts.ts UnratedReason, docs/RATINGS.md). The result is the game's,
 * exactly as `ctx.gameover` names it — how a player's exit ends a game (a loss, or an abort before both
 * sides decided) is server/match/ending.ts's to say, before the game ends, never reinterpreted here.
 * Each side has its own rating: the Editor's Editor rating plays against Nixon's Nixon rating.
 */
import { otherSeat } from '../../protocol/index';
import type { UnratedReason } from '../../protocol/accounts';
import { newRating, rateGame, type Rating } from './glicko';

export type Side = '0' | '1';
export const SIDES: readonly Side[] = ['0', '1'];

/**
 * Decisions each player must have made (resigning, the clock and the server's moves are none): a game
 * ended before is aborted (match/ending.ts), so this only guards the rule's other writers.
 */
export const MIN_DECISIONS = 1;

/**
 * Rated games the same two accounts may play in PAIR_LIMIT.windowMs; later ones that day are unrated
 * ('pair-limit'): two accounts of one person gain at most three results a day from each other
 * (docs/RATINGS.md).
 */
export const PAIR_LIMIT = { games: 3, windowMs: 24 * 60 * 60 * 1000 } as const;

/**
 * Two human accounts seen from one address or one device (accounts/seen.ts: signing in, "Play now", a
 * challenge, a rated lobby join), each within the last `windowMs` before the game ends, are taken for one
 * person: their games are not rated ('seen-together'), "Play now" never pairs them and a rated challenge
 * or rated lobby join between them is refused up front (docs/RATINGS.md "One person, two accounts").
 * Storage keeps sightings that long (storage/accounts.ts SEEN.forMs is this window).
 */
export const SEEN_TOGETHER = { windowMs: 30 * 24 * 60 * 60 * 1000 } as const;

/**
 * A rating whose deviation is at least this is provisional (shown with "?", kept off the leaderboard):
 * Lichess's `provisionalDeviation`. Glicko-2's deviation is one standard deviation, so a rating of 1500
 * with 110 means "likely between about 1280 and 1720" (docs/RATINGS.md).
 */
export const PROVISIONAL_RD = 110;
export const isProvisional = (rd: number) => rd >= PROVISIONAL_RD;

/** The leaderboard lists players with at least this many distinct rated opponents (on that side; docs/RATINGS.md). */
export const LEADERBOARD_MIN_OPPONENTS = 5;

/** A seat's account as the server marks it in the match metadata (`data.account`, never shown whole). */
export interface SeatAccount {
  id: string;
  username: string;
  /** A bot account's seat (accounts/seat.ts AccountMark): bots are rated among bots only. */
  bot?: boolean;
}

export interface SeatFacts {
  name: string | null;
  account: SeatAccount | null;
  /** The computer's level when it plays this seat (vs computer). */
  bot: string | null;
  /** Moves the player made themselves (not the computer standing in, not resign or time). */
  decisions: number;
}

export interface FinishedMatch {
  matchID: string;
  rated: boolean;
  /** The game's winner as ctx.gameover names it; null: aborted. */
  winner: Side | null;
  /** An aborted game: the side that had not made its first decision (ctx.gameover.aborted). */
  aborted?: Side;
  reason: string;
  seats: Record<Side, SeatFacts>;
  /** Every move of the game (both seats, the computer's too). */
  moves: number;
  startedAt: number;
  finishedAt: number;
  /** Rated games between the two seats' accounts in the PAIR_LIMIT.windowMs before this one ended (read in the same write). */
  pairRated?: number;
  /** The two seats' accounts were seen from one address or device (SEEN_TOGETHER; read in the same write). */
  seenTogether?: boolean;
}

/** One player's line in their record (one per account seat of a finished match). */
export interface ResultRow {
  matchID: string;
  side: Side;
  accountID: string;
  opponentID: string | null;
  opponentName: string;
  opponentLevel: string | null;
  won: boolean;
  reason: string;
  rated: boolean;
  /** Why the game was not rated (null when it was). */
  unratedReason: UnratedReason | null;
  ratingBefore: number | null;
  ratingAfter: number | null;
  rdAfter: number | null;
  decisions: number;
  moves: number;
  startedAt: number;
  finishedAt: number;
}

/** Why a match is not rated, as a code the client words (null when it is rated). */
export function unratedBecause(m: FinishedMatch): UnratedReason | null {
  if (!m.rated) return 'casual';
  if (m.winner === null) return m.aborted === '1' ? 'aborted-nixon' : 'aborted-editor';
  const [a, b] = [m.seats['0'], m.seats['1']];
  if (a.bot || b.bot) return 'computer';
  if (!a.account || !b.account) return 'guest';
  // A bot account against a human is casual, whatever the match said: bots are rated among bots (docs/BOT-API.md).
  if (Boolean(a.account.bot) !== Boolean(b.account.bot)) return 'computer';
  if (a.account.id === b.account.id) return 'same-account';
  if (a.decisions < MIN_DECISIONS || b.decisions < MIN_DECISIONS) return 'few-decisions';
  if ((m.pairRated ?? 0) >= PAIR_LIMIT.games) return 'pair-limit';
  // Bot accounts are exempt: one developer runs several on one machine, and they are rated only among bots (docs/RATINGS.md).
  if (m.seenTogether && !a.account.bot) return 'seen-together';
  return null;
}

/**
 * The records to write and the side ratings to store when a match ends. `ratings(accountID, side)` gives
 * an account's stored rating on a side (a newcomer's when it has none), widened by the time since its
 * last rated game before this one is rated.
 */
export function gameEnd(m: FinishedMatch, ratings: (accountID: string, side: Side) => Rating | undefined): { results: ResultRow[]; ratings: { accountID: string; side: Side; rating: Rating }[] } {
  const winner = m.winner;
  const unratedReason = unratedBecause(m);
  const rated = unratedReason === null;
  const before = (s: Side) => ratings(m.seats[s].account!.id, s) ?? newRating();
  const after = rated ? rateGame(before('0'), before('1'), winner === '0' ? 1 : 0, m.finishedAt) : null;
  const results: ResultRow[] = [];
  for (const side of SIDES) {
    const me = m.seats[side];
    if (!me.account) continue;
    const opp = m.seats[otherSeat(side)];
    const idx = side === '0' ? 0 : 1;
    results.push({
      matchID: m.matchID,
      side,
      accountID: me.account.id,
      opponentID: opp.account?.id ?? null,
      opponentName: opp.account?.username ?? opp.name ?? '',
      opponentLevel: opp.bot,
      won: winner === side,
      reason: m.reason,
      rated,
      unratedReason,
      ratingBefore: rated ? before(side).rating : null,
      ratingAfter: after ? after[idx].rating : null,
      rdAfter: after ? after[idx].rd : null,
      decisions: me.decisions,
      moves: m.moves,
      startedAt: m.startedAt,
      finishedAt: m.finishedAt,
    });
  }
  return { results, ratings: after ? SIDES.map((s, i) => ({ accountID: m.seats[s].account!.id, side: s, rating: after[i] })) : [] };
}
