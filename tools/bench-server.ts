/**
 * `npm run bench:server [-- --repeats N] [--seconds S] [--only flat,paced] [--configs a,b] [--before DIR] [--no-write]`
 *
 * Our server under the load generator of tools/load/run.ts, beside a stock boardgame.io 0.50.2 server with a
 * small card game (tools/load/stock-server.ts) driven by the same generator in the same run, and writes
 * docs/LOAD.md. Each configuration starts fresh (new data folder, schema, Redis prefix) and the runs are
 * interleaved (stock, ours, stock, ours…) so drift on this shared machine falls on both alike; the tables
 * give medians of the repeats and the median of each repeat's ratio to the stock server.
 *
 * - flat: 100 matches, clients move as soon as they may; one process embedded (SQLite, then PGlite for
 *   comparison), one process PostgreSQL, each with a snapshot every move and every 50 moves; 2 processes
 *   on PostgreSQL + Redis behind HAProxy;
 * - paced: 200 matches, each client waits 1–3 s before moving, as people do; paced1000 (only when asked,
 *   `--only paced1000`): 1,000 such matches, beside the stock server with the card game and with Watergate.
 * - `--before DIR`: also our server as another checkout holds it (an earlier commit, with its own
 *   node_modules), embedded, in both plans: a change's cost measured beside what it changed, in one run.
 * Server CPU is measured over the load's measuring window from /proc (all threads of the server processes),
 * RSS is the peak (VmHWM), storage time per move is the server's own histogram (/metrics).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort, startCluster, startServerProcess, type Cluster } from './cluster';
import { parseArgs, runLoad, type LoadResult } from './load/run';
import { machine, option as opt, today, writeSection } from './machine';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const REPEATS = Number(opt('repeats', '3'));
const SECONDS = Number(opt('seconds', '20'));
const ONLY = opt('only', 'flat,paced').split(',');
/** Only these configurations (the stock server always runs, as the baseline). */
const PICK = opt('configs', '').split(',').filter(Boolean);
const WRITE = !args.includes('--no-write');
const BEFORE = opt('before', '');
const beforeCommit = () => (BEFORE ? execFileSync('git', ['-C', BEFORE, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim() : '');
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

interface Target {
  url: string;
  /** Each server process's own address (for /metrics). */
  processes: string[];
  game: 'watergate' | 'toy';
  pids: () => number[];
  stop(): Promise<void>;
}

interface Config {
  name: string;
  label: string;
  start(): Promise<Target>;
}

const ticks = (pid: number) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime of all threads, in clock ticks (1/100 s)
  } catch {
    return 0;
  }
};
const peakRss = (pid: number) => {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return 0;
  }
};

async function stopChild(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  const t = setTimeout(() => p.kill('SIGKILL'), 5000);
  await done;
  clearTimeout(t);
}

const schemas: string[] = [];
const freshSchema = () => {
  const s = `wg_bench_${process.pid}_${schemas.length}`;
  schemas.push(s);
  return s;
};

function ours(name: string, label: string, env: () => Record<string, string>, cwd = ROOT): Config {
  return {
    name,
    label,
    async start() {
      const dir = mkdtempSync(join(tmpdir(), 'wg-bench-'));
      const p = await startServerProcess({ LOG_LEVEL: 'warn', DATA_DIR: dir, DATABASE_URL: '', ...env() }, await freePort(), 90_000, cwd, { tsx: true });
      return {
        url: p.url,
        processes: [p.url],
        game: 'watergate',
        pids: () => [p.proc.pid!],
        async stop() {
          await stopChild(p.proc);
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

function stock(name: string, label: string, game: 'toy' | 'watergate'): Config {
  return {
    name,
    label,
    async start() {
      const port = await freePort();
      const p = spawn(process.execPath, ['--import', 'tsx', 'tools/load/stock-server.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(port), GAME: game }, stdio: 'ignore' });
      const url = `http://127.0.0.1:${port}`;
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`${url}/games/${game}`)).ok) break;
        } catch {
          /* starting */
        }
        if (i > 300) throw new Error('the stock server did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
      return { url, processes: [], game, pids: () => [p.pid!], stop: () => stopChild(p) };
    },
  };
}

const CONFIGS: Record<string, Config> = {
  stock: stock('stock', 'stock boardgame.io 0.50.2 + small card game, in-memory storage', 'toy'),
  'stock-watergate': stock('stock-watergate', 'stock boardgame.io 0.50.2 + Watergate, in-memory storage, no hardening', 'watergate'),
  embedded: ours('embedded', 'ours, 1 process, embedded SQLite (default), snapshot every 50 moves', () => ({ SNAPSHOT_EVERY: '50' })),
  'embedded-1': ours('embedded-1', 'ours, 1 process, embedded SQLite, snapshot every move', () => ({ SNAPSHOT_EVERY: '1' })),
  pglite: ours('pglite', 'ours, 1 process, embedded PGlite, snapshot every 50 moves', () => ({ EMBEDDED_STORE: 'pglite', SNAPSHOT_EVERY: '50' })),
  postgres: ours('postgres', 'ours, 1 process, PostgreSQL, snapshot every 50 moves', () => ({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: freshSchema(), SNAPSHOT_EVERY: '50' })),
  'postgres-1': ours('postgres-1', 'ours, 1 process, PostgreSQL, snapshot every move', () => ({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: freshSchema(), SNAPSHOT_EVERY: '1' })),
  before: ours('before', `ours at ${beforeCommit()} (before), 1 process, embedded SQLite, snapshot every 50 moves`, () => ({ SNAPSHOT_EVERY: '50' }), resolve(BEFORE || ROOT)),
  cluster: {
    name: 'cluster',
    label: 'ours, 2 processes, PostgreSQL + Redis, behind HAProxy',
    async start() {
      const schema = freshSchema();
      const c: Cluster = await startCluster({
        processes: 2,
        env: { ...(process.env as Record<string, string>), LOG_LEVEL: 'warn', DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL, REDIS_PREFIX: `${schema}:`, SNAPSHOT_EVERY: '50' },
      });
      return { url: c.url, processes: c.servers.map((s) => s.url), game: 'watergate', pids: () => c.servers.map((s) => s.proc.pid!), stop: () => c.stop() };
    },
  },
};

interface Row {
  config: string;
  repeat: number;
  load: LoadResult;
  cpu: number; // % of one core, all server processes
  rss: number; // MB, the largest server process
  storageMs: number; // mean storage time per saved move (ms), from the server's histogram
}

async function storageMsPerMove(urls: string[]): Promise<number> {
  let sum = 0;
  let count = 0;
  for (const url of urls) {
    const text = await (await fetch(`${url}/metrics`)).text();
    sum += Number(/wg_storage_duration_seconds_sum\{op="move"\} ([\d.e+-]+)/.exec(text)?.[1] ?? 0);
    count += Number(/wg_storage_duration_seconds_count\{op="move"\} ([\d.e+-]+)/.exec(text)?.[1] ?? 0);
  }
  return count ? (1000 * sum) / count : NaN;
}

async function measure(config: Config, repeat: number, matches: number, paced: string | null): Promise<Row> {
  const target = await config.start();
  try {
    const o = parseArgs(['--url', target.url, '--matches', String(matches), '--seconds', String(SECONDS), '--game', target.game, ...(paced ? ['--paced', paced] : []), '--seed', String(repeat + 1)]);
    let t0 = 0;
    let cpu0 = 0;
    let cpu = 0;
    const load = await runLoad(o, {
      onWindowStart: () => {
        t0 = performance.now();
        cpu0 = target.pids().reduce((a, p) => a + ticks(p), 0);
      },
      onWindowEnd: () => {
        cpu = (target.pids().reduce((a, p) => a + ticks(p), 0) - cpu0) / ((performance.now() - t0) / 1000);
      },
    });
    const rss = Math.max(...target.pids().map(peakRss));
    const storageMs = await storageMsPerMove(target.processes);
    const row = { config: config.name, repeat, load, cpu, rss, storageMs };
    console.log(new Date().toISOString().slice(11, 19), JSON.stringify({ ...row, load: { ...load } }));
    return row;
  } finally {
    await target.stop();
  }
}

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (x: number, digits = 0) => (Number.isFinite(x) ? x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–');

function table(rows: Row[], configs: string[], paced: boolean): string {
  const stock = (r: number) => rows.find((x) => x.config === 'stock' && x.repeat === r)!;
  const lines = [
    paced
      ? '| server | moves/s | p50 ms | p95 ms | p99 ms | p99 / stock | CPU % of a core | peak RSS MB | storage ms per move | errors |'
      : '| server | moves/s | × stock (median of repeats) | p50 ms | p99 ms | CPU % of a core | CPU ms per move | peak RSS MB | storage ms per move | errors |',
    paced ? '|---|---|---|---|---|---|---|---|---|---|' : '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of configs) {
    const rs = rows.filter((x) => x.config === c);
    if (rs.length === 0) continue;
    const m = (fn: (r: Row) => number) => median(rs.map(fn));
    const ratio = median(rs.map((r) => r.load.movesPerSecond / stock(r.repeat).load.movesPerSecond));
    const p99ratio = median(rs.map((r) => r.load.p99 / stock(r.repeat).load.p99));
    const errors = rs.reduce((a, r) => a + r.load.errors, 0);
    const cpuPerMove = m((r) => (10 * r.cpu) / r.load.movesPerSecond);
    lines.push(
      paced
        ? `| ${CONFIGS[c].label} | ${f(m((r) => r.load.movesPerSecond))} | ${f(m((r) => r.load.p50), 1)} | ${f(m((r) => r.load.p95), 1)} | ${f(m((r) => r.load.p99), 1)} | ${c === 'stock' ? '1' : f(p99ratio, 1)} | ${f(m((r) => r.cpu))} | ${f(m((r) => r.rss))} | ${f(m((r) => r.storageMs), 2)} | ${errors} |`
        : `| ${CONFIGS[c].label} | ${f(m((r) => r.load.movesPerSecond))} | ${c === 'stock' ? '1' : `**${f(ratio, 2)}**`} | ${f(m((r) => r.load.p50), 1)} | ${f(m((r) => r.load.p99), 1)} | ${f(m((r) => r.cpu))} | ${f(cpuPerMove, 2)} | ${f(m((r) => r.rss))} | ${f(m((r) => r.storageMs), 2)} | ${errors} |`,
    );
  }
  return lines.join('\n');
}

async function main() {
  const started = new Date();
  const load0 = loadavg();
  const sections: [string, string][] = [];
  const plans: [string, string[], number, string | null][] = [];
  const pick = (cs: string[]) => (PICK.length ? cs.filter((c) => c === 'stock' || PICK.includes(c)) : cs).filter((c) => c !== 'before' || BEFORE);
  if (ONLY.includes('flat')) plans.push(['flat', pick(['stock', 'stock-watergate', 'before', 'embedded', 'embedded-1', 'pglite', 'postgres', 'postgres-1', 'cluster']), 100, null]);
  if (ONLY.includes('paced')) plans.push(['paced', pick(['stock', 'before', 'embedded', 'postgres', 'cluster']), 200, '1000,3000']);
  // A thousand matches at a person's pace (≈ 500 moves/s, 2,000 sockets): the same pace, five times the players.
  if (ONLY.includes('paced1000')) plans.push(['paced1000', pick(['stock', 'stock-watergate', 'before', 'embedded']), 1000, '1000,3000']);
  for (const [name, configs, matches, paced] of plans) {
    const rows: Row[] = [];
    for (let r = 0; r < REPEATS; r++) for (const c of configs) rows.push(await measure(CONFIGS[c], r, matches, paced));
    const head = paced
      ? `${matches} matches at a person's pace (each client waits ${paced.replace(',', '–')} ms before moving), ${SECONDS} s each, ${REPEATS} repeats (medians):`
      : `${matches} matches flat out (clients move as soon as they may), ${SECONDS} s each, ${REPEATS} repeats (medians; "× stock" is the median of each repeat's ratio to the stock server run beside it):`;
    // A run of some configurations only writes a section of its own, beside the full tables.
    sections.push([`load-${name}${PICK.length ? `-${PICK.join('-')}` : ''}`, `${head}\n\n${table(rows, configs, !!paced)}`]);
  }
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await c.end();
  const stamp = `Machine: ${machine()}. Run ${today()} ${started.toISOString().slice(11, 16)} UTC: \`npm run bench:server -- ${args.join(' ')}\` (load average at start ${load0.map((x) => x.toFixed(1)).join(' / ')}, at end ${loadavg().map((x) => x.toFixed(1)).join(' / ')}). The load generator runs on the same 2 cores.`;
  for (const [name, body] of sections) {
    const text = `${stamp}\n\n${body}`;
    console.log(`\n## ${name}\n${text}`);
    if (WRITE) writeSection(join(ROOT, 'docs/LOAD.md'), name, text, '# Load\n');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
