/**
 * The little SQL surface the match store needs, so the same queries run on PGlite (embedded PostgreSQL
 * compiled to WASM) and on a PostgreSQL server through `pg`: one dialect, one set of tests.
 */
export interface SqlQuery {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

export interface SqlBackend extends SqlQuery {
  /** 'embedded' (PGlite under DATA_DIR) or 'postgres' (DATABASE_URL). */
  readonly kind: 'embedded' | 'postgres';
  /** Runs fn inside BEGIN … COMMIT; any throw rolls everything back. */
  transaction<T>(fn: (q: SqlQuery) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
