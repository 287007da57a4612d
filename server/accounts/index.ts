/**
 * Accounts, your matches on every device, profiles and the leaderboard, and quick pairing, mounted in
 * front of the Lobby API (docs/ARCHITECTURE.md "Accounts"): the session middleware (which every Lobby
 * route then sees: a signed-in player's seats belong to the account) and the routes under /auth, /me,
 * /players, /leaderboard and /pair, each counted against the address's `api` limit.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import koaBody from 'koa-body';
import type { Game } from 'boardgame.io';
import { enforce, type Limiter } from '../limits';
import type { MatchService } from '../match/service';
import type { MatchStore } from '../storage/types';
import { addMeRoutes } from './me';
import { addPairingRoutes } from './pairing';
import { addPasskeyRoutes } from './passkeys';
import { addPlayerRoutes } from './players';
import { addResultRoute, RESULT_PATH } from './result';
import { PASSWORD_COST } from './password';
import { addAuthRoutes, address } from './routes';
import { seer } from './seen';
import { sessions as makeSessions } from './session';

/** Players listed on the leaderboard have at least this many rated games on that side (LEADERBOARD_MIN_GAMES). */
export const DEFAULT_LEADERBOARD_MIN_GAMES = 3;

export const ACCOUNT_PATHS = /^\/(auth|me|players|leaderboard|pair)(\/|$)/;
/** Routes elsewhere that a session signs in too (server/challenges/: challenges, blocks, the event stream; social/follows.ts and notify/push-routes.ts: follows and push; server/events/: tournaments). */
const SESSION_API_PATHS = /^\/api\/(challenge|block|stream\/event|follow|following|push|tournaments)(\/|$)/;

export interface AccountOptions {
  store: MatchStore;
  service: MatchService;
  limiter: Limiter;
  game: Game;
  /** PUBLIC_URL: an https address makes the session cookie Secure. */
  publicUrl?: string;
  leaderboardMinGames?: number;
  /** PASSWORD_COST: log2 of scrypt's N for new password hashes (default 15). */
  passwordCost?: number;
  /** Sessions of an account ended here, or the account deleted (server/challenges/: its event streams close). */
  sessionsEnded?: (accountID: string) => void;
}

export function accounts(o: AccountOptions): { sessions: Koa.Middleware; routes: Koa.Middleware } {
  const secure = o.publicUrl?.startsWith('https:') ?? false;
  const see = seer(o.store.accounts, secure);
  const sessions = makeSessions(o.store.accounts, { secure, seen: (ctx, accountID) => see(ctx, accountID, true) });
  const json = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '16kb', jsonStrict: true }) as unknown as Router.Middleware;
  const router = new Router();
  router.use(async (ctx, next) => {
    await enforce(o.limiter, 'api', address(ctx));
    await next();
  });
  const accountsStore = o.store.accounts;
  addAuthRoutes({ router, json, accounts: accountsStore, sessions, limiter: o.limiter, service: o.service, passwordCost: o.passwordCost ?? PASSWORD_COST.default, sessionsEnded: o.sessionsEnded });
  addPasskeyRoutes({ router, json, accounts: accountsStore, sessions, limiter: o.limiter, passwordCost: o.passwordCost ?? PASSWORD_COST.default });
  addMeRoutes({ router, json, store: o.store, service: o.service, limiter: o.limiter });
  addPlayerRoutes({ router, accounts: accountsStore, minGames: o.leaderboardMinGames ?? DEFAULT_LEADERBOARD_MIN_GAMES });
  addResultRoute({ router, store: o.store });
  addPairingRoutes({ router, json, accounts: accountsStore, game: o.game, service: o.service, limiter: o.limiter, secure });
  const routes = router.routes();
  return {
    // Only where a session matters (the Lobby API and these routes): the client's files cost no lookup.
    sessions: (ctx, next) => (
      // The challenge and lobby routes record where an account plays rated games from (accounts/seen.ts seeHere).
      (ctx.state.see = see), ACCOUNT_PATHS.test(ctx.path) || ctx.path.startsWith('/games') || SESSION_API_PATHS.test(ctx.path) ? sessions.middleware(ctx, next) : next()),
    routes: (ctx, next) => (ACCOUNT_PATHS.test(ctx.path) || RESULT_PATH.test(ctx.path) ? routes(ctx as never, next) : next()),
  };
}
