/**
 * Following players (like Lichess: no consent asked, and nothing told to the one followed). Signed in:
 * `POST /api/follow/:username`, `DELETE /api/follow/:username`, and `GET /api/following` — the caller's
 * own list, private to them (nobody else can read who follows whom, not even the one followed): each
 * followed player with whether they are online now and the games they are playing, with the address to
 * watch those that are not private (lobby/public.ts isPrivate). At most FOLLOWS.max per account; changes
 * count against the account's `social` limit.
 *
 * Online: a socket connected to one of their unfinished matches (match/presence.ts keeps `isConnected`
 * across processes), or a page of ours open — the lobby's friends list asks `GET /api/following` every
 * minute, and each asking marks the asker active (stored at most every ACTIVE_WRITE_MS).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { nameKey } from '../../protocol/accounts';
import { openSeat } from '../../protocol/index';
import { address } from '../accounts/routes';
import { signedIn } from '../accounts/session';
import { enforce, type Limiter } from '../limits';
import { isPrivate } from '../lobby/public';
import type { AccountStore } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { Followed, FollowRows } from '../storage/follows';

export const FOLLOWS = {
  /** Players one account may follow. */
  max: 500,
  /** A page asked within this long: online. */
  activeMs: 150_000,
  /** How often one process stores an account's activity. */
  activeWriteMs: 30_000,
} as const;

/** One followed player as the follower sees it. */
export interface FollowedView {
  username: string;
  online: boolean;
  /** Games in play (both seats taken, not over). */
  playing: number;
  /** Those of them anyone may watch (#/match/:id). */
  watch: string[];
}

export function followedView(f: Followed, now: number): FollowedView {
  const inPlay = f.seats.filter((s) => s.metadata.gameover === undefined && openSeat(Object.values(s.metadata.players)) === null);
  const connected = f.seats.some((s) => s.metadata.players[Number(s.seat)]?.isConnected === true);
  return {
    username: f.username,
    online: connected || (f.activeAt !== null && now - f.activeAt < FOLLOWS.activeMs),
    playing: inPlay.length,
    watch: inPlay.filter((s) => !isPrivate(s.metadata)).map((s) => s.matchID),
  };
}

export function followRoutes(o: { social: FollowRows; accounts: AccountStore; limiter: Limiter }): Koa.Middleware {
  const router = new Router({ prefix: '/api' });
  // Every request counts against the address's `api` limit, as the account routes do.
  router.use(async (ctx, next) => {
    await enforce(o.limiter, 'api', address(ctx as never));
    await next();
  });
  const written = new Map<string, number>();
  const markActive = async (accountID: string, now: number) => {
    if ((written.get(accountID) ?? 0) > now - FOLLOWS.activeWriteMs) return;
    if (written.size > 10_000) written.clear(); // bounded memory: at worst one write more each
    written.set(accountID, now);
    await o.social.active(accountID, now);
  };
  const target = async (ctx: Koa.Context) => {
    const raw = ctx.params.username as string;
    const a = raw.length <= 100 ? await o.accounts.byKey(nameKey(raw)) : undefined;
    if (!a) throw new HttpError(404, 'no such player');
    return a;
  };
  router.post('/follow/:username', async (ctx) => {
    const me = signedIn(ctx as never);
    await enforce(o.limiter, 'social', me.id);
    const them = await target(ctx as never);
    if (them.id === me.id) throw new HttpError(400, 'you cannot follow yourself');
    const r = await o.social.follow(me.id, them.id, Date.now(), FOLLOWS.max);
    if (r === 'full') throw new HttpError(409, `you follow ${FOLLOWS.max} players already: unfollow one first`);
    ctx.body = { following: true, username: them.username };
  });
  router.delete('/follow/:username', async (ctx) => {
    const me = signedIn(ctx as never);
    await enforce(o.limiter, 'social', me.id);
    const them = await target(ctx as never);
    await o.social.unfollow(me.id, them.id);
    ctx.body = { following: false, username: them.username };
  });
  router.get('/following', async (ctx) => {
    const me = signedIn(ctx as never);
    const now = Date.now();
    await markActive(me.id, now);
    ctx.body = { players: (await o.social.following(me.id)).map((f) => followedView(f, now)) };
  });
  const routes = router.routes();
  return (ctx, next) => (ctx.path === '/api/following' || ctx.path.startsWith('/api/follow/') ? routes(ctx as never, next) : next());
}
