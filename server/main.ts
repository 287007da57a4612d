/**
 * The server process: build the client if needed (unless SKIP_CLIENT_BUILD=1), open storage (and the bus
 * when REDIS_URL is set), serve on one port. SIGTERM/SIGINT shut down cleanly. `npm start` runs it as the
 * esbuild bundle dist/server/main.js under plain Node (scripts/start.mjs, tools/server-bundle.ts: plain
 * Node cannot import boardgame.io/server from the sources, it has no exports map); `npm run dev:server`
 * runs this file under tsx's loader.
 *
 * NODE_ENV defaults to production before boardgame.io loads: it then skips its per-move serializability
 * walk over G (about twice the speed) and its unstructured console chatter.
 */
process.env.NODE_ENV ??= 'production';

const { startServer } = await import('./app');
const { configFromEnv } = await import('./config');
const { createLogger } = await import('./log');
const { ensureClientBuilt } = await import('./static');
const { openStore } = await import('./storage/index');
const { redisBus } = await import('./bus/redis');
const { Redis } = await import('ioredis');

let cfg: ReturnType<typeof configFromEnv>;
try {
  cfg = configFromEnv();
} catch (e) {
  // A bad variable is named in the message; the log level may be what is bad, so log at info.
  createLogger('info').fatal({ err: e }, `invalid configuration: ${(e as Error).message}`);
  process.exit(1);
}
const log = createLogger(cfg.logLevel);

process.on('unhandledRejection', (e) => log.error({ err: e }, 'unhandled rejection'));

try {
  if (process.env.SKIP_CLIENT_BUILD !== '1') ensureClientBuilt(cfg.clientDir, log);
  if (cfg.redisUrl && !cfg.databaseUrl) throw new Error('REDIS_URL needs DATABASE_URL: several processes must share one PostgreSQL (the embedded storage serves one process)');
  const store = await openStore({ databaseUrl: cfg.databaseUrl, databaseSchema: cfg.databaseSchema, databaseTimeoutMs: cfg.databaseTimeoutMs, dataDir: cfg.dataDir, embedded: cfg.embeddedStore });
  let lastBusError = 0;
  const bus = cfg.redisUrl
    ? redisBus({
        url: cfg.redisUrl,
        prefix: cfg.redisPrefix,
        // Redis down means an error per retry: log one a minute.
        onError: (e, where) => {
          if (Date.now() - lastBusError < 60_000) return;
          lastBusError = Date.now();
          log.warn({ err: e.message, where }, 'redis bus unavailable: this process serves its own matches only until it is back');
        },
      })
    : undefined;
  // Limits counted in Redis, so that every process counts one client together; its own connection,
  // which never queues: with Redis away each process counts in its memory (server/limits.ts).
  let lastLimitsError = 0;
  const limitsRedis = cfg.redisUrl ? new Redis(cfg.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: (n: number) => Math.min(n * 100, 1000) }) : undefined;
  limitsRedis?.on('error', (e: Error) => {
    if (Date.now() - lastLimitsError < 60_000) return;
    lastLimitsError = Date.now();
    log.warn({ err: e.message }, 'redis unavailable for limits: each process counts its clients alone until it is back');
  });
  if (cfg.trustProxy && !['127.0.0.1', '::1', 'localhost'].includes(cfg.host))
    log.warn({ host: cfg.host }, 'TRUST_PROXY=1 on a non-loopback interface: anyone reaching this port directly can claim any address in X-Forwarded-For; let only your proxy reach it');
  const server = await startServer({
    store,
    bus,
    port: cfg.port,
    host: cfg.host,
    origins: cfg.origins,
    clientDir: cfg.clientDir,
    log,
    snapshotEvery: cfg.snapshotEvery,
    staleHours: cfg.staleHours,
    bots: { threads: cfg.botThreads, maxQueue: cfg.botQueue },
    analysis: cfg.analysisCache ? {} : false,
    webhooks: { allowLocal: cfg.allowLocalWebhooks },
    publicUrl: cfg.publicUrl,
    trustProxy: cfg.trustProxy,
    keepFinishedDays: cfg.keepFinishedDays,
    limits: cfg.limits,
    limitsRedis,
    limitsPrefix: cfg.redisPrefix,
    metricsToken: cfg.metricsToken,
    presenceLeaseMs: cfg.presenceLeaseSeconds && cfg.presenceLeaseSeconds * 1000,
    leaderboardMinGames: cfg.leaderboardMinGames,
    passwordCost: cfg.passwordCost,
    push: { keys: cfg.vapid, subject: cfg.vapidSubject },
    events: { tickMs: cfg.eventTickMs, noShowMs: cfg.eventNoShowSeconds && cfg.eventNoShowSeconds * 1000 },
    mail: cfg.mail,
  });
  const stop = (signal: string) => {
    log.info({ signal }, 'signal received');
    server.close().then(
      () => {
        limitsRedis?.disconnect();
        process.exit(0);
      },
      (e) => {
        log.error({ err: e }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (e) {
  log.fatal({ err: e }, 'server failed to start');
  process.exit(1);
}

export {};
