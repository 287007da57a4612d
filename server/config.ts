/** Configuration from the environment (documented in README and docs/ARCHITECTURE.md). */
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  databaseSchema: string;
  /** Extra browser origins allowed besides the server's own (ORIGINS, comma-separated, `*` wildcards). */
  origins: string[];
  logLevel: string;
  clientDir: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 8000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || 'public',
    origins: (env.ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL || 'info',
    clientDir: resolve(env.CLIENT_DIR || 'dist/client'),
  };
}
