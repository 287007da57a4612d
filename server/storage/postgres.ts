/** PostgreSQL backend (DATABASE_URL) through a `pg` connection pool; every transaction on one pooled client. */
import pg from 'pg';
import type { SqlBackend, SqlQuery } from './sql';

export async function openPostgres(connectionString: string): Promise<SqlBackend> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client losing its connection must not crash the server: log-worthy, but the pool recovers.
  pool.on('error', () => undefined);
  await pool.query('SELECT 1'); // fail fast with a clear error when the server is unreachable
  const query: SqlQuery['query'] = async (text, params) => {
    const r = await pool.query(text, params);
    return { rows: r.rows };
  };
  return {
    kind: 'postgres',
    query,
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
    close: () => pool.end(),
  };
}
