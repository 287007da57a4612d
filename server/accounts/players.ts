/**
 * Public profiles and the leaderboard: ratings by side (with their history), the record by side, by
 * opponent and against the computer's levels, the average game, and the finished matches (their replays
 * are public once over). Nothing private: no account id, no settings, and no unlisted match to anyone who
 * was not seated in it (the ratings themselves count every rated game).
 */
import type Router from '@koa/router';
import { SIDE_OF_SEAT, type Leaderboard, type Profile, type RatedSide, type WinLoss } from '../../protocol/accounts';
import type { Account, AccountStore, BoardEntry, ResultRow, Side } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import { atTime, GLICKO, type Rating } from '../ratings/glicko';
import { isProvisional, LEADERBOARD_MIN_OPPONENTS, PROVISIONAL_RD, SIDES } from '../ratings/rules';
import { nameKey } from '../../protocol/accounts';

/**
 * How long a leaderboard is served from memory. Its query reads every side rating (about 60 ms at
 * 100,000 accounts, on the event loop with SQLite): a flood of requests, or many people opening it,
 * must not repeat that. Ratings move only when games end, so a board this old reads the same.
 */
export const LEADERBOARD_FRESH_MS = 15_000;

/** Finished matches a profile reads (and lists). */
const PROFILE_RESULTS = 500;
const LISTED = 50;

const tally = <K extends string>(rows: ResultRow[], key: (r: ResultRow) => K | null): Map<K, WinLoss> => {
  const out = new Map<K, WinLoss>();
  for (const r of rows) {
    const k = key(r);
    if (k === null) continue;
    const t = out.get(k) ?? { won: 0, lost: 0 };
    if (r.won) t.won++;
    else t.lost++;
    out.set(k, t);
  }
  return out;
};

const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** A side's rating as shown at `now` (its deviation widened by the time since its last rated game), a newcomer's when it has none. */
export function sideAt(r: Rating | undefined, now: number): { rating: number; rd: number; games: number; provisional: boolean } {
  if (!r) return { rating: GLICKO.rating, rd: GLICKO.rd, games: 0, provisional: true };
  const { rating, rd, games } = atTime(r, now);
  return { rating, rd, games, provisional: isProvisional(rd) };
}

/** A leaderboard line as shown at `now`: one side's rating, or both sides' mean (games added up). */
export function boardRow({ username, ratings }: BoardEntry, side: Side | 'combined', now: number): Leaderboard['players'][number] {
  if (side !== 'combined') return { username, ...sideAt(ratings[side], now) };
  const [e, n] = SIDES.map((s) => sideAt(ratings[s], now));
  return { username, rating: (e.rating + n.rating) / 2, rd: (e.rd + n.rd) / 2, games: e.games + n.games, provisional: e.provisional || n.provisional };
}

export function profileOf(username: string, ratings: Partial<Record<'0' | '1', Rating>>, rows: ResultRow[], now: number): Profile {
  const side = (s: '0' | '1') => sideAt(ratings[s], now);
  const oldestFirst = [...rows].reverse();
  const history = { editor: [], nixon: [] } as Profile['history'];
  for (const r of oldestFirst) if (r.rated && r.ratingAfter !== null) history[SIDE_OF_SEAT[r.side]].push({ at: r.finishedAt, rating: r.ratingAfter });
  const bySide = tally(rows, (r) => SIDE_OF_SEAT[r.side] as RatedSide);
  return {
    username,
    ratings: { editor: side('0'), nixon: side('1') },
    history,
    bySide: { editor: bySide.get('editor') ?? { won: 0, lost: 0 }, nixon: bySide.get('nixon') ?? { won: 0, lost: 0 } },
    byOpponent: [...tally(rows, (r) => (r.opponentLevel ? null : r.opponentName)).entries()].map(([opponent, t]) => ({ opponent, ...t })),
    byLevel: [...tally(rows, (r) => r.opponentLevel).entries()].map(([level, t]) => ({ level, ...t })),
    averageMoves: mean(rows.map((r) => r.moves)),
    averageMinutes: mean(rows.map((r) => (r.finishedAt - r.startedAt) / 60_000)),
    matches: rows.slice(0, LISTED).map((r) => ({ matchID: r.matchID, side: r.side, opponent: r.opponentName, level: r.opponentLevel, won: r.won, reason: r.reason, rated: r.rated, unratedReason: r.unratedReason, ratingBefore: r.ratingBefore, ratingAfter: r.ratingAfter, provisional: r.rdAfter !== null && isProvisional(r.rdAfter), moves: r.moves, finishedAt: r.finishedAt })),
  };
}

export function addPlayerRoutes(o: { router: Router; accounts: AccountStore; minGames: number }): void {
  const { router, accounts } = o;
  router.get('/players/:username', async (ctx) => {
    const raw = ctx.params.username;
    const a = raw.length <= 100 ? await accounts.byKey(nameKey(raw)) : undefined;
    if (!a) throw new HttpError(404, 'no such player');
    const ratings = (await accounts.ratings([a.id])).get(a.id) ?? {};
    // Unlisted matches only for someone seated in them (the player, or that match's opponent, signed in):
    // to everyone else they are not there, in the list or in any count (docs/SECURITY.md "Unlisted matches and the players' chat").
    const viewer = (ctx.state.account as Account | undefined)?.id ?? null;
    ctx.body = { ...profileOf(a.username, ratings, await accounts.results(a.id, PROFILE_RESULTS, { seenBy: viewer }), Date.now()), ...(a.bot ? { bot: true as const } : {}) };
  });

  // Each side's board as last read, shared by every request until it is LEADERBOARD_FRESH_MS old (one
  // read at a time: requests that come while it runs wait for it); a failed read is not kept.
  const boards = new Map<Side | 'combined', { at: number; players: Promise<Leaderboard['players']> }>();
  const board = (side: Side | 'combined') => {
    const now = Date.now();
    const kept = boards.get(side);
    if (kept && now >= kept.at && now - kept.at < LEADERBOARD_FRESH_MS) return kept.players;
    // Storage lists established ratings as stored; one idle long enough to be provisional again at `now` is left off too.
    const players = accounts.leaderboard(side, o.minGames, 100).then((entries) => entries.map((entry) => boardRow(entry, side, now)).filter((p) => !p.provisional));
    boards.set(side, { at: now, players });
    players.catch(() => boards.get(side)?.players === players && boards.delete(side));
    return players;
  };

  router.get('/leaderboard', async (ctx) => {
    const role = ctx.query.role ?? 'combined';
    if (role !== 'editor' && role !== 'nixon' && role !== 'combined') throw new HttpError(400, 'role must be "editor", "nixon" or "combined"');
    ctx.body = { role, minGames: o.minGames, minOpponents: LEADERBOARD_MIN_OPPONENTS, provisionalRD: PROVISIONAL_RD, players: await board(role === 'combined' ? 'combined' : SIDES[role === 'editor' ? 0 : 1]) } satisfies Leaderboard;
  });
}
