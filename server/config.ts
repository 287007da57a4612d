/** Configuration from the environment (documented in README and docs/ARCHITECTURE.md). */
import { resolve } from 'node:path';
import { LIMITS, type Limit, type LimitName } from './limits';
import { PASSWORD_COST } from './accounts/password';

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
  /** BOT_QUEUE: bot decisions that may wait for a worker thread (default 8 per thread); more wait outside, and think later. */
  botQueue?: number;
  /** ANALYSIS_CACHE=0: the server computes and keeps no analyses of finished games (the replay page computes its own). */
  analysisCache: boolean;
  snapshotEvery?: number;
  /** Unfinished matches with no activity and no connected player for this long are removed; 0: never. */
  staleHours: number;
  /** ALLOW_LOCAL_WEBHOOKS=1: turn-notification webhooks may reach loopback and private addresses (tests only). */
  allowLocalWebhooks: boolean;
  /** PUBLIC_URL: the address players open this server at, for links in turn notifications. */
  publicUrl?: string;
  /** TRUST_PROXY=1: behind our own proxy (HAProxy), the client's address is the last of X-Forwarded-For. */
  trustProxy: boolean;
  /** Finished matches not updated for this many days are removed with their moves and chat; 0: kept forever. */
  keepFinishedDays: number;
  /** LIMITS: replaced per-address limits, e.g. "create=50/600,api=1200/60" (name=points/seconds). */
  limits: Partial<Record<LimitName, Limit>>;
  /** METRICS_TOKEN: lets a monitor off this machine read /metrics (Authorization: Bearer <token>). */
  metricsToken?: string;
  /** PRESENCE_LEASE_SECONDS: a process unheard of this long no longer holds its seats connected. */
  presenceLeaseSeconds?: number;
  /** LEADERBOARD_MIN_GAMES: rated games on a side before a player is listed on the leaderboard. */
  leaderboardMinGames?: number;
  /** PASSWORD_COST: log2 of scrypt's N for new password hashes, 10–20 (default 15, OWASP's point). */
  passwordCost?: number;
  /** VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (both or neither): web push's key pair; unset: made on first start and stored. */
  vapid?: { publicKey: string; privateKey: string };
  /** VAPID_SUBJECT: a mailto: or https: address push services may contact about our pushes. */
  vapidSubject?: string;
  /** EVENT_TICK_MS: how often the event runner looks for events due (default 5000). */
  eventTickMs?: number;
  /** EVENT_NO_SHOW_SECONDS: an event's game not started this long after it is made is forfeited (default by time control). */
  eventNoShowSeconds?: number;
  /** SMTP_URL (smtp:// or smtps://, credentials in it) and MAIL_FROM: e-mail; unset: no e-mail features. */
  mail?: { smtpUrl: string; from: string };
}

export const DEFAULT_STALE_HOURS = 24;

/** A whole number in PASSWORD_COST's range: each step down halves what a stolen hash costs to guess. */
function passwordCost(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < PASSWORD_COST.min || n > PASSWORD_COST.max) throw new Error(`PASSWORD_COST must be a whole number from ${PASSWORD_COST.min} to ${PASSWORD_COST.max} (log2 of scrypt's N; default ${PASSWORD_COST.default}), got "${v}"`);
  return n;
}

const positiveInt = (name: string, v: string | undefined, fallback: number | undefined) => {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got "${v}"`);
  return n;
};

/** Hours (or days): a number of at least 0 (fractions allowed, for tests); 0 switches the removal off. */
const hours = (name: string, v: string | undefined, fallback: number, unit = 'hours') => {
  if (v === undefined || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of ${unit} (0 to never remove), got "${v}"`);
  return n;
};

/** "name=points/seconds,…" over the names of server/limits.ts. */
const limits = (v: string | undefined): Partial<Record<LimitName, Limit>> => {
  const out: Partial<Record<LimitName, Limit>> = {};
  for (const part of (v ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]+)=([0-9]{1,9})\/([0-9]{1,9})$/.exec(part);
    if (!m || !(m[1] in LIMITS) || Number(m[2]) < 1 || Number(m[3]) < 1)
      throw new Error(`LIMITS must be name=points/seconds separated by commas, names among ${Object.keys(LIMITS).join(', ')}; got "${part}"`);
    out[m[1] as LimitName] = { points: Number(m[2]), seconds: Number(m[3]) };
  }
  return out;
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

/** A secret long enough not to be guessed; the message never repeats it (it would reach the logs). */
const metricsToken = (v: string | undefined) => {
  if (v === undefined || v === '') return undefined;
  if (!/^[\x21-\x7e]{24,256}$/.test(v)) throw new Error('METRICS_TOKEN must be 24 to 256 printable characters without spaces (e.g. openssl rand -hex 32)');
  return v;
};

/** Both VAPID keys (base64url, as web-push's generate-vapid-keys prints them) or neither; the message never repeats the private one. */
const vapid = (pub: string | undefined, priv: string | undefined) => {
  if (!pub && !priv) return undefined;
  if (!pub || !priv || !/^[A-Za-z0-9_-]{87}$/.test(pub) || !/^[A-Za-z0-9_-]{43}$/.test(priv))
    throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together, as `npx web-push generate-vapid-keys` prints them (87 and 43 base64url characters)');
  return { publicKey: pub, privateKey: priv };
};

const vapidSubject = (v: string | undefined) => {
  if (v === undefined || v.trim() === '') return undefined;
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/.test(v.trim())) throw new Error(`VAPID_SUBJECT must be a mailto: or https: address, got "${v}"`);
  return v.trim();
};

/** SMTP_URL and MAIL_FROM together, or neither; the message never repeats the URL (it may hold a password). */
const mail = (url: string | undefined, from: string | undefined): Config['mail'] => {
  if (!url && !from) return undefined;
  let u: URL | null = null;
  try {
    u = url ? new URL(url) : null;
  } catch {
    // reported below
  }
  if (!u || (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')) throw new Error('SMTP_URL must be an smtp:// or smtps:// address such as smtp://user:password@mail.example.org:587');
  if (!from || from.length > 200 || /[\r\n]/.test(from) || !/@[^@\s>]+\.[^@\s>]+>?$/.test(from.trim()))
    throw new Error('MAIL_FROM must be the sender, e.g. "Watergate <noreply@example.org>" (required with SMTP_URL)');
  return { smtpUrl: url!, from: from.trim() };
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
    botQueue: positiveInt('BOT_QUEUE', env.BOT_QUEUE, undefined),
    analysisCache: env.ANALYSIS_CACHE === undefined || flag('ANALYSIS_CACHE', env.ANALYSIS_CACHE),
    snapshotEvery: positiveInt('SNAPSHOT_EVERY', env.SNAPSHOT_EVERY, undefined),
    staleHours: hours('STALE_HOURS', env.STALE_HOURS, DEFAULT_STALE_HOURS),
    allowLocalWebhooks: flag('ALLOW_LOCAL_WEBHOOKS', env.ALLOW_LOCAL_WEBHOOKS),
    publicUrl: publicUrl(env.PUBLIC_URL),
    trustProxy: flag('TRUST_PROXY', env.TRUST_PROXY),
    keepFinishedDays: hours('KEEP_FINISHED_DAYS', env.KEEP_FINISHED_DAYS, 0, 'days'),
    limits: limits(env.LIMITS),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    presenceLeaseSeconds: positiveInt('PRESENCE_LEASE_SECONDS', env.PRESENCE_LEASE_SECONDS, undefined),
    leaderboardMinGames: positiveInt('LEADERBOARD_MIN_GAMES', env.LEADERBOARD_MIN_GAMES, undefined),
    passwordCost: passwordCost(env.PASSWORD_COST),
    vapid: vapid(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY),
    vapidSubject: vapidSubject(env.VAPID_SUBJECT),
    eventTickMs: positiveInt('EVENT_TICK_MS', env.EVENT_TICK_MS, undefined),
    eventNoShowSeconds: positiveInt('EVENT_NO_SHOW_SECONDS', env.EVENT_NO_SHOW_SECONDS, undefined),
    mail: mail(env.SMTP_URL || undefined, env.MAIL_FROM || undefined),
  };
}
