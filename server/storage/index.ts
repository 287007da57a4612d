/** Opens the configured backend: PostgreSQL when DATABASE_URL is set, otherwise PGlite under DATA_DIR. */
import { join } from 'node:path';
import { openEmbedded } from './pglite';
import { openPostgres } from './postgres';
import { MatchStore } from './store';

export { MatchStore } from './store';
export { HttpError, StaleStateError } from './errors';

export interface StorageConfig {
  databaseUrl?: string;
  /** PostgreSQL schema holding the tables (tests use one per run). */
  databaseSchema?: string;
  dataDir: string;
}

export async function openStore(cfg: StorageConfig): Promise<MatchStore> {
  const sql = cfg.databaseUrl ? await openPostgres(cfg.databaseUrl) : await openEmbedded(join(cfg.dataDir, 'pglite'));
  const store = new MatchStore(sql, cfg.databaseUrl ? cfg.databaseSchema : 'public');
  await store.connect();
  return store;
}
