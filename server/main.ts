/**
 * `npm start`: build the client if needed, open storage, serve on one port. Runs under tsx's loader
 * (plain node cannot import boardgame.io/server: STACK.md trap 2). SIGTERM/SIGINT shut down cleanly.
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
const { createBotSeats } = await import('../bots/server');

const cfg = configFromEnv();
const log = createLogger(cfg.logLevel);

process.on('unhandledRejection', (e) => log.error({ err: e }, 'unhandled rejection'));

try {
  if (process.env.SKIP_CLIENT_BUILD !== '1') ensureClientBuilt(cfg.clientDir, log);
  const store = await openStore({ databaseUrl: cfg.databaseUrl, databaseSchema: cfg.databaseSchema, dataDir: cfg.dataDir });
  // "vs computer" matches (bots/lobby.ts): POST /games/watergate/vs-computer; searches run in worker threads.
  const bots = createBotSeats({ threads: Number(process.env.BOT_THREADS) || 1, log });
  const server = await startServer({ store, port: cfg.port, host: cfg.host, origins: cfg.origins, clientDir: cfg.clientDir, log, extend: bots.extend });
  bots.attach(server.url);
  const stop = (signal: string) => {
    log.info({ signal }, 'signal received');
    bots
      .close()
      .then(() => server.close())
      .then(
        () => process.exit(0),
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
