/**
 * PostgreSQL backend (DATABASE_URL) through a `pg` connection pool; every transaction on one pooled
 * client. Advisory locks (which process runs a match's bot) live on one dedicated connection: if it
 * drops, PostgreSQL releases them all, and so does this process (onLost).
 */
import pg from 'pg';
import { ServerBusyError, StorageUnavailableError } from './errors';
import type { AdvisoryLocks, SqlBackend, SqlQuery } from './sql';

/**
 * How long one database call may take (DATABASE_TIMEOUT_MS): connecting or waiting for a pooled
 * connection, and each statement — on the server (statement_timeout, lock_timeout) and, for a server
 * that no longer answers at all (frozen, a half-open connection), on this side (query_timeout). A
 * stalled database then turns into a clear "try again" within about that long instead of a hang.
 */
export const DEFAULT_DATABASE_TIMEOUT_MS = 1000;
/** Table creation and upgrades at start may wait for another process's and take their time. */
const SLOW_MS = 10 * 60_000;

/**
 * Failures that say the database cannot be reached or did not answer in time (SQLSTATE classes 08
 * connection, 53 resources, 57 operator intervention and cancellation, 58 system; lock and
 * idle-in-transaction timeouts), and every failure that is not the server's answer at all (refused,
 * reset, timed out, connection lost mid-query). A constraint or syntax error is none of these.
 */
export function isUnavailable(e: unknown): boolean {
  if (e instanceof StorageUnavailableError) return true;
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if ('severity' in e && typeof code === 'string') return /^(08|53|57|58)/.test(code) || code === '55P03' || code === '25P03';
  // Not the server's answer: a socket error (ECONNREFUSED, ECONNRESET, ETIMEDOUT…) or pg's own words
  // for a connection that failed, timed out or broke.
  return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout)|is not queryable/.test(e.message);
}

/**
 * Of those, the ones that say the database is up but busy: no pooled connection free in time, too many
 * connections, a lock or statement timeout (logged as load, not as an outage).
 */
export function isBusy(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return code === '55P03' || code === '57014' || code === '53300' || /^timeout exceeded when trying to connect/.test(e.message);
}

const wrapped = (e: unknown) =>
  isUnavailable(e) && !(e instanceof StorageUnavailableError) ? (isBusy(e) ? new ServerBusyError('the database is busy: try again in a moment', e) : new StorageUnavailableError(e)) : e;

export async function openPostgres(connectionString: string, timeoutMs = DEFAULT_DATABASE_TIMEOUT_MS): Promise<SqlBackend> {
  const timeouts = {
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    lock_timeout: timeoutMs,
    query_timeout: timeoutMs + 250, // the server's own timeout first, when it still answers
    // A transaction left open (this process stalled mid-way) must not hold its locks for long.
    idle_in_transaction_session_timeout: Math.max(5000, 5 * timeoutMs),
  };
  const pool = new pg.Pool({ connectionString, max: 10, ...timeouts });
  // An idle client losing its connection must not crash the server: the pool recovers.
  pool.on('error', () => undefined);
  await pool.query('SELECT 1'); // fail fast with a clear error when the server is unreachable
  const query: SqlQuery['query'] = async (text, params) => {
    try {
      const r = await pool.query(text, params);
      return { rows: r.rows };
    } catch (e) {
      throw wrapped(e);
    }
  };
  const locks = advisoryLocks(connectionString, timeouts);
  return {
    kind: 'postgres',
    query,
    locks,
    async transaction(fn, opts) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (e) {
        throw wrapped(e);
      }
      const run = async (text: string, params?: unknown[]) => {
        try {
          // pg reads a per-query query_timeout its types do not declare.
          return await client.query({ text, values: params, ...(opts?.slow ? { query_timeout: SLOW_MS } : {}) } as pg.QueryConfig);
        } catch (e) {
          throw wrapped(e);
        }
      };
      let failure: unknown;
      try {
        await run('BEGIN');
        if (opts?.slow) {
          await run('SET LOCAL statement_timeout = 0');
          await run('SET LOCAL lock_timeout = 0');
        }
        const out = await fn({ query: async (text, params) => ({ rows: (await run(text, params)).rows }) });
        await run('COMMIT');
        return out;
      } catch (e) {
        // A connection that failed is dropped, not asked to roll back (a frozen server would not
        // answer that either): PostgreSQL rolls back a transaction whose connection is gone.
        if (isUnavailable(e)) failure = e;
        else await client.query('ROLLBACK').catch((r: unknown) => void (failure = r));
        throw e;
      } finally {
        client.release(failure instanceof Error ? failure : undefined);
      }
    },
    close: async () => {
      await locks.close();
      await pool.end();
    },
  };
}

function advisoryLocks(connectionString: string, timeouts: pg.ClientConfig): AdvisoryLocks {
  let client: Promise<pg.Client> | null = null;
  const lost: (() => void)[] = [];
  const drop = (c: pg.Client) => {
    if (!client) return;
    client = null;
    c.end().catch(() => undefined);
    for (const fn of lost) fn();
  };
  const connection = () =>
    (client ??= (async () => {
      const c = new pg.Client({ connectionString, ...timeouts });
      c.on('error', () => drop(c));
      c.on('end', () => drop(c));
      await c.connect();
      return c;
    })().catch((e) => {
      client = null;
      throw e;
    }));
  return {
    async tryLock(space, key) {
      const c = await connection();
      const r = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok', [space, key]);
      return r.rows[0].ok;
    },
    async unlock(space, key) {
      if (!client) return;
      const c = await client;
      await c.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [space, key]);
    },
    onLost: (fn) => void lost.push(fn),
    async close() {
      const c = client;
      client = null;
      if (c) await (await c).end().catch(() => undefined);
    },
  };
}
