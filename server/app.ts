/**
 * The Watergate server: boardgame.io's Koa Server (Lobby API + socket.io) on one port, with our storage,
 * strict credentials, origin checks, guarded sockets, the built client, /healthz and structured logs.
 *
 * Seams for later work (bot seats, issue 5): `onMatchCreated` runs after every new match is stored,
 * `onMoveSaved` after every saved move, `extend` may add Koa routes before boardgame.io's, and the
 * running server's `move()` plays for a seat from inside (same checks and broadcasts as a client's).
 */
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import cors from '@koa/cors';
import Router from '@koa/router';
import type Koa from 'koa';
import type { Game } from 'boardgame.io';
import { Server, SocketIO } from 'boardgame.io/server';
import { Watergate } from '../game/index';
import { authenticateCredentials, generateCredentials } from './auth';
import { createLogger, type Logger } from './log';
import { lobbyRoutes, type LobbyHooks } from './lobby/routes';
import { isAllowedOrigin, originPatterns } from './origins';
import { guardSockets, type GuardHooks } from './socket/guard';
import { internals, ioOf } from './socket/transport';
import { clientMiddleware } from './static';
import type { MatchStore } from './storage/store';

export interface ServerOptions extends LobbyHooks, GuardHooks {
  store: MatchStore;
  port?: number;
  host?: string;
  /** Browser origins allowed besides the server's own (patterns, see origins.ts). */
  origins?: string[];
  /** Built client to serve (dist/client); none when absent. */
  clientDir?: string;
  log?: Logger;
  extend?: (ctx: { app: Koa; router: Router; store: MatchStore; log: Logger; game: Game }) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  store: MatchStore;
  log: Logger;
  /** Sends the stored state to every client of a match (after a change made outside a move). */
  resync(matchID: string): Promise<void>;
  /**
   * Makes a move for a seat from inside the server (a bot's seat): the same checks, queue, storage and
   * broadcasts as a client's move. Resolves to the refusal reason, or null when the move was saved.
   */
  move(matchID: string, playerID: '0' | '1', move: string, arg: unknown): Promise<string | null>;
  /** Stops accepting, lets queued moves finish writing, closes sockets and storage. */
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const log = opts.log ?? createLogger('silent');
  const { store } = opts;
  const patterns = originPatterns(opts.origins ?? []);
  const game = Watergate as Game;

  const transport = new SocketIO({
    socketOpts: {
      // boardgame.io passes `cors: { origins }`, a key socket.io ignores (so it answers `*`): replace it.
      cors: { origin: (origin: string | undefined, cb: (e: Error | null, ok?: boolean) => void) => cb(null, origin ? patterns.some((p) => p.test(origin)) : false) },
      allowRequest: (req: { headers: Record<string, string | undefined> }, cb: (e: string | null | number, ok: boolean) => void) => {
        const ok = isAllowedOrigin(req.headers.origin, req.headers.host, patterns);
        if (!ok) log.warn({ origin: req.headers.origin }, 'socket handshake from a foreign origin refused');
        cb(ok ? null : 'origin not allowed', ok);
      },
      maxHttpBufferSize: 64 * 1024,
    } as never,
  });
  const server = Server({ games: [game], db: store, transport, origins: [], authenticateCredentials: (c, seat) => authenticateCredentials(c, seat), generateCredentials });
  const app = server.app as unknown as Koa;

  // Errors become JSON { error } with their status; unexpected ones are logged and hidden.
  app.use(async (ctx, next) => {
    const started = Date.now();
    try {
      await next();
    } catch (e) {
      const err = e as { status?: number; expose?: boolean; message?: string };
      ctx.status = err.status && err.status >= 400 && err.status < 600 ? err.status : 500;
      ctx.body = { error: ctx.status < 500 || err.expose ? err.message : 'internal server error' };
      if (ctx.status >= 500) log.error({ err: e, method: ctx.method, path: ctx.path }, 'request failed');
    } finally {
      const level = ctx.path.startsWith('/games') ? 'info' : 'debug';
      log[level]({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Date.now() - started }, 'http');
    }
  });
  app.use(async (ctx, next) => {
    if (ctx.path !== '/healthz') return next();
    try {
      await store.sql.query('SELECT 1');
      ctx.body = { status: 'ok', storage: store.sql.kind };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', storage: store.sql.kind };
    }
  });
  // A browser request from a foreign origin is refused outright, not just left without CORS headers.
  app.use(async (ctx, next) => {
    if (!isAllowedOrigin(ctx.get('Origin') || undefined, ctx.host, patterns)) ctx.throw(403, 'origin not allowed');
    await next();
  });
  app.use(cors({ origin: (ctx) => ctx.get('Origin'), allowMethods: ['GET', 'POST'] }));
  const lobby = lobbyRoutes(game, store, { onMatchCreated: opts.onMatchCreated });
  app.use(lobby.routes());
  if (opts.extend) {
    const extra = new Router();
    opts.extend({ app, router: extra, store, log, game });
    app.use(extra.routes()).use(extra.allowedMethods());
  }
  if (opts.clientDir) for (const mw of clientMiddleware(opts.clientDir)) app.use(mw);

  const guard = guardSockets(app, transport, game, store, log, { onMoveSaved: opts.onMoveSaved });

  // server.run() listens on every interface: bind the configured host instead (STACK.md trap 6).
  const host = opts.host ?? '127.0.0.1';
  const listen = app.listen.bind(app) as (...a: unknown[]) => HttpServer;
  (app as { listen: unknown }).listen = (port: number, cb: () => void) => listen(port, host, cb);
  const { appServer } = await server.run({ port: opts.port ?? 0 });
  const port = (appServer.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url, host, port, storage: store.sql.kind }, 'listening');

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      log.info('shutting down');
      const io = ioOf(app);
      const t = internals(transport);
      appServer.close();
      guard.stopMoves();
      // A shutdown is not a player leaving: don't write "disconnected" for every seat on the way out.
      for (const s of io.of(game.name!).sockets.values()) s.removeAllListeners('disconnect');
      await Promise.all([...t.perMatchQueue.values()].map((q) => q.onIdle()));
      io.close();
      appServer.closeAllConnections();
      await store.close();
      log.info('stopped');
    })());

  return { url, port, store, log, resync: guard.resync, move: guard.serverMove, close };
}
