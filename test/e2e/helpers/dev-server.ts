/**
 * `npm run dev` (Vite's dev server: React in development, StrictMode's double effects, no build) on a free
 * loopback port, for the journeys a developer makes there. The port is given on the command line
 * (`--port … --strictPort`), over vite.config.ts's 5173, so a developer's own dev server is left alone.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../../../tools/cluster';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface DevServer {
  url: string;
  output(): string[];
  stop(): Promise<void>;
}

/** `server`: the address its proxy sends the lobby, the API and the socket to (WATERGATE_SERVER, vite.config.ts). */
export async function startDevServer(timeoutMs = 60_000, server?: string): Promise<DevServer> {
  const port = await freePort();
  // Its own process group: npm starts vite as a child, and the whole group is stopped at the end.
  const proc = spawn('npm', ['run', 'dev', '--', '--port', String(port), '--strictPort'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BROWSER: 'none', ...(server ? { WATERGATE_SERVER: server } : {}) } });
  const lines: string[] = [];
  const keep = (b: Buffer) => lines.push(...b.toString().split('\n').filter(Boolean));
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  const exited = new Promise<void>((ok) => proc.once('exit', () => ok()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    process.kill(-proc.pid!, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-proc.pid!, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`npm run dev exited:\n${lines.join('\n')}`);
    const up = await fetch(url).then((r) => r.ok, () => false);
    if (up) return { url, output: () => lines.slice(-40), stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm run dev did not answer on ${url} in ${timeoutMs} ms:\n${lines.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
