/**
 * Public profiles and the leaderboard: ratings by side (with their history), the record by side, by
 * opponent and against the computer's levels, the average game, and the finished matches (their replays
 * are public once over). Nothing private: no account id, no settings.
 */
import type Router from '@koa/router';
import { SIDE_OF_SEAT, type Leaderboard, type Profile, type RatedSide, type WinLoss } from '../../protocol/accounts';
import type { AccountStore, ResultRow } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import { GLICKO } from '../ratings/glicko';
import { SIDES } from '../ratings/rules';
import { nameKey } from '../../protocol/accounts';

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

export function profileOf(username: string, ratings: Partial<Record<'0' | '1', { rating: number; rd: number; games: number }>>, rows: ResultRow[]): Profile {
  const side = (s: '0' | '1') => ({ rating: ratings[s]?.rating ?? GLICKO.rating, rd: ratings[s]?.rd ?? GLICKO.rd, games: ratings[s]?.games ?? 0 });
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
    matches: rows.slice(0, LISTED).map((r) => ({ matchID: r.matchID, side: r.side, opponent: r.opponentName, level: r.opponentLevel, won: r.won, reason: r.reason, rated: r.rated, ratingAfter: r.ratingAfter, moves: r.moves, finishedAt: r.finishedAt })),
  };
}

export function addPlayerRoutes(o: { router: Router; accounts: AccountStore; minGames: number }): void {
  const { router, accounts } = o;
  router.get('/players/:username', async (ctx) => {
    const raw = ctx.params.username;
    const a = raw.length <= 100 ? await accounts.byKey(nameKey(raw)) : undefined;
    if (!a) throw new HttpError(404, 'no such player');
    const ratings = (await accounts.ratings([a.id])).get(a.id) ?? {};
    ctx.body = profileOf(a.username, ratings, await accounts.results(a.id, PROFILE_RESULTS));
  });

  router.get('/leaderboard', async (ctx) => {
    const role = ctx.query.role ?? 'combined';
    if (role !== 'editor' && role !== 'nixon' && role !== 'combined') throw new HttpError(400, 'role must be "editor", "nixon" or "combined"');
    const side = role === 'combined' ? 'combined' : SIDES[role === 'editor' ? 0 : 1];
    const players = await accounts.leaderboard(side, o.minGames, 100);
    ctx.body = { role, minGames: o.minGames, players } satisfies Leaderboard;
  });
}
