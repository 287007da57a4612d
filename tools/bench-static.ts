/**
 * `npx tsx tools/bench-static.ts`: what compression costs and saves when the server sends the built
 * client. Builds the client into a temp folder (the build writes .br/.gz copies: vite.config.ts), starts
 * two real server processes on loopback — one on that folder, one on a copy without the copies (so it
 * compresses on the fly, server/static.ts) — and asks each for the main script, sequentially over one
 * kept-alive connection: time to first byte, time to the last, and the server process's CPU per request
 * (from /proc). Also times zlib alone on that file at each quality considered, and counts the bytes the
 * page's first load takes. Writes its section of docs/BENCHMARKS.md.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { freePort, startServerProcess, type ServerProcess } from './cluster';
import { machine, option, today, writeSection } from './machine';

const ROOT = resolve(import.meta.dirname, '..');
const N = Number(option('requests', '300'));
const WARM = 30;

const cpuSeconds = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks of 1/100 s
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function get(agent: http.Agent, url: string, encoding: string): Promise<{ ttfb: number; total: number; bytes: number; encoding?: string }> {
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
    const req = http.get(url, { agent, headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
      const ttfb = ms();
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => done({ ttfb, total: ms(), bytes, encoding: res.headers['content-encoding'] }));
      res.on('error', fail);
    });
    req.on('error', fail);
  });
}

async function measure(server: ServerProcess, path: string, encoding: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < WARM; i++) await get(agent, server.url + path, encoding);
  const cpu0 = cpuSeconds(server.proc.pid!);
  const runs = [];
  for (let i = 0; i < N; i++) runs.push(await get(agent, server.url + path, encoding));
  const cpu = ((cpuSeconds(server.proc.pid!) - cpu0) / N) * 1000;
  agent.destroy();
  return { ttfb: median(runs.map((r) => r.ttfb)), total: median(runs.map((r) => r.total)), bytes: runs[0].bytes, encoding: runs[0].encoding ?? 'identity', cpu };
}

function timeZlib(raw: Buffer, f: (b: Buffer) => Buffer) {
  const times: number[] = [];
  let size = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    size = f(raw).length;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: median(times), size };
}

const out = mkdtempSync(join(tmpdir(), 'watergate-bench-static-'));
const plain = mkdtempSync(join(tmpdir(), 'watergate-bench-static-plain-'));
const data = [mkdtempSync(join(tmpdir(), 'watergate-bench-static-data-')), mkdtempSync(join(tmpdir(), 'watergate-bench-static-data-'))];
const servers: ServerProcess[] = [];
try {
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  cpSync(out, plain, { recursive: true, filter: (f) => !/\.(br|gz)$/.test(f) });
  const load = avg();
  for (const [i, dir] of [out, plain].entries()) {
    const env = { CLIENT_DIR: dir, DATA_DIR: data[i], LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' };
    servers.push(await startServerProcess(env, await freePort(), 90_000, ROOT, { tsx: true }));
  }
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  const main = /<script type="module" crossorigin src="\.(\/assets\/[^"]+\.js)"/.exec(html)![1];
  const raw = readFileSync(join(out, main));
  const cases = [
    ['none (identity)', servers[0], ''],
    ['brotli, precompressed at build (quality 11)', servers[0], 'gzip, deflate, br'],
    ['gzip, precompressed at build (level 9)', servers[0], 'gzip'],
    ['brotli on the fly (koa-compress, quality 4)', servers[1], 'gzip, deflate, br'],
    ['gzip on the fly (koa-compress, level 6)', servers[1], 'gzip'],
  ] as const;
  const rows = [];
  for (const [what, server, enc] of cases) rows.push({ what, ...(await measure(server, main, enc)) });
  const br = (q: number) => (b: Buffer) => brotliCompressSync(b, { params: { [zlib.BROTLI_PARAM_QUALITY]: q, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: b.length } });
  const z = [
    ['brotli quality 11 (the build)', timeZlib(raw, br(11))],
    ['brotli quality 5', timeZlib(raw, br(5))],
    ['brotli quality 4 (on the fly)', timeZlib(raw, br(4))],
    ['gzip level 9 (the build)', timeZlib(raw, (b) => gzipSync(b, { level: 9 }))],
    ['gzip level 6 (on the fly)', timeZlib(raw, (b) => gzipSync(b, { level: 6 }))],
  ] as const;
  // The first load of the page: the HTML and every file it names (scripts, preloads, CSS, the font).
  const named = [...html.matchAll(/(?:src|href)="\.(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const size = (p: string, ext: string) => {
    try {
      return readFileSync(join(out, p + ext)).length;
    } catch {
      return readFileSync(join(out, p)).length;
    }
  };
  const first = ['/index.html', ...named];
  const firstRaw = first.reduce((n, p) => n + size(p, ''), 0);
  const firstBr = first.reduce((n, p) => n + size(p, '.br'), 0);
  const firstGz = first.reduce((n, p) => n + size(p, '.gz'), 0);
  const kb = (b: number) => (b / 1000).toFixed(1);
  const body = [
    '## Static files: compression (`npx tsx tools/bench-static.ts`)',
    `Measured ${today()} ${new Date().toISOString().slice(11, 16)} UTC on ${machine()} (load average at start ${load}); two server processes (\`server/main.ts\` under tsx, embedded storage) on loopback, ${N} sequential requests for the main script (\`${main.replace(/-[\w-]{8}\.js$/, '.js')}\`, ${kb(raw.length)} KB) over one kept-alive connection after ${WARM} to warm up; medians; CPU is the server process's (utime + stime from /proc, 10 ms ticks) divided by the requests.`,
    '',
    '| encoding asked and sent | bytes sent (KB) | time to first byte (ms) | time to last byte (ms) | server CPU per request (ms) |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.what} → ${r.encoding} | ${kb(r.bytes)} | ${r.ttfb.toFixed(2)} | ${r.total.toFixed(2)} | ${r.cpu.toFixed(2)} |`),
    '',
    `zlib alone on the same file (this process, median of 5):`,
    '',
    '| compression | ms | KB |',
    '|---|---:|---:|',
    ...z.map(([what, r]) => `| ${what} | ${r.ms.toFixed(1)} | ${kb(r.size)} |`),
    '',
    `The page's first load (index.html and the ${named.length} files it names: scripts, module preloads, CSS, the preloaded font): ${kb(firstRaw)} KB as built, ${kb(firstGz)} KB with gzip, **${kb(firstBr)} KB with brotli** (the font is woff2, already compressed, and sent as it is).`,
  ].join('\n');
  writeSection(join(ROOT, 'docs/BENCHMARKS.md'), 'static', body);
  console.log(body);
} finally {
  for (const s of servers) {
    s.proc.kill('SIGTERM');
    await s.exited;
  }
  for (const d of [out, plain, ...data]) rmSync(d, { recursive: true, force: true });
}

function avg(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' / ');
}
