/**
 * Seasons (docs/EVENTS.md "Seasons"): calendar quarters in UTC, each ranking players by points from the
 * rated games that ended in it. Pure: the store hands over per-opponent tallies (storage/accounts.ts
 * seasonQuery), this file scores them. Only rated games count, so everything the rating rules refuse
 * (server/ratings/rules.ts: casual, guests, the computer, one account on both seats, too few decisions,
 * a pair's fourth game in a day, two accounts seen together) is worth nothing here too; on top of that
 * only games against an established opponent count (not provisional after the game: ratings/rules.ts
 * PROVISIONAL_RD, read by storage/accounts.ts seasonQuery), wins over one opponent on one side count at
 * most SEASON_POINTS.winsPerOpponent times a season, and a player is listed only with at least
 * SEASON_POINTS.minOpponents distinct such opponents (or an event's bonus): N fresh accounts feeding wins
 * to a first are worth nothing, and an established one at most that many wins however long it plays.
 */
import type { Side } from '../ratings/rules';
import type { SeasonStanding } from '../../protocol/seasons';
import type { SeasonTally } from '../storage/accounts';
import { publicEvent, type EventDoc } from '../events/event';

export const SEASON_POINTS = {
  /** Points for a rated win, by side (the Editor '0', Nixon '1'). */
  win: { '0': 3, '1': 3 } as Record<Side, number>,
  /** Points for a rated game lost: none, so a farm account's losses give its owner nothing. */
  loss: 0,
  /** Rated wins over one opponent on one side that count in a season. */
  winsPerOpponent: 3,
  /** Distinct established opponents a player needs in the season to be listed (as LEADERBOARD_MIN_OPPONENTS does for the leaderboard). */
  minOpponents: 3,
} as const;

/**
 * A finished event's placement bonus (docs/EVENTS.md "Seasons"): 1st, 2nd and 3rd of the final
 * standings. Only rated events that are not a paired challenge's pair, finished in the season, with at
 * least `minPlayers` distinct accounts that played a game in it — so two or three accounts of one
 * person cannot make an event to farm it.
 */
export const EVENT_BONUS = { places: [6, 4, 2], minPlayers: 8 } as const;

/** The bonus points by username of the events finished in [from, to). */
export function eventBonuses(events: EventDoc[], from: number, to: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of events) {
    if (d.status !== 'finished' || !d.rated || d.challenge || d.finishedAt === undefined || d.finishedAt < from || d.finishedAt >= to) continue;
    const played = new Set(d.rounds.flatMap((r) => r.boards.flatMap((b) => b.games.flatMap((g) => [g.editor, g.nixon]))));
    if (played.size < EVENT_BONUS.minPlayers) continue;
    publicEvent(d).players.filter((p) => p.username !== 'deleted player').slice(0, EVENT_BONUS.places.length).forEach((p, i) => out.set(p.username, (out.get(p.username) ?? 0) + EVENT_BONUS.places[i]));
  }
  return out;
}

/** Seasons shown in the list (the current one and this many before it). */
export const PAST_SEASONS = 4;
/** Players listed in a season's table. */
export const SEASON_TABLE = 100;

export interface SeasonBounds {
  id: string;
  from: number;
  to: number;
}

const ID = /^(\d{4})-Q([1-4])$/;

/** The quarter holding `at` (UTC): "2026-Q4" runs from 1 October 00:00 to 1 January 00:00. */
export function seasonAt(at: number): SeasonBounds {
  const d = new Date(at);
  return bounds(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) + 1);
}

/** A season by its id, or undefined for anything else (hostile ids included). */
export function seasonByID(id: string): SeasonBounds | undefined {
  const m = ID.exec(id);
  if (!m) return undefined;
  const year = Number(m[1]);
  if (year < 2000 || year > 9999) return undefined;
  return bounds(year, Number(m[2]));
}

function bounds(year: number, q: number): SeasonBounds {
  return { id: `${year}-Q${q}`, from: Date.UTC(year, (q - 1) * 3, 1), to: Date.UTC(year, q * 3, 1) };
}

/** The season before. */
export const previous = (s: SeasonBounds): SeasonBounds => seasonAt(s.from - 1);

export type Tally = SeasonTally;

export type Standing = SeasonStanding;

/** The table: points (ties by more wins, then fewer games, then name), ranks shared by equal points and wins. */
export function standings(tallies: Tally[], limit = SEASON_TABLE, bonus: Map<string, number> = new Map()): Standing[] {
  const by = new Map<string, Omit<Standing, 'rank'>>();
  for (const [username, points] of bonus) by.set(username, { username, points, wins: 0, games: 0 });
  const opponents = new Map<string, Set<string>>();
  for (const t of tallies) opponents.set(t.username, (opponents.get(t.username) ?? new Set()).add(t.opponent));
  for (const t of tallies) {
    if (opponents.get(t.username)!.size < SEASON_POINTS.minOpponents && !bonus.has(t.username)) continue;
    const s = by.get(t.username) ?? { username: t.username, points: 0, wins: 0, games: 0 };
    const counted = Math.min(t.wins, SEASON_POINTS.winsPerOpponent);
    s.points += counted * SEASON_POINTS.win[t.side] + (t.games - t.wins) * SEASON_POINTS.loss;
    s.wins += counted;
    s.games += t.games;
    by.set(t.username, s);
  }
  const sorted = [...by.values()].sort((a, b) => b.points - a.points || b.wins - a.wins || a.games - b.games || (a.username < b.username ? -1 : 1));
  const out: Standing[] = [];
  sorted.forEach((s, i) => {
    const prev = out[i - 1];
    out.push({ ...s, rank: prev && prev.points === s.points && prev.wins === s.wins ? prev.rank : i + 1 });
  });
  return out.slice(0, limit);
}
