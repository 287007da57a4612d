/**
 * The HTTP bot API (docs/BOT-API.md "The HTTP bot API"), after Lichess's Bot API: personal API tokens
 * (tokens.ts), bot accounts, the seat's NDJSON game stream (streams.ts, view.ts) and its moves (routes.ts).
 * Mounted by server/app.ts: `tokens` under /auth/tokens (a signed-in session), `join` on the Lobby's join
 * route (a bot token stands for its account there), `routes` under /api/bot (tokens only).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import koaBody from 'koa-body';
import { enforce, type Limiter } from '../../limits';
import type { Logger } from '../../log';
import type { MatchService } from '../../match/service';
import type { AccountStore } from '../../storage/accounts';
import { address } from '../../accounts/routes';
import { addBotRoutes, joinWithToken } from './routes';
import { BotStreams } from './streams';
import { addTokenRoutes } from './tokens';

export { STREAMS } from './streams';
export { TOKENS } from './tokens';

export function botApi(o: { accounts: AccountStore; service: MatchService; limiter: Limiter; log: Logger; keepAliveMs?: number }): {
  tokens: Koa.Middleware;
  join: Koa.Middleware;
  routes: Koa.Middleware;
  /** A chat line of a match (as delivered to its seats' sockets): to the streams of its seats. */
  chat(matchID: string, line: unknown): void;
  close(): void;
} {
  const json = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '4kb', jsonStrict: true }) as unknown as Router.Middleware;
  const streams = new BotStreams({ service: o.service, accounts: o.accounts, log: o.log, keepAliveMs: o.keepAliveMs });
  const counted = (r: Router) =>
    r.use(async (ctx, next) => {
      await enforce(o.limiter, 'api', address(ctx as never));
      await next();
    });
  const tokenRouter = counted(new Router());
  addTokenRoutes({ router: tokenRouter, json, accounts: o.accounts, limiter: o.limiter, revoked: (id) => streams.revoked(id) });
  const botRouter = counted(new Router());
  addBotRoutes({ router: botRouter, json, accounts: o.accounts, service: o.service, limiter: o.limiter, streams });
  const tokens = tokenRouter.routes();
  const routes = botRouter.routes();
  return {
    tokens: (ctx, next) => (ctx.path === '/auth/tokens' || ctx.path.startsWith('/auth/tokens/') ? tokens(ctx as never, next) : next()),
    join: joinWithToken(o.accounts, o.limiter),
    routes: (ctx, next) => (ctx.path.startsWith('/api/bot/') ? routes(ctx as never, next) : next()),
    chat: (matchID, line) => streams.chat(matchID, line),
    close: () => streams.closeAll(),
  };
}
