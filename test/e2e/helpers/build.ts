/**
 * Builds the client once per source version into a temp folder (CLIENT_DIR for the server), so e2e
 * files running in parallel neither rebuild nor overwrite each other's dist.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

const ROOT = resolve(import.meta.dirname, '../../..');

function hashTree(dirs: string[], files: string[]): string {
  const h = createHash('sha256');
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) for (const f of readdirSync(p).sort()) walk(join(p, f));
    else h.update(p).update(readFileSync(p));
  };
  for (const d of dirs) walk(join(ROOT, d));
  for (const f of files) walk(join(ROOT, f));
  return h.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function builtClient(): Promise<string> {
  const out = join(tmpdir(), `watergate-client-${hashTree(['client', 'game', 'protocol'], ['vite.config.ts', 'package-lock.json'])}`);
  const lock = `${out}.lock`;
  for (let i = 0; i < 600; i++) {
    if (existsSync(join(out, 'index.html'))) return out;
    try {
      mkdirSync(lock); // atomic: one builder at a time
    } catch {
      await sleep(500);
      continue;
    }
    try {
      if (!existsSync(join(out, 'index.html'))) {
        await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
      }
      return out;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  throw new Error('timed out waiting for another client build');
}
