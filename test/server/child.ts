/**
 * The real server as a child process, started as `npm start` does (`node --import tsx server/main.ts`:
 * one process, so SIGTERM and SIGKILL reach the server itself, not a wrapper), for crash tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Child {
  proc: ChildProcess;
  url: string;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startChild(env: Record<string, string>, ms = 90_000): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SKIP_CLIENT_BUILD: '1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${ms} ms:\n${lines.join('\n')}`)), ms);
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      lines.push(line);
      try {
        const j = JSON.parse(line) as { msg?: string; url?: string };
        if (j.msg === 'listening' && j.url) {
          clearTimeout(timer);
          resolve(j.url);
        }
      } catch {
        /* not JSON: tsx or vite output */
      }
    });
    createInterface({ input: proc.stderr! }).on('line', (line) => lines.push(line));
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${lines.join('\n')}`));
    });
  });
  return { proc, url, lines, exited };
}

/** kill -9: no shutdown code runs, as in a crash or OOM kill. */
export async function crash(c: Child): Promise<void> {
  c.proc.kill('SIGKILL');
  await c.exited;
}
