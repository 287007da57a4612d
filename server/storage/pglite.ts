/**
 * PGlite (PostgreSQL compiled to WASM, in this process) behind the PostgreSQL-dialect store. It was the
 * embedded default until the measurements in docs/LOAD.md; kept selectable (EMBEDDED_STORE=pglite) so the
 * comparison can be repeated. One process at a time.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SqlBackend, SqlQuery } from './sql';

export async function openPglite(dataDir: string): Promise<SqlBackend> {
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  const wrap = (run: (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>): SqlQuery['query'] =>
    (async (text: string, params?: unknown[]) => ({ rows: (await run(text, params)).rows })) as SqlQuery['query'];
  return {
    kind: 'pglite',
    query: wrap((t, p) => db.query(t, p as never[])),
    transaction: (fn) => db.transaction((tx) => fn({ query: wrap((t, p) => tx.query(t, p as never[])) })),
    close: () => db.close(),
  };
}
