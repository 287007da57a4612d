/**
 * PostgreSQL backend (DATABASE_URL) through a `pg` connection pool; every transaction on one pooled
 * client. Advisory locks (which process runs a match's bot) live on one dedicated connection: if it
 * drops, PostgreSQL releases them all, and so does this process (onLost).
 */
import pg from 'pg';
import type { AdvisoryLocks, SqlBackend, SqlQuery } from './sql';

export async function openPostgres(connectionString: string): Promise<SqlBackend> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client losing its connection must not crash the server: the pool recovers.
  pool.on('error', () => undefined);
  await pool.query('SELECT 1'); // fail fast with a clear error when the server is unreachable
  const query: SqlQuery['query'] = async (text, params) => {
    const r = await pool.query(text, params);
    return { rows: r.rows };
  };
  const locks = advisoryLocks(connectionString);
  return {
    kind: 'postgres',
    query,
    locks,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn({
          query: async (text, params) => {
            const r = await client.query(text, params);
            return { rows: r.rows };
          },
        });
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    close: async () => {
      await locks.close();
      await pool.end();
    },
  };
}

function advisoryLocks(connectionString: string): AdvisoryLocks {
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
      const c = new pg.Client({ connectionString });
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
