/**
 * Opens the configured backend: PostgreSQL when DATABASE_URL is set, otherwise SQLite under DATA_DIR
 * (EMBEDDED_STORE=pglite selects the previous embedded backend, kept for the comparison in docs/LOAD.md).
 */
import { join } from 'node:path';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import { PgStore } from './pg-store';
import { SqliteStore } from './sqlite';
import type { MatchStore } from './types';

export type { MatchStore } from './types';
export { HttpError, StaleStateError, StorageUnavailableError } from './errors';

export interface StorageConfig {
  databaseUrl?: string;
  /** PostgreSQL schema holding the tables (tests use one per run). */
  databaseSchema?: string;
  /** The longest one PostgreSQL call may take (default DEFAULT_DATABASE_TIMEOUT_MS). */
  databaseTimeoutMs?: number;
  dataDir: string;
  embedded?: 'sqlite' | 'pglite';
}

export async function openStore(cfg: StorageConfig): Promise<MatchStore> {
  let store: MatchStore;
  if (cfg.databaseUrl) store = new PgStore(await openPostgres(cfg.databaseUrl, cfg.databaseTimeoutMs), cfg.databaseSchema ?? 'public');
  else if (cfg.embedded === 'pglite') store = new PgStore(await openPglite(join(cfg.dataDir, 'pglite')));
  else store = new SqliteStore(cfg.dataDir);
  await store.connect();
  return store;
}
