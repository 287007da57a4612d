/**
 * `npm run cluster -- --processes N [--port P]`: N server processes behind HAProxy on one port, sharing
 * PostgreSQL (DATABASE_URL) and Redis (REDIS_URL, the bus between them). HAProxy sends every request and
 * socket of a match to one process, by the match id (the `matchID` query parameter every socket sends, or
 * the id in a Lobby API path), with consistent hashing: when a process dies, only its matches move, and
 * their clients reconnect to the process that takes them over. New matches are spread round robin.
 * HAProxy adds the client's address to X-Forwarded-For and the servers run with TRUST_PROXY=1, so the
 * per-address limits count clients, not HAProxy (and count them together, in Redis).
 * Ctrl-C or SIGTERM stops everything. docs/ARCHITECTURE.md "Several processes" explains the parts.
 *
 * Also used by the cluster tests and `npm run bench:server` (startCluster).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { ensureClientBuilt } from '../server/static';
import { serverBundle } from './server-bundle';

const ROOT = resolve(import.meta.dirname, '..');
export const HAPROXY = '/usr/sbin/haproxy';

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/** HAProxy's configuration for servers on these loopback ports (health: /healthz every 500 ms). */
function haproxyConfig(port: number, serverPorts: number[]): string {
  return `global
  maxconn 4000
  log stderr format short local0 warning

defaults
  mode http
  log global
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  retries 3
  option redispatch

frontend watergate
  bind 127.0.0.1:${port}
  # The servers' limits count the client's address, which only this header carries past the proxy.
  option forwardfor
  default_backend servers

backend servers
  # The match a request belongs to: a socket names it in its query, a Lobby API call in its path.
  http-request set-var(txn.match) url_param(matchID)
  http-request set-var(txn.match) path,field(4,/) if { path_reg ^/games/[^/]+/[A-Za-z0-9_-]+(/|$) } !{ path_reg ^/games/[^/]+/(create|vs-computer)$ } !{ var(txn.match) -m found }
  # A bot's stream and its moves over HTTP (docs/BOT-API.md) go to the process that serves their match too.
  http-request set-var(txn.match) path,field(6,/) if { path_reg ^/api/bot/game/stream/[A-Za-z0-9_-]+$ } !{ var(txn.match) -m found }
  http-request set-var(txn.match) path,field(5,/) if { path_reg ^/api/bot/game/[A-Za-z0-9_-]+/(move|resign|chat)$ } !{ var(txn.match) -m found }
  balance hash var(txn.match)
  hash-type consistent
  option httpchk GET /healthz
  http-check expect status 200
${serverPorts.map((p, i) => `  server s${i + 1} 127.0.0.1:${p} check inter 500ms fall 2 rise 1`).join('\n')}
`;
}

export interface ServerProcess {
  proc: ChildProcess;
  url: string;
  port: number;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * One server process on `port`, resolved once it listens: the sources bundled (./server-bundle.ts, the
 * build `npm start` runs), or with `tsx` under tsx's loader as `npm run dev:server` runs them (what earlier
 * benchmarks measured, and what an older checkout without the bundle runs). `cwd`: another checkout of the project (a benchmark's earlier version of the server).
 */
export async function startServerProcess(env: Record<string, string>, port: number, ms = 90_000, cwd = ROOT, { tsx = false } = {}): Promise<ServerProcess> {
  const args = tsx ? ['--import', 'tsx', 'server/main.ts'] : [await serverBundle(cwd)];
  const proc = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, HOST: '127.0.0.1', SKIP_CLIENT_BUILD: '1', LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => proc.once('exit', (code, signal) => r({ code, signal })));
  for (const input of [proc.stdout!, proc.stderr!])
    createInterface({ input }).on('line', (line) => {
      lines.push(line);
      if (lines.length > 2000) lines.splice(0, 1000);
    });
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  void exited.then((e) => (exit = e));
  const url = `http://127.0.0.1:${port}`;
  // Ready when it answers /healthz (whatever LOG_LEVEL says).
  for (const deadline = Date.now() + ms; ; ) {
    if (exit) throw new Error(`server exited (${JSON.stringify(exit)}) before listening:\n${lines.join('\n')}`);
    try {
      if ((await fetch(`${url}/healthz`)).status < 500) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not start within ${ms} ms:\n${lines.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, url, port, lines, exited };
}

export interface Cluster {
  url: string;
  servers: ServerProcess[];
  haproxy: ChildProcess;
  /** Starts process i again (after a crash), on its port. */
  restart(i: number): Promise<ServerProcess>;
  stop(): Promise<void>;
}

export async function startCluster({ processes, port, env }: { processes: number; port?: number; env: Record<string, string> }): Promise<Cluster> {
  if (!env.DATABASE_URL || !env.REDIS_URL) throw new Error('the cluster needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis): several processes share both');
  if (spawnSync(HAPROXY, ['-v']).status !== 0) throw new Error(`HAProxy is not installed (${HAPROXY}): bash scripts/ensure-haproxy.sh installs Debian's package`);
  const ports = await Promise.all(Array.from({ length: processes }, () => freePort()));
  const front = port ?? (await freePort());
  // Browsers open HAProxy's port, not a process's: that is the processes' own origin (unless one is given).
  env = { ...env, PUBLIC_URL: env.PUBLIC_URL || `http://127.0.0.1:${front}` };
  const servers: ServerProcess[] = [];
  // One at a time: the first creates the tables, the others find them.
  const serverEnv = { ...env, TRUST_PROXY: '1' };
  for (const p of ports) servers.push(await startServerProcess(serverEnv, p));
  const dir = mkdtempSync(join(tmpdir(), 'wg-haproxy-'));
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, haproxyConfig(front, ports));
  const check = spawnSync(HAPROXY, ['-c', '-q', '-f', cfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`HAProxy refused its configuration:\n${check.stdout}${check.stderr}`);
  const haproxy = spawn(HAPROXY, ['-db', '-f', cfg], { stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${front}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not yet */
    }
    if (i > 100) throw new Error('HAProxy did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    servers,
    haproxy,
    async restart(i) {
      servers[i] = await startServerProcess(serverEnv, ports[i]);
      return servers[i];
    },
    async stop() {
      haproxy.kill('SIGTERM');
      await Promise.all(
        servers.map(async (s) => {
          if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
          s.proc.kill('SIGTERM');
          const timer = setTimeout(() => s.proc.kill('SIGKILL'), 5000);
          await s.exited;
          clearTimeout(timer);
        }),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const processes = Number(opt('processes') ?? 2);
  const port = Number(opt('port') ?? process.env.PORT ?? 8000);
  try {
    if (!Number.isInteger(processes) || processes < 1 || processes > 32) throw new Error('--processes must be a whole number from 1 to 32');
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('--port must be a port number');
    if (!process.env.DATABASE_URL || !process.env.REDIS_URL)
      throw new Error('npm run cluster needs DATABASE_URL and REDIS_URL, e.g.\n  DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 npm run cluster -- --processes 2');
    // Build the client once, before the processes start (each would otherwise try).
    ensureClientBuilt(resolve(ROOT, process.env.CLIENT_DIR || 'dist/client'), { info: (o: unknown, m: string) => console.log(m, o) } as never);
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    const cluster = await startCluster({ processes, port, env });
    console.log(JSON.stringify({ msg: 'cluster listening', url: cluster.url, processes: cluster.servers.map((s) => s.url) }));
    for (const s of cluster.servers) void s.exited.then((e) => console.error(JSON.stringify({ msg: 'server process exited', url: s.url, ...e })));
    const stop = () => void cluster.stop().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  }
}
