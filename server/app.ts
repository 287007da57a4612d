/**
 * The Watergate server: boardgame.io's Koa Server (its list of games) with our Lobby API, the match
 * service (the move path), our socket endpoint, the bus to other processes, the in-process bots, the
 * built client, /healthz, /metrics, structured logs and the removal of stale matches — on one port.
 * docs/ARCHITECTURE.md has the map.
 *
 * Seams: `onMatchCreated` runs after every new match is stored, `onMoveSaved` after every saved move,
 * `extend` may add Koa routes before boardgame.io's, and the running server's `move()` plays a seat
 * from inside (the same checks, write and deliveries as a client's move).
 */
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import cors from '@koa/cors';
import Router from '@koa/router';
import type Koa from 'koa';
import type { Game, State } from 'boardgame.io';
import { Server } from 'boardgame.io/server';
import { Watergate, type PlayerID } from '../game/index';
import { BotRunner, type BotOptions } from '../bots/server';
import { authenticateCredentials, generateCredentials } from './auth';
import { localBus, type Bus } from './bus/index';
import { createLogger, type Logger } from './log';
import { createLimiter, type Limiter, type LimiterOptions } from './limits';
import { DEFAULT_STALE_HOURS } from './config';
import { lobbyReads, lobbyRoutes, type LobbyHooks } from './lobby/routes';
import { ClockKeeper } from './match/clocks';
import { PresenceLeases } from './match/presence';
import { MatchService } from './match/service';
import { startStaleSweeper } from './match/stale';
import { createMetrics, type Metrics } from './metrics';
import { TurnNotifier } from './notify/notifier';
import type { SendOptions } from './notify/webhook';
import { isAllowedOrigin, originPatterns } from './origins';
import { GameSockets } from './socket/sockets';
import { clientMiddleware } from './static';
import { LobbyReads } from './storage/lobby-db';
import type { MatchStore } from './storage/types';

export interface ServerOptions extends LobbyHooks {
  store: MatchStore;
  /** Other processes' news (Redis); default: this process alone. */
  bus?: Bus;
  port?: number;
  host?: string;
  /** Browser origins allowed besides the server's own (patterns, see origins.ts). */
  origins?: string[];
  /** Built client to serve (dist/client); none when absent. */
  clientDir?: string;
  log?: Logger;
  /** Snapshot the whole state every this many moves (docs/ARCHITECTURE.md "Storage"). */
  snapshotEvery?: number;
  /** Unfinished matches idle this long with nobody connected are removed (default 24; 0: never). */
  staleHours?: number;
  /** How often storage is searched for clock deadlines no process has in memory (ms; default 30 s). */
  clockScanMs?: number;
  /** Bots for seats marked `data.bot` (vs computer); none when absent. */
  bots?: BotOptions;
  /** Turn-notification webhooks: `allowLocal` (ALLOW_LOCAL_WEBHOOKS) lets them reach private addresses; timings for tests. */
  webhooks?: Partial<Omit<SendOptions, 'signal'>>;
  /** The address players open (PUBLIC_URL), for links in notifications. */
  publicUrl?: string;
  /** Limits per client (server/limits.ts): replaced values, or `off` (tools measuring the server alone). */
  limits?: LimiterOptions['limits'] | 'off';
  /** Redis to count limits in, shared by every process (REDIS_URL); absent: this process's memory. */
  limitsRedis?: LimiterOptions['redis'];
  /** Prefix of the limits' Redis keys (REDIS_PREFIX). */
  limitsPrefix?: string;
  /** Behind a proxy we run (TRUST_PROXY): the client's address is the last of X-Forwarded-For. */
  trustProxy?: boolean;
  /** A server process unheard of for this long no longer holds its seats connected (default 60 s). */
  presenceLeaseMs?: number;
  /** After every saved move of this process. */
  onMoveSaved?: (event: { matchID: string; state: State }) => void | Promise<void>;
  extend?: (ctx: { app: Koa; router: Router; store: MatchStore; log: Logger; game: Game }) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  store: MatchStore;
  service: MatchService;
  metrics: Metrics;
  log: Logger;
  bots: BotRunner | null;
  /** Plays a seat from inside the server: resolves to the refusal's reason, or null when saved. */
  move(matchID: string, playerID: PlayerID, move: string, arg: unknown): Promise<string | null>;
  /** Stops accepting, lets moves in progress finish writing, closes sockets, bots, bus and storage. */
  close(): Promise<void>;
}

/** How long /healthz waits for storage before it answers "unavailable". */
const HEALTH_WAIT_MS = 1000;

/** Defaults measured in docs/LOAD.md. */
export const DEFAULT_SNAPSHOT_EVERY = 50;

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const log = opts.log ?? createLogger('silent');
  const { store } = opts;
  const bus = opts.bus ?? localBus();
  const patterns = originPatterns(opts.origins ?? []);
  const game = Watergate as Game;
  const metrics = createMetrics();
  const limiter: Limiter = createLimiter({ off: opts.limits === 'off', limits: opts.limits === 'off' ? undefined : opts.limits, redis: opts.limitsRedis, prefix: `${opts.limitsPrefix ?? 'wg:'}rl:` });
  const trustProxy = opts.trustProxy ?? false;
  store.observe = (op, s) => metrics.storageSeconds.observe({ op }, s);

  const service = new MatchService({ game, store, bus, log, metrics, snapshotEvery: opts.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY });
  if (opts.onMoveSaved) {
    const hook = opts.onMoveSaved;
    service.onState((m) => {
      if (m.reason === 'move') Promise.resolve(hook({ matchID: m.matchID, state: m.state })).catch((e: unknown) => log.error({ err: e, matchID: m.matchID }, 'onMoveSaved failed'));
    });
  }
  const bots = opts.bots ? new BotRunner({ ...opts.bots, service, store, log, metrics }) : null;
  let url = '';
  const notifier = new TurnNotifier({ service, log, metrics, publicUrl: opts.publicUrl, listenUrl: () => url, send: { allowLocal: false, ...opts.webhooks } });
  const clocks = new ClockKeeper({ service, store, log, scanMs: opts.clockScanMs });
  const sockets = new GameSockets({
    game,
    service,
    log,
    limiter,
    trustProxy,
    socketOpts: {
      // boardgame.io passes `cors: { origins }`, a key socket.io ignores (so it answers `*`): replace it.
      cors: { origin: (origin: string | undefined, cb: (e: Error | null, ok?: boolean) => void) => cb(null, origin ? patterns.some((p) => p.test(origin)) : false) },
      allowRequest: (req: { headers: Record<string, string | undefined> }, cb: (e: string | null | number, ok: boolean) => void) => {
        const ok = isAllowedOrigin(req.headers.origin, req.headers.host, patterns);
        if (!ok) log.warn({ origin: req.headers.origin }, 'socket handshake from a foreign origin refused');
        cb(ok ? null : 'origin not allowed', ok);
      },
      maxHttpBufferSize: 64 * 1024,
    },
  });
  metrics.gauges({ sockets: () => sockets.openSockets, matches: () => service.activeMatches, busUp: () => (bus.status() === 'down' ? 0 : 1) });

  const server = Server({
    games: [game],
    db: new LobbyReads(store),
    transport: sockets as never,
    origins: [],
    authenticateCredentials: (c, seat) => authenticateCredentials(c, seat),
    generateCredentials,
  });
  const app = server.app as unknown as Koa;

  // Errors become JSON { error } with their status; unexpected ones are logged and hidden.
  app.use(async (ctx, next) => {
    const started = Date.now();
    try {
      await next();
    } catch (e) {
      const err = e as { status?: number; expose?: boolean; message?: string; retryAfterSeconds?: number };
      ctx.status = err.status && err.status >= 400 && err.status < 600 ? err.status : 500;
      if (err.retryAfterSeconds) ctx.set('Retry-After', String(err.retryAfterSeconds));
      ctx.body = { error: ctx.status < 500 || err.expose ? err.message : 'internal server error' };
      if (ctx.status === 503) log.warn({ err: err.message, method: ctx.method, path: ctx.path }, 'request refused: storage unavailable');
      else if (ctx.status >= 500) log.error({ err: e, method: ctx.method, path: ctx.path }, 'request failed');
    } finally {
      const level = ctx.path.startsWith('/games') ? 'info' : 'debug';
      log[level]({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Date.now() - started }, 'http');
    }
  });
  app.use(async (ctx, next) => {
    if (ctx.path === '/metrics') {
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
      return;
    }
    if (ctx.path !== '/healthz') return next();
    const busStatus = bus.status();
    const body = { status: 'ok', storage: store.kind, bus: bus.kind === 'local' ? 'none' : `redis: ${busStatus === 'ok' ? 'connected' : 'down'}` };
    // A stalled database must not stall the router's health check: its answer, or "no" within a second.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reason = await Promise.race([
      store.ping().then(
        () => null,
        () => 'storage unavailable: it refused or lost the connection',
      ),
      new Promise<string>((r) => (timer = setTimeout(() => r('storage unavailable: no answer within 1 s'), HEALTH_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
    if (reason) {
      ctx.status = 503;
      ctx.set('Retry-After', '1');
      ctx.body = { ...body, status: 'unavailable', reason };
      return;
    }
    // Without the bus this process still serves its own matches: degraded, not down (the router keeps it).
    ctx.body = busStatus === 'down' ? { ...body, status: 'degraded' } : body;
  });
  // A browser request from a foreign origin is refused outright, not just left without CORS headers.
  app.use(async (ctx, next) => {
    if (!isAllowedOrigin(ctx.get('Origin') || undefined, ctx.host, patterns)) ctx.throw(403, 'origin not allowed');
    await next();
  });
  app.use(cors({ origin: (ctx) => ctx.get('Origin'), allowMethods: ['GET', 'POST'] }));
  const lobby = lobbyRoutes(game, store, service, { onMatchCreated: opts.onMatchCreated, onJoined: (e) => notifier.joined(e.matchID, e.playerID, e.metadata) });
  app.use(lobby.routes());
  if (opts.extend) {
    const extra = new Router();
    opts.extend({ app, router: extra, store, log, game });
    app.use(extra.routes()).use(extra.allowedMethods());
  }
  app.use(lobbyReads(game, store, service).routes());
  if (opts.clientDir) for (const mw of clientMiddleware(opts.clientDir)) app.use(mw);

  // server.run() listens on every interface: bind the configured host instead.
  const host = opts.host ?? '127.0.0.1';
  const listen = app.listen.bind(app) as (...a: unknown[]) => HttpServer;
  (app as { listen: unknown }).listen = (port: number, cb: () => void) => listen(port, host, cb);
  const presence = new PresenceLeases({ store, service, log, leaseMs: opts.presenceLeaseMs });
  await presence.start();
  const { appServer } = await server.run({ port: opts.port ?? 0 });
  const port = (appServer.address() as AddressInfo).port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url, host, port, storage: store.kind, bus: bus.kind }, 'listening');
  const staleHours = opts.staleHours ?? DEFAULT_STALE_HOURS;
  if (!Number.isFinite(staleHours) || staleHours < 0) throw new Error(`staleHours must be a number of hours of at least 0, got ${staleHours}`);
  clocks.start();
  const stale = staleHours > 0 ? startStaleSweeper({ store, service, log, metrics, staleMs: staleHours * 3_600_000 }) : null;

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      log.info('shutting down');
      appServer.close();
      await stale?.stop();
      clocks.stop();
      await presence.stop();
      await bots?.close();
      await service.drain();
      await notifier.close();
      sockets.close();
      appServer.closeAllConnections();
      await bus.close();
      await store.close();
      log.info('stopped');
    })());

  const move = async (matchID: string, playerID: PlayerID, type: string, arg: unknown) =>
    (await service.move({ matchID, playerID, credentials: null, type, arg, stateID: null }))?.message ?? null;
  return { url, port, store, service, metrics, log, bots, move, close };
}

