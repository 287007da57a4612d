/**
 * GET /api/seasons (the current season's table head and the past seasons' winners) and
 * GET /api/seasons/:id (a season's table; "2026-Q4"). Public, nothing private: usernames, points, wins,
 * games. Each answer is kept in memory for CACHE_MS (the query reads a quarter's rated records), and the
 * routes are under the 'api' rate limit.
 */
import Router from '@koa/router';
import type { SeasonList, SeasonView } from '../../protocol/seasons';
import type Koa from 'koa';
import { enforce, type Limiter } from '../limits';
import type { AccountStore } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { EventDoc } from '../events/event';
import type { EventRows } from '../storage/events';
import { eventBonuses, PAST_SEASONS, previous, seasonAt, seasonByID, standings, type SeasonBounds, type Standing } from './season';

export const SEASONS_PATH = /^\/api\/seasons(\/|$)/;
const CACHE_MS = 30_000;

type SeasonDoc = SeasonView;

/** Stored events read for the placement bonus (the newest this many: docs/EVENTS.md "Seasons"). */
const EVENTS_READ = 2_000;

export function seasonRoutes(o: { accounts: AccountStore; events?: EventRows; limiter: Limiter; now?: () => number }): Koa.Middleware {
  const now = o.now ?? Date.now;
  const cache = new Map<string, { at: number; doc: Promise<SeasonDoc> }>();
  const season = (s: SeasonBounds): Promise<SeasonDoc> => {
    const t = now();
    const hit = cache.get(s.id);
    if (hit && t - hit.at < CACHE_MS) return hit.doc;
    const doc = Promise.all([o.accounts.seasonTallies(s.from, s.to), o.events ? o.events.list(EVENTS_READ) : []]).then(([tallies, rows]) => ({
      ...s,
      current: s.id === seasonAt(t).id,
      table: standings(tallies, undefined, eventBonuses(rows.filter((r) => r.status === 'finished').map((r) => JSON.parse(r.doc) as EventDoc), s.from, s.to)),
    }));
    doc.catch(() => cache.delete(s.id));
    if (cache.size > 50) cache.clear();
    cache.set(s.id, { at: t, doc });
    return doc;
  };
  const router = new Router({ prefix: '/api/seasons' });
  router.use(async (ctx, next) => {
    await enforce(o.limiter, 'api', ctx.state.clientAddress as string);
    await next();
  });
  router.get('/', async (ctx) => {
    let s = seasonAt(now());
    const current = await season(s);
    const past: { id: string; from: number; to: number; winners: Standing[] }[] = [];
    for (let i = 0; i < PAST_SEASONS; i++) {
      s = previous(s);
      const d = await season(s);
      past.push({ id: d.id, from: d.from, to: d.to, winners: d.table.filter((x) => x.rank === 1) });
    }
    ctx.body = { current: { ...current, table: current.table.slice(0, 10) }, past } satisfies SeasonList;
  });
  router.get('/:id', async (ctx) => {
    const s = seasonByID(ctx.params.id);
    if (!s || s.from > now()) throw new HttpError(404, 'no such season');
    ctx.body = await season(s);
  });
  const routes = router.routes();
  return (ctx, next) => (SEASONS_PATH.test(ctx.path) ? routes(ctx as never, next) : next());
}
