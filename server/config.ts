/** Configuration from the environment (documented in README and docs/ARCHITECTURE.md). */
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  databaseSchema: string;
  /** DATABASE_TIMEOUT_MS: the longest one PostgreSQL call may take before it is answered as unavailable. */
  databaseTimeoutMs?: number;
  /** Embedded backend when DATABASE_URL is unset: sqlite (default) or pglite (kept for comparison). */
  embeddedStore: 'sqlite' | 'pglite';
  /** Redis for the bus between server processes; unset: one process. */
  redisUrl?: string;
  redisPrefix: string;
  /** Extra browser origins allowed besides the server's own (ORIGINS, comma-separated, `*` wildcards). */
  origins: string[];
  logLevel: string;
  clientDir: string;
  botThreads: number;
  snapshotEvery?: number;
  /** Unfinished matches with no activity and no connected player for this long are removed; 0: never. */
  staleHours: number;
  /** ALLOW_LOCAL_WEBHOOKS=1: turn-notification webhooks may reach loopback and private addresses (tests only). */
  allowLocalWebhooks: boolean;
  /** PUBLIC_URL: the address players open this server at, for links in turn notifications. */
  publicUrl?: string;
  /** PRESENCE_LEASE_SECONDS: a process unheard of this long no longer holds its seats connected. */
  presenceLeaseSeconds?: number;
}

export const DEFAULT_STALE_HOURS = 24;

const positiveInt = (name: string, v: string | undefined, fallback: number | undefined) => {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got "${v}"`);
  return n;
};

/** Hours: a number of at least 0 (fractions allowed, for tests); 0 switches the sweeper off. */
const hours = (name: string, v: string | undefined, fallback: number) => {
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of hours (0 to never remove), got "${v}"`);
  return n;
};

const flag = (name: string, v: string | undefined) => {
  if (v === undefined || v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new Error(`${name} must be 1 or 0, got "${v}"`);
};

/** An http(s) address without query or fragment; the trailing slash dropped. */
const publicUrl = (v: string | undefined) => {
  if (v === undefined || v.trim() === '') return undefined;
  let u: URL | null = null;
  try {
    u = new URL(v.trim());
  } catch {
    // reported below
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username || u.password)
    throw new Error(`PUBLIC_URL must be an http or https address such as https://watergate.example.org, got "${v}"`);
  return u.href.replace(/\/+$/, '');
};

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 8000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const embedded = env.EMBEDDED_STORE || 'sqlite';
  if (embedded !== 'sqlite' && embedded !== 'pglite') throw new Error(`EMBEDDED_STORE must be "sqlite" or "pglite", got "${embedded}"`);
  const redisPrefix = env.REDIS_PREFIX ?? 'wg:';
  if (!/^[A-Za-z0-9:_.-]{0,64}$/.test(redisPrefix)) throw new Error(`REDIS_PREFIX may hold letters, digits and : _ . - (at most 64), got "${redisPrefix}"`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || 'public',
    databaseTimeoutMs: positiveInt('DATABASE_TIMEOUT_MS', env.DATABASE_TIMEOUT_MS, undefined),
    embeddedStore: embedded,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix,
    origins: (env.ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL || 'info',
    clientDir: resolve(env.CLIENT_DIR || 'dist/client'),
    botThreads: positiveInt('BOT_THREADS', env.BOT_THREADS, 1)!,
    snapshotEvery: positiveInt('SNAPSHOT_EVERY', env.SNAPSHOT_EVERY, undefined),
    staleHours: hours('STALE_HOURS', env.STALE_HOURS, DEFAULT_STALE_HOURS),
    allowLocalWebhooks: flag('ALLOW_LOCAL_WEBHOOKS', env.ALLOW_LOCAL_WEBHOOKS),
    publicUrl: publicUrl(env.PUBLIC_URL),
    presenceLeaseSeconds: positiveInt('PRESENCE_LEASE_SECONDS', env.PRESENCE_LEASE_SECONDS, undefined),
  };
}
