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
import { authenticateCredentials, generateCredentials } from './auth';
import { BotRunner, type BotOptions } from './bots/runner';
import { GameAnalyser, type AnalyserOptions } from './analysis/analyser';
import { addAnalysisRoute } from './analysis/route';
import { localBus, type Bus } from './bus/index';
import { createLogger, type Logger } from './log';
import { clientAddress, createLimiter, enforce, type Limiter, type LimiterOptions } from './limits';
import { DEFAULT_STALE_HOURS } from './config';
import { lobbyReads, lobbyRoutes, type LobbyHooks } from './lobby/routes';
import { ClockKeeper } from './match/clocks';
import { PresenceLeases } from './match/presence';
import { MatchService } from './match/service';
import { startStaleSweeper } from './match/stale';
import { createMetrics, type Metrics } from './metrics';
import { metricsGate } from './metrics-gate';
import { RefusalLog } from './refusals';
import { TurnNotifier } from './notify/notifier';
import { webhookChannel } from './notify/channel';
import type { SendOptions } from './notify/webhook';
import { PushChannel, vapidKeys } from './notify/push';
import { pushRoutes } from './notify/push-routes';
import { followRoutes } from './social/follows';
import type { VapidKeys } from './storage/follows';
import { Notices } from './notices/index';
import { noticeGameEnds } from './notices/ends';
import { ClockWarnings } from './notices/clocks';
import { mailChannel } from './mail/channel';
import { MailQueue, type QueueOptions } from './mail/queue';
import { Digests } from './mail/digest';
import { addMailRoutes } from './mail/routes';
import { isAllowedOrigin, originPatterns, ownOrigins } from './origins';
import type { HttpLimits } from './socket/http';
import { GameSockets } from './socket/sockets';
import { clientMiddleware, compression } from './static';
import { accounts } from './accounts/index';
import { EventRunner, type RunnerOptions } from './events/runner';
import { eventRoutes } from './events/routes';
import { seasonRoutes } from './seasons/routes';
import { PASSWORD_COST } from './accounts/password';
import koaBody from 'koa-body';
import { botApi } from './bots/api/index';
import { challenges } from './challenges/index';
import { StorageUnavailableError } from './storage/errors';
import { LobbyReads } from './storage/lobby-db';
import type { MatchStore } from './storage/types';

export interface ServerOptions extends LobbyHooks {
  store: MatchStore;
  /** Other processes' news (Redis); default: this process alone. */
  bus?: Bus;
  port?: number;
  host?: string;
  /** Browser origins allowed besides the server's own (PUBLIC_URL, else the listen address: origins.ts). */
  origins?: string[];
  /** Built client to serve (dist/client); none when absent. */
  clientDir?: string;
  log?: Logger;
  /** Snapshot the whole state every this many moves (docs/ARCHITECTURE.md "Storage"). */
  snapshotEvery?: number;
  /** Unfinished matches idle this long with nobody connected are removed (default 24; 0: never). */
  staleHours?: number;
  /** Finished matches not updated for this many days are removed with their moves and chat (default 0: kept forever). */
  keepFinishedDays?: number;
  /** How often storage is searched for clock deadlines no process has in memory (ms; default 30 s). */
  clockScanMs?: number;
  /** Bots for seats marked `data.bot` (vs computer); none when absent. */
  bots?: BotOptions;
  /** Finished games' analyses computed and kept by the server with the bots' worker pool (default on when there is one). */
  analysis?: false | Omit<AnalyserOptions, 'store' | 'game' | 'pool' | 'log' | 'limiter'>;
  /** Turn-notification webhooks: `allowLocal` (ALLOW_LOCAL_WEBHOOKS) lets them reach private addresses; timings for tests. */
  webhooks?: Partial<Omit<SendOptions, 'signal'>>;
  /** The address players open (PUBLIC_URL): the server's own origin, and the base of links in notifications. */
  publicUrl?: string;
  /** Limits per client (server/limits.ts): replaced values, or `off` (tools measuring the server alone). */
  limits?: LimiterOptions['limits'] | 'off';
  /** Redis to count limits in, shared by every process (REDIS_URL); absent: this process's memory. */
  limitsRedis?: LimiterOptions['redis'];
  /** Prefix of the limits' Redis keys (REDIS_PREFIX). */
  limitsPrefix?: string;
  /** Behind a proxy we run (TRUST_PROXY): the client's address is the last of X-Forwarded-For. */
  trustProxy?: boolean;
  /** METRICS_TOKEN: /metrics for a client off this machine presenting it as a bearer token (metrics-gate.ts). */
  metricsToken?: string;
  /** Replaced HTTP timeouts and caps (socket/http.ts HTTP_LIMITS), for tests. */
  httpLimits?: Partial<HttpLimits>;
  /** A server process unheard of for this long no longer holds its seats connected (default 60 s). */
  presenceLeaseMs?: number;
  /** Rated games a player needs on a side to be listed on the leaderboard (LEADERBOARD_MIN_GAMES, default 3). */
  leaderboardMinGames?: number;
  /** log2 of scrypt's N for new password hashes (PASSWORD_COST, default 15; tests' servers 10). */
  passwordCost?: number;
  /** The bot API's keep-alive and token re-check period for game streams (default 20 s: server/bots/api/streams.ts), for tests. */
  botKeepAliveMs?: number;
  /** Web push: the VAPID key pair (VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY; else made once and stored) and subject (VAPID_SUBJECT). */
  push?: { keys?: VapidKeys; subject?: string };
  /** Tests only, never set from the configuration: push endpoints over http on loopback (docs/SECURITY.md "Web push"). */
  pushToLoopbackForTests?: boolean;
  /** Events (Swiss tournaments, server/events/): the runner's tick and no-show limit (tests), `onRound` (a round's start: notices); `false`: no runner in this process (the routes still answer). */
  events?: false | Pick<RunnerOptions, 'tickMs' | 'noShowMs' | 'onRound'>;
  /** E-mail (SMTP_URL, MAIL_FROM); absent: no e-mail features (the account page hides them). Timings for tests. */
  mail?: Pick<QueueOptions, 'smtpUrl' | 'from' | 'pollMs' | 'leaseMs' | 'retryMs' | 'maxRetryMs' | 'maxAttempts'> & { turnWindowMs?: number; digestMs?: number; digestScanMs?: number };
  /** "Your clock is running out" notices: how often storage is scanned (default 60 s) and how long before the deadline (tests). */
  clockWarnings?: { scanMs?: number; warnMs?: number };
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
  /** The notices' channels (server/notices/): `notices.noticeChallenge(...)` tells a challenged account. */
  notices: Notices;
  /** Plays a seat from inside the server: resolves to the refusal's reason, or null when saved. */
  move(matchID: string, playerID: PlayerID, move: string, arg: unknown): Promise<string | null>;
  /** Stops accepting, lets moves in progress finish writing, closes sockets, bots, bus and storage. */
  close(): Promise<void>;
}

/** How long /healthz waits for storage before it answers "unavailable". */
const HEALTH_WAIT_MS = 1000;

/** Defaults measured in docs/LOAD.md. */
const DEFAULT_SNAPSHOT_EVERY = 50;

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const log = opts.log ?? createLogger('silent');
  const { store } = opts;
  const bus = opts.bus ?? localBus();
  const patterns = originPatterns(opts.origins ?? []);
  // Filled once the port is known (it may be 0 until listening); nothing is served before.
  const own = new Set<string>();
  const game = Watergate as Game;
  const metrics = createMetrics();
  const limiter: Limiter = createLimiter({ off: opts.limits === 'off', limits: opts.limits === 'off' ? undefined : opts.limits, redis: opts.limitsRedis, prefix: `${opts.limitsPrefix ?? 'wg:'}rl:` });
  const trustProxy = opts.trustProxy ?? false;
  const metricsAllowed = metricsGate({ token: opts.metricsToken, trustProxy });
  const refusals = new RefusalLog(log);
  store.observe = (op, s) => metrics.storageSeconds.observe({ op }, s);

  const service = new MatchService({ store, bus, log, metrics, snapshotEvery: opts.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY });
  if (opts.onMoveSaved) {
    const hook = opts.onMoveSaved;
    service.onState((m) => {
      if (m.reason === 'move') Promise.resolve(hook({ matchID: m.matchID, state: m.state })).catch((e: unknown) => log.error({ err: e, matchID: m.matchID }, 'onMoveSaved failed'));
    });
  }
  const bots = opts.bots ? new BotRunner({ ...opts.bots, service, store, log, metrics }) : null;
  const analyser = opts.analysis !== false && bots?.botPool ? new GameAnalyser({ ...opts.analysis, store, game, pool: bots.botPool, log, limiter }) : null;
  let url = '';
  const vapid = await vapidKeys(store.follows, opts.push?.keys);
  const pushSubject = opts.push?.subject ?? (opts.publicUrl?.startsWith('https:') ? opts.publicUrl : 'mailto:watergate@localhost');
  const push = new PushChannel({ social: store.follows, keys: vapid, subject: pushSubject, log, metrics, allowLocal: opts.pushToLoopbackForTests === true });
  // The notices: one decision (who is away and should be told), several channels (notices/index.ts).
  const notices = new Notices(log);
  const notifier = new TurnNotifier({ service, log, publicUrl: opts.publicUrl, listenUrl: () => url, notices });
  notices.add(push);
  notices.add(
    webhookChannel({
      log,
      metrics,
      send: { allowLocal: false, ...opts.webhooks },
      accountNotify: async (id) => (await store.accounts.byID(id))?.settings.notify ?? null,
      link: (matchID, base) => notifier.link(matchID, base),
    }),
  );
  const base = () => (opts.publicUrl ?? url).replace(/\/+$/, '');
  const mailQueue = opts.mail ? new MailQueue({ ...opts.mail, rows: store.mail, log }) : null;
  if (mailQueue) notices.add(mailChannel({ rows: store.mail, queue: mailQueue, base, turnWindowMs: opts.mail?.turnWindowMs }));
  const digests = mailQueue ? new Digests({ rows: store.mail, queue: mailQueue, log, base, digestMs: opts.mail?.digestMs, scanMs: opts.mail?.digestScanMs }) : null;
  noticeGameEnds({ service, accounts: store.accounts, notices, link: (matchID) => notifier.link(matchID) });
  const clockWarnings = new ClockWarnings({ store, notices, log, link: (matchID) => notifier.link(matchID), ...opts.clockWarnings });
  // The HTTP bot API (bots/api/): tokens from a session, a bot token on the Lobby's join route, /api/bot with tokens only.
  const botApiRoutes = botApi({ accounts: store.accounts, service, limiter, log, keepAliveMs: opts.botKeepAliveMs });
  // The players' chat reaches the bots' streams where it reaches the seats' sockets: the match's one
  // Delivery (set by the sockets below), teed here so that neither layer knows of the other.
  const setDelivery = service.setDelivery.bind(service);
  service.setDelivery = (d) => setDelivery({ ...d, chat: (matchID, line) => (d.chat(matchID, line), botApiRoutes.chat(matchID, line)) });
  const clocks = new ClockKeeper({ service, store, log, scanMs: opts.clockScanMs });
  const sockets = new GameSockets({
    game,
    service,
    log,
    limiter,
    trustProxy,
    refusals,
    bus,
    httpLimits: opts.httpLimits,
    socketOpts: {
      // boardgame.io passes `cors: { origins }`, a key socket.io ignores (so it answers `*`): replace it.
      cors: { origin: (origin: string | undefined, cb: (e: Error | null, ok?: boolean) => void) => cb(null, origin ? isAllowedOrigin(origin, own, patterns) : false) },
      allowRequest: (req, cb) => {
        const ok = isAllowedOrigin(req.headers.origin, own, patterns);
        if (!ok) refusals.note('socket', 'origin', { origin: req.headers.origin });
        cb(ok ? null : 'origin not allowed', ok);
      },
      // The largest message a client sends is a move (at most 1 KB of argument: MAX_MOVE_ARG_CHARS in match/service.ts) or a chat line.
      maxHttpBufferSize: 16 * 1024,
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
      // The wait in the body too: boardgame.io's LobbyClient hands pages the body, not the headers.
      if (err.retryAfterSeconds) ctx.body = { error: err.message, retryAfter: err.retryAfterSeconds };
      // A 503 is the storage away, or only load (a busy pool, a lock timeout, too many passwords or
      // analyses at once): logged as which, so an operator is not sent looking for an outage.
      if (ctx.status === 503) log.warn({ err: err.message, method: ctx.method, path: ctx.path }, e instanceof StorageUnavailableError && !e.busy ? 'request refused: storage unavailable' : 'request refused: server busy');
      else if (ctx.status >= 500) log.error({ err: e, method: ctx.method, path: ctx.path }, 'request failed');
    } finally {
      // A refused request is counted (a summary a minute at info), not logged at info one by one.
      const refused = ctx.status >= 400 && ctx.status < 500;
      if (refused) refusals.note('http', String(ctx.status), { method: ctx.method, path: ctx.path });
      const level = ctx.path.startsWith('/games') && !refused ? 'info' : 'debug';
      log[level]({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Date.now() - started }, 'http');
    }
  });
  // Inside the error handler (its JSON answers are small), around everything that answers (static.ts).
  app.use(compression());
  app.use(async (ctx, next) => {
    if (ctx.path === '/metrics') {
      if (!metricsAllowed({ peer: ctx.req.socket.remoteAddress, forwardedFor: ctx.req.headers['x-forwarded-for'], authorization: ctx.get('Authorization') || undefined }))
        ctx.throw(403, 'metrics are served to this machine, or with the METRICS_TOKEN bearer token');
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
    if (!isAllowedOrigin(ctx.get('Origin') || undefined, own, patterns)) ctx.throw(403, 'origin not allowed');
    await next();
  });
  app.use(cors({ origin: (ctx) => ctx.get('Origin'), allowMethods: ['GET', 'POST'], exposeHeaders: ['Retry-After'] }));
  // Every Lobby API request counts against its address (the built client's files and /healthz do not),
  // after the CORS headers so that an allowed page can read the 429 and its wait.
  app.use(async (ctx, next) => {
    ctx.state.clientAddress = clientAddress(ctx.req.socket.remoteAddress, ctx.req.headers['x-forwarded-for'], trustProxy);
    if (ctx.path.startsWith('/games')) await enforce(limiter, 'api', ctx.state.clientAddress);
    await next();
  });
  // Sessions before every route: a signed-in player's seats belong to the account (accounts/).
  // Sessions ended (sign-out, a new password, a reset, the account deleted): the event streams they opened close.
  const sessionsEnded = (accountID: string) => challengeRoutes.sessionsEnded(accountID);
  const account = accounts({ store, service, limiter, game, publicUrl: opts.publicUrl, leaderboardMinGames: opts.leaderboardMinGames, passwordCost: opts.passwordCost, sessionsEnded });
  app.use(account.sessions);
  app.use(botApiRoutes.tokens);
  app.use(botApiRoutes.join);
  app.use(botApiRoutes.routes);
  // Challenges by name, blocks and the event stream (challenges/, social/): a session or a bot token.
  const challengeRoutes = challenges({ store, service, game, bus, limiter, log, keepAliveMs: opts.botKeepAliveMs, notice: (c) => notices.noticeChallenge({ ...c, link: `${base()}/#/` }), kick: (id) => events.kick(id) });
  app.use(challengeRoutes.routes);
  app.use(account.routes);
  // A round's start tells each game's absent players (notify/notifier.ts roundStarted: the turn rule), then any caller's hook (tests).
  const onRound = opts.events ? opts.events.onRound : undefined;
  const events = new EventRunner({
    store,
    service,
    game,
    log,
    ...(opts.events || {}),
    onRound: (r) => {
      for (const g of r.games) notifier.roundStarted(g.matchID, r.round);
      onRound?.(r);
    },
    // Every event game (a paired challenge's two included): both accounts' event streams hear gameStart.
    onGame: (matchID, metadata) => challengeRoutes.gameStart(matchID, metadata),
    // A paired deal's second game (an event's or a paired challenge's): its absent players are told as of a round's start.
    onPairGame: (g) => notifier.pairStarted(g.matchID),
  });
  app.use(eventRoutes({ store, runner: events, limiter }));
  app.use(seasonRoutes({ accounts: store.accounts, events: store.events, limiter }));
  // E-mail routes (under /auth, so the session middleware above has read the cookie).
  const mailRouter = new Router();
  mailRouter.use(async (ctx, next) => (await enforce(limiter, 'api', ctx.state.clientAddress), next()));
  addMailRoutes({
    router: mailRouter,
    json: koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '4kb', jsonStrict: true }) as unknown as Router.Middleware,
    accounts: store.accounts,
    service,
    limiter,
    passwordCost: opts.passwordCost ?? PASSWORD_COST.default,
    mail: mailQueue && { rows: store.mail, queue: mailQueue },
    base,
    sessionsEnded,
  });
  app.use(mailRouter.routes());
  const lobby = lobbyRoutes(game, store, service, { onMatchCreated: opts.onMatchCreated, onJoined: (e) => (notifier.joined(e.matchID, e.playerID, e.metadata), challengeRoutes.joined(e.matchID, e.metadata)) }, limiter);
  app.use(followRoutes({ social: store.follows, accounts: store.accounts, limiter }));
  app.use(pushRoutes({ social: store.follows, publicKey: vapid.publicKey, limiter, allowLocal: opts.pushToLoopbackForTests === true }));
  app.use(lobby.routes());
  const analysisRouter = new Router();
  addAnalysisRoute(analysisRouter, game, store, analyser);
  app.use(analysisRouter.routes());
  if (opts.extend) {
    const extra = new Router();
    opts.extend({ app, router: extra, store, log, game });
    app.use(extra.routes()).use(extra.allowedMethods());
  }
  app.use(lobbyReads(game, store, service).routes());
  if (opts.clientDir) app.use(clientMiddleware(opts.clientDir));

  // server.run() calls app.listen, which would make a second HTTP server on every interface: ours
  // (sockets.listen, with socket.io on it) listens instead, on the configured host.
  const host = opts.host ?? '127.0.0.1';
  (app as { listen: unknown }).listen = (port: number, cb: () => void): HttpServer => sockets.listen(port, host, cb);
  const presence = new PresenceLeases({ store, service, log, leaseMs: opts.presenceLeaseMs });
  await presence.start();
  const { appServer } = await server.run({ port: opts.port ?? 0 });
  const port = (appServer.address() as AddressInfo).port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  for (const o of ownOrigins({ publicUrl: opts.publicUrl, host, port })) own.add(o);
  // The address a person opens: on a loopback or wildcard listen address the name localhost, since
  // browsers keep passkeys for domain names only (WebAuthn refuses an IP address such as 127.0.0.1).
  const open = opts.publicUrl ?? (/^(127\.|::1$|0\.0\.0\.0$|::$)/.test(host) ? `http://localhost:${port}` : url);
  log.info({ url, open, host, port, origins: [...own], storage: store.kind, bus: bus.kind }, `listening: open ${open} in a browser`);
  const staleHours = opts.staleHours ?? DEFAULT_STALE_HOURS;
  if (!Number.isFinite(staleHours) || staleHours < 0) throw new Error(`staleHours must be a number of hours of at least 0, got ${staleHours}`);
  clocks.start();
  if (opts.events !== false) events.start();
  mailQueue?.start();
  digests?.start();
  // Scanned only when some channel (e-mail, push) delivers clock notices.
  if (notices.wants('clock')) clockWarnings.start();
  const keepDays = opts.keepFinishedDays ?? 0;
  if (!Number.isFinite(keepDays) || keepDays < 0) throw new Error(`keepFinishedDays must be a number of days of at least 0, got ${keepDays}`);
  const stale = staleHours > 0 || keepDays > 0 ? startStaleSweeper({ store, service, log, metrics, staleMs: staleHours * 3_600_000, keepFinishedMs: keepDays * 86_400_000 }) : null;

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      log.info('shutting down');
      appServer.close();
      botApiRoutes.close();
      challengeRoutes.close();
      await stale?.stop();
      clocks.stop();
      await events.stop();
      await presence.stop();
      await analyser?.close();
      await bots?.close();
      await service.drain();
      await push.close();
      await clockWarnings.stop();
      await digests?.stop();
      await notices.close();
      await mailQueue?.close();
      sockets.close();
      appServer.closeAllConnections();
      await bus.close();
      await store.close();
      refusals.close();
      log.info('stopped');
    })());

  const move = async (matchID: string, playerID: PlayerID, type: string, arg: unknown) =>
    (await service.move({ matchID, playerID, credentials: null, type, arg, stateID: null }))?.message ?? null;
  return { url, port, store, service, metrics, log, bots, notices, move, close };
}

