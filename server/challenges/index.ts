/**
 * Challenges by name, blocks and the account's event stream (docs/BOT-API.md "Challenges", "The event
 * stream"; docs/ARCHITECTURE.md "Blocks and challenges"), mounted by server/app.ts after the session
 * middleware: /api/challenge…, /api/block… and /api/stream/event, each counted against the address's
 * `api` limit, signed in by the session cookie or a `bot`-scoped API token.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import koaBody from 'koa-body';
import type { Game } from 'boardgame.io';
import { address } from '../accounts/routes';
import type { Bus } from '../bus/index';
import { enforce, type Limiter } from '../limits';
import type { Logger } from '../log';
import type { MatchService } from '../match/service';
import { addBlockRoutes } from '../social/blocks';
import type { MatchData, MatchStore } from '../storage/types';
import { openSeat } from '../../protocol/index';
import { AccountEvents } from './events';
import { addChallengeRoutes, type ChallengeNoticeHook } from './routes';

export { CHALLENGES } from './routes';
export { EVENTS } from './events';

/** The paths served here (the session middleware reads the cookie on them). */
export const SOCIAL_PATHS = /^\/api\/(challenge|block|stream\/event)(\/|$)/;

export function challenges(o: { store: MatchStore; service: MatchService; game: Game; bus: Bus; limiter: Limiter; log: Logger; keepAliveMs?: number; notice?: ChallengeNoticeHook; kick?: (eventID: string) => Promise<void> }): { routes: Koa.Middleware; gameStart(matchID: string, metadata: MatchData): void; joined(matchID: string, metadata: MatchData): void; sessionsEnded(accountID: string): void; close(): void } {
  const json = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '2kb', jsonStrict: true }) as unknown as Router.Middleware;
  const events = new AccountEvents({ bus: o.bus, service: o.service, accounts: o.store.accounts, log: o.log, keepAliveMs: o.keepAliveMs });
  const router = new Router();
  router.use(async (ctx, next) => {
    await enforce(o.limiter, 'api', address(ctx as never));
    await next();
  });
  addChallengeRoutes({ router, json, store: o.store, service: o.service, game: o.game, limiter: o.limiter, events, notice: o.notice, kick: o.kick });
  addBlockRoutes({ router, accounts: o.store.accounts, social: o.store.social, limiter: o.limiter });
  const routes = router.routes();
  return {
    gameStart: (matchID: string, metadata: MatchData) => events.gameStart(matchID, metadata),
    routes: (ctx, next) => (SOCIAL_PATHS.test(ctx.path) ? routes(ctx as never, next) : next()),
    // A seat taken through the Lobby's join route that completes the match: its account seats hear gameStart.
    joined: (matchID, metadata) => {
      if (openSeat(Object.values(metadata.players)) === null) events.gameStart(matchID, metadata);
    },
    // Sessions of the account ended here (or the account went): its event streams opened by them close now.
    sessionsEnded: (accountID) => void events.recheck(accountID).catch(() => undefined),
    close: () => events.closeAll(),
  };
}
