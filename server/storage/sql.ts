/**
 * The little SQL surface the PostgreSQL-dialect store needs, so the same queries run on a PostgreSQL
 * server through `pg` and on PGlite (PostgreSQL compiled to WASM, kept for comparison in docs/LOAD.md).
 */
export interface SqlQuery {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

export interface SqlBackend extends SqlQuery {
  readonly kind: 'postgres' | 'pglite';
  /**
   * Runs fn inside BEGIN … COMMIT; any throw rolls everything back. `slow`: no time limit (table
   * creation and upgrades at start, which may wait for another process's).
   */
  transaction<T>(fn: (q: SqlQuery) => Promise<T>, opts?: { slow?: boolean }): Promise<T>;
  /** Session-level advisory locks for this process (PostgreSQL); absent: one process, nothing to lock. */
  locks?: AdvisoryLocks;
  close(): Promise<void>;
}

export interface AdvisoryLocks {
  tryLock(space: string, key: string): Promise<boolean>;
  unlock(space: string, key: string): Promise<void>;
  /** Called when the locks' connection is lost: every lock this process held is gone. */
  onLost(fn: () => void): void;
  close(): Promise<void>;
}
