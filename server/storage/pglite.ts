/**
 * Embedded backend: PGlite keeps a real PostgreSQL data directory (with its write-ahead log) under DATA_DIR,
 * inside this process. No server to install; survives kill -9 like PostgreSQL does. One process at a time.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SqlBackend, SqlQuery } from './sql';

export async function openEmbedded(dataDir: string): Promise<SqlBackend> {
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  const q: SqlQuery['query'] = async (text, params) => {
    const r = await db.query(text, params as never[]);
    return { rows: r.rows as never[] };
  };
  return {
    kind: 'embedded',
    query: q,
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: async (text, params) => {
            const r = await tx.query(text, params as never[]);
            return { rows: r.rows as never[] };
          },
        }),
      ),
    close: () => db.close(),
  };
}
