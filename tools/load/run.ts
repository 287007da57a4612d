/**
 * `npm run load -- --url URL[,URL…] --matches M --seconds S [--paced MIN,MAX] [--json] [--game watergate|toy] [--seed N] [--workers W] [--metrics URL,URL…] [--yield]`
 *
 * Load on a running server, from this machine only: M matches (up to 10,000) at once, each created and
 * joined through the Lobby API and played by two socket clients speaking boardgame.io's protocol, each
 * choosing its moves from the legal moves of its own seat's view (./play.ts). A finished match is
 * replaced by a new one, so M stay in play for S seconds. Flat out, a client moves as soon as it may;
 * `--paced MIN,MAX` waits a random MIN–MAX ms first, as a person would. The matches are shared among W
 * load processes this tool starts itself (./worker.ts; by default one per 1,000 matches), so the load
 * generator is not the bottleneck of one event loop. Several `--url`s (each process of a cluster, without
 * the proxy in front: a proxy holds two descriptors per socket) share the load processes among them,
 * each process playing all its matches against one address. `--yield` runs the load processes at the
 * lowest CPU priority (nice 19), so the server's threads — its garbage collector's helpers among them —
 * have the cores first, as they would with the load coming from other machines (docs/LOAD.md).
 *
 * The server's per-address limits stay on: each match comes from a source address of its own in
 * 127.0.0.0/8 (its Lobby calls and both its sockets), as many people would, so the load measures the
 * server with its limits rather than the limits refusing one address (docs/LOAD.md). Against [::1] (one
 * loopback address) everything comes from it.
 *
 * Latency is from sending a move to that client's next state. Errors are counted by kind
 * (play.ts ERROR_KINDS), refusals by type; the server's /metrics, read before, at the window's start and
 * at its end, gives each phase of a move, the event loop's delay, GC pauses and memory per match
 * (./server-metrics.ts). `--json` prints one line {"matches","moves","movesPerSecond","p50","p95","p99",
 * "errors","refusals","errorsByKind",…}; without it, a table. docs/LOAD.md "The load tool".
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceAddress, type PlayOptions, type PlayResult } from './play';
import { PHASES, scrape, serverFigures, type Scrape, type ServerFigures } from './server-metrics';

export { sourceAddress };

interface Options {
  /** Where the matches are played: one server, or each process of a cluster without its proxy (--url A,B). */
  urls: string[];
  /** Where to read /metrics: the server's own address, or each process of a cluster (--metrics). */
  metrics: string[];
  matches: number;
  seconds: number;
  paced: [number, number] | null;
  json: boolean;
  game: 'watergate' | 'toy';
  seed: number;
  workers: number;
  /** The load processes at the lowest CPU priority, the server's threads first (--yield). */
  yieldCpu: boolean;
}

/** A comma-separated list of at most 16 URLs on this machine (this tool generates load: never elsewhere). */
function loopbackList(flag: string, text: string, must: string): string[] {
  const list = text.split(',').map((u) => u.trim().replace(/\/+$/, ''));
  if (list.length > 16) throw new Error(`--${flag} takes at most 16 addresses`);
  for (const u of list) {
    let host: string;
    try {
      host = new URL(u).hostname;
    } catch {
      throw new Error(`--${flag} "${u}" is not a URL`);
    }
    if (!LOOPBACK.has(host)) throw new Error(`--${flag} must ${must} "${host}": this tool generates load`);
  }
  return list;
}

/** The most matches one load process plays by default: more go to more processes. */
export const MATCHES_PER_WORKER = 1000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function parseArgs(argv: string[]): Options {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const url = opt('url');
  if (!url) throw new Error('--url is required, e.g. --url http://127.0.0.1:8000');
  const urls = loopbackList('url', url, 'point at this machine (127.0.0.1, localhost or [::1]), not');
  const int = (name: string, fallback: number, min: number, max: number) => {
    const v = opt(name);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
  const pacedText = opt('paced');
  let paced: [number, number] | null = null;
  if (pacedText !== undefined) {
    const m = /^(\d+),(\d+)$/.exec(pacedText);
    if (!m || Number(m[1]) > Number(m[2]) || Number(m[2]) > 600_000) throw new Error('--paced takes MIN,MAX in milliseconds, e.g. --paced 1000,3000');
    paced = [Number(m[1]), Number(m[2])];
  }
  const game = opt('game') ?? 'watergate';
  if (game !== 'watergate' && game !== 'toy') throw new Error('--game is "watergate" or "toy"');
  const matches = int('matches', 10, 1, 10_000);
  // At least one load process per address: each process plays all its matches against one of them.
  const workers = int('workers', Math.max(urls.length, Math.ceil(matches / MATCHES_PER_WORKER)), urls.length, Math.min(matches, 64));
  const metrics = loopbackList('metrics', opt('metrics') ?? url, 'name servers on this machine, not');
  return { urls, metrics, matches, seconds: int('seconds', 10, 1, 600), paced, json: argv.includes('--json'), game, seed: int('seed', 1, 0, 2 ** 31), workers, yieldCpu: argv.includes('--yield') };
}

export interface LoadResult {
  matches: number;
  /** When the measured window began (ISO 8601): to line it up with the server's logs and profiles. */
  windowStart: string;
  seconds: number;
  moves: number;
  movesPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** The sum of errorsByKind. */
  errors: number;
  refusals: Record<string, number>;
  errorsByKind: Record<string, number>;
  games: number;
  workers: number;
  /** The server's own figures (server-metrics.ts), null when its /metrics could not be read (metricsError says why). */
  phases: ServerFigures['phases'] | null;
  eventLoop: ServerFigures['eventLoop'] | null;
  gc: ServerFigures['gc'] | null;
  memory: ServerFigures['memory'] | null;
  /** The load processes' own event-loop delay over the window (ms; the worst process's p99 and max). */
  loadLoop: { p99: number; max: number };
  /** The CPU priority the load processes ran at, as each read it from the kernel (the highest of them): 0, or 19 with --yield. */
  loadNice: number;
  /** CPU over the window in % of one core: the server's (null without /metrics) and all load processes' together. */
  cpu: { server: number | null; load: number };
  metricsError?: string;
  /** With --metrics naming several processes: each one's figures (the fields above then add them up: histograms and memory summed, the event loop's and GC's longest the worst process's). */
  processes?: ({ url: string; cpu: number } & ServerFigures)[];
}

/** Hooks for a caller measuring the server over the same window (npm run bench:server). */
export interface LoadHooks {
  onWindowStart?: () => void;
  onWindowEnd?: () => void;
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A load process (worker.ts) playing `options`, and how to talk to it. */
function startWorker(options: PlayOptions, yieldCpu: boolean) {
  // Under tsx's loader whoever runs this (npm run load, vitest, bench:server); the advanced serialization
  // carries the latencies as they are.
  const child: ChildProcess = fork(WORKER, [], { cwd: ROOT, execArgv: ['--import', 'tsx'], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<string>((r) => child.once('exit', (code, signal) => r(`a load process exited early (${signal ?? code})`)));
  const next = <T>(t: string) =>
    Promise.race([
      new Promise<T>((resolve) => {
        const on = (m: { t: string }) => {
          if (m.t !== t) return;
          child.off('message', on);
          resolve(m as T);
        };
        child.on('message', on);
      }),
      exited.then((why) => Promise.reject(new Error(why))),
    ]);
  const ready = next<unknown>('ready');
  child.send({ t: 'play', options, yieldCpu });
  return {
    ready,
    measure: () => child.send({ t: 'measure' }),
    end: () => child.send({ t: 'end' }),
    stop: async () => {
      const result = next<{ result: PlayResult; nice: number }>('result');
      child.send({ t: 'stop' });
      return Promise.race([result, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a load process did not report within 15 s')), 15_000))])
        .then((m) => ({ ...m.result, nice: m.nice }))
        .finally(() => child.kill());
    },
    kill: () => child.kill(),
  };
}

export async function runLoad(o: Options, hooks: LoadHooks = {}): Promise<LoadResult> {
  const readAll = () => Promise.all(o.metrics.map((m) => scrape(m)));
  const before = await readAll();
  const share = (k: number) => Math.floor(o.matches / o.workers) + (k < o.matches % o.workers ? 1 : 0);
  const workers = Array.from({ length: o.workers }, (_, k) =>
    startWorker({ url: o.urls[k % o.urls.length], matches: share(k), paced: o.paced, game: o.game, seed: o.seed + 7919 * k, worker: k, workers: o.workers }, o.yieldCpu),
  );
  try {
    // Every match in play, or as many as made it in a minute and 20 ms a match (10,000 matches through
    // two processes' PostgreSQL commits took longer than the 2.5 ms a match once allowed here).
    const opening = 60_000 + o.matches * 20;
    await Promise.race([Promise.all(workers.map((w) => w.ready)), new Promise((r) => setTimeout(r, opening))]);
    const start = await readAll();
    for (const w of workers) w.measure();
    hooks.onWindowStart?.();
    const t0 = performance.now();
    const windowStart = new Date().toISOString();
    await new Promise((r) => setTimeout(r, o.seconds * 1000));
    // The clients stop counting before /metrics is read again: reading it holds the server's loop
    // (38–51 ms at 5,000 matches, docs/LOAD.md), which is the measurement's cost, not the server's.
    for (const w of workers) w.end();
    const elapsed = (performance.now() - t0) / 1000;
    hooks.onWindowEnd?.();
    const end = await readAll();
    const results = await Promise.all(workers.map((w) => w.stop()));
    return summary(o, windowStart, elapsed, results, before, start, end);
  } finally {
    for (const w of workers) w.kill();
  }
}

/** Several processes' scrapes as one: every sample added up (histogram buckets, counters, memory). */
function sum(scrapes: Scrape[]): Scrape {
  const out: Scrape = new Map();
  for (const s of scrapes) for (const [k, v] of s) out.set(k, (out.get(k) ?? 0) + v);
  return out;
}

function summary(o: Options, windowStart: string, elapsed: number, results: (PlayResult & { nice: number })[], befores: (Scrape | string)[], starts: (Scrape | string)[], ends: (Scrape | string)[]): LoadResult {
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
    return into;
  };
  const errorsByKind = results.reduce((a, r) => add(a, r.errorsByKind), {} as Record<string, number>);
  const refusals = results.reduce((a, r) => add(a, r.refusals), {} as Record<string, number>);
  const sorted = Float64Array.from(results.flatMap((r) => r.latencies)).sort();
  const q = (p: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] * 10) / 10 : NaN);
  const metricsError = [...befores, ...starts, ...ends].find((s): s is string => typeof s === 'string');
  const each = metricsError === undefined ? o.metrics.map((url, i) => ({ url, ...serverFigures(befores[i] as Scrape, starts[i] as Scrape, ends[i] as Scrape) })) : null;
  let server: ServerFigures | null = null;
  if (each) {
    server = serverFigures(sum(befores as Scrape[]), sum(starts as Scrape[]), sum(ends as Scrape[]));
    server.eventLoop = { p99: Math.max(...each.map((e) => e.eventLoop.p99)), max: Math.max(...each.map((e) => e.eventLoop.max)) };
    server.gc.maxMs = Math.max(...each.map((e) => e.gc.maxMs));
  }
  return {
    matches: o.matches,
    windowStart,
    seconds: Math.round(elapsed * 10) / 10,
    moves: sorted.length,
    movesPerSecond: Math.round((sorted.length / elapsed) * 10) / 10,
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
    errors: Object.values(errorsByKind).reduce((a, n) => a + n, 0),
    refusals,
    errorsByKind,
    games: results.reduce((a, r) => a + r.games, 0),
    workers: o.workers,
    phases: server?.phases ?? null,
    eventLoop: server?.eventLoop ?? null,
    gc: server?.gc ?? null,
    memory: server?.memory ?? null,
    cpu: { server: server ? Math.round((100 * server.cpuSeconds) / elapsed) : null, load: Math.round((100 * results.reduce((a, r) => a + r.cpuSeconds, 0)) / elapsed) },
    loadLoop: { p99: Math.max(0, ...results.map((r) => r.loop.p99)), max: Math.max(0, ...results.map((r) => r.loop.max)) },
    loadNice: Math.max(...results.map((r) => r.nice)),
    ...(metricsError !== undefined ? { metricsError } : {}),
    ...(each && each.length > 1 ? { processes: each.map((e) => ({ ...e, cpu: Math.round((100 * e.cpuSeconds) / elapsed) })) } : {}),
  };
}

/** The result as people read it (without --json). */
export function table(r: LoadResult, paced: Options['paced']): string {
  const f = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? '–' : String(x));
  const lines = [
    `${r.matches} matches from ${r.workers} load process${r.workers > 1 ? 'es' : ''} for ${r.seconds} s${paced ? `, paced ${paced[0]}–${paced[1]} ms` : ', flat out'}: ${r.moves} moves, ${r.movesPerSecond} moves/s, ${r.games} games finished`,
    '',
    '| ms | p50 | p95 | p99 | count |',
    '|---|---|---|---|---|',
    `| client: send → own next state | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.moves} |`,
  ];
  if (r.phases) for (const p of [...PHASES, 'move'] as const) lines.push(`| server: ${p === 'move' ? 'whole move' : p} | ${f(r.phases[p].p50)} | ${f(r.phases[p].p95)} | ${f(r.phases[p].p99)} | ${r.phases[p].count} |`);
  lines.push('');
  if (r.eventLoop && r.gc && r.memory) {
    lines.push(`event loop delay: p99 ${r.eventLoop.p99} ms, max ${r.eventLoop.max} ms; GC: ${r.gc.pauses} pauses, ${r.gc.totalMs} ms in all, longest ${r.gc.maxMs} ms`);
    lines.push(`memory with ${r.memory.openMatches} matches open: RSS ${r.memory.rssMB} MB, heap ${r.memory.heapMB} MB; per match opened by the load: RSS ${f(r.memory.rssPerMatchKB)} KB, heap ${f(r.memory.heapPerMatchKB)} KB`);
  } else lines.push(`server figures: none (${r.metricsError})`);
  lines.push(`the load processes' own event loop delay (a latency waits there too): p99 ${r.loadLoop.p99} ms, max ${r.loadLoop.max} ms`);
  for (const p of r.processes ?? [])
    lines.push(`process ${p.url}: whole move p99 ${f(p.phases.move.p99)} ms over ${p.phases.move.count}; event loop p99 ${p.eventLoop.p99} ms, max ${p.eventLoop.max} ms; GC ${p.gc.totalMs} ms, longest ${p.gc.maxMs} ms; RSS ${p.memory.rssMB} MB with ${p.memory.openMatches} matches; CPU ${p.cpu}% of a core`);
  lines.push(`CPU over the window, % of one core: server ${f(r.cpu.server)}, load processes ${r.cpu.load} at nice ${r.loadNice}${r.loadNice > 0 ? ', the server first' : ''} (they share this machine's ${availableParallelism()} cores)`);
  lines.push(`errors: ${r.errors}${r.errors ? ` (${Object.entries(r.errorsByKind).map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}; refusals: ${Object.entries(r.refusals).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`);
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const o = parseArgs(process.argv.slice(2));
    const r = await runLoad(o);
    if (o.json) console.log(JSON.stringify(r));
    else console.log(table(r, o.paced));
    process.exit(0);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  }
}
