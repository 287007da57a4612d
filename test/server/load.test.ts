/**
 * The load tool measures the server with its limits on: more matches than one address may create, each
 * from an address of its own in 127.0.0.0/8, played by load processes it starts itself, run without a
 * refusal or an error; its one JSON line carries the server's own figures (each phase of a move, the
 * event loop, GC, memory per match). When the server dies under it, it says what went wrong, by kind.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../server/limits';
import { parseArgs, runLoad, sourceAddress } from '../../tools/load/run';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { startTestServer, type TestServer } from './helpers';

/** `npm run load -- …` as an operator runs it: its standard output. */
function npmRunLoad(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'tools/load/run.ts', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    p.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`npm run load exited ${code}: ${out}`))));
  });
}

describe('npm run load against the limits as shipped', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { limits: { create: LIMITS.create, join: LIMITS.join, api: LIMITS.api } });
  });
  afterAll(async () => t?.stop());

  it('spreads its matches over source addresses and load processes, none refused, and prints one JSON line with the server figures', async () => {
    expect(new Set(Array.from({ length: 1000 }, (_, i) => sourceAddress(i))).size).toBe(1000);
    expect(sourceAddress(0)).toBe('127.1.0.1');
    expect(parseArgs(['--url', t.url, '--matches', '10000']).workers).toBe(10);
    expect(() => parseArgs(['--url', t.url, '--matches', '10001'])).toThrow(/--matches/);

    const matches = LIMITS.create.points + 5;
    const began = Date.now();
    const out = await npmRunLoad(['--url', t.url, '--matches', String(matches), '--seconds', '3', '--paced', '100,200', '--workers', '2', '--json']);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const r = JSON.parse(lines[0]);
    for (const field of ['matches', 'moves', 'movesPerSecond', 'p50', 'p95', 'p99', 'errors', 'refusals', 'errorsByKind', 'phases', 'eventLoop', 'gc', 'memory', 'loadLoop'])
      expect(r, field).toHaveProperty(field);
    // The generator's own event loop over the window: measured (a delay is never zero), and its max bounds its p99.
    expect(r.loadLoop.p99).toBeGreaterThan(0);
    expect(r.loadLoop.max).toBeGreaterThanOrEqual(r.loadLoop.p99);
    // Both sides' CPU over the window, in % of a core: the server moved and the clients chose.
    expect(r.cpu.server).toBeGreaterThan(0);
    expect(r.cpu.load).toBeGreaterThan(0);
    // Without --yield the load processes run at the priority they were started with (this test's), beside the server.
    expect(r.loadNice).toBe(getPriority());
    expect(r.matches).toBe(matches);
    // When the window began, to line it up with the server's logs: after the tool started, 3 s before it ended.
    expect(Date.parse(r.windowStart)).toBeGreaterThan(began);
    expect(Date.parse(r.windowStart)).toBeLessThan(Date.now() - 2500);
    expect(r.workers).toBe(2);
    expect(r.errors).toBe(0);
    expect(r.errorsByKind).toEqual({});
    expect(r.refusals['rate-limited']).toBeUndefined();
    expect(r.moves).toBeGreaterThan(matches);
    expect(r.p99).toBeGreaterThan(0);
    expect(r.metricsError).toBeUndefined();
    // Every phase of the server's moves over the window, about as many as the clients counted.
    for (const phase of ['queue', 'engine', 'commit', 'delivery', 'move']) {
      expect(r.phases[phase].count, phase).toBeGreaterThanOrEqual(r.moves * 0.5);
      expect(r.phases[phase].p99, phase).toBeGreaterThan(0);
      expect(r.phases[phase].p50, phase).toBeLessThanOrEqual(r.phases[phase].p99);
    }
    expect(r.eventLoop.max).toBeGreaterThanOrEqual(r.eventLoop.p99);
    expect(r.eventLoop.p99).toBeGreaterThan(0);
    expect(r.gc.pauses).toBeGreaterThanOrEqual(0);
    expect(r.gc.maxMs).toBeLessThanOrEqual(r.gc.totalMs);
    expect(r.memory.openMatches).toBeGreaterThanOrEqual(matches);
    expect(r.memory.rssMB).toBeGreaterThan(0);
    expect(r.memory.rssPerMatchKB === null || typeof r.memory.rssPerMatchKB === 'number').toBe(true);
    expect((await t.store.listMatches()).length).toBeGreaterThanOrEqual(matches);
  }, 60_000);

  it('plays against each address it is given, without a proxy, and reads and adds up each process\'s /metrics (a cluster: here two servers), its load processes yielding the cores when asked', async () => {
    expect(() => parseArgs(['--url', t.url, '--metrics', 'http://example.com:8000'])).toThrow(/--metrics/);
    expect(() => parseArgs(['--url', `${t.url},http://example.com:8000`])).toThrow(/--url/);
    // At least one load process per address.
    expect(parseArgs(['--url', `${t.url},${t.url}`, '--matches', '10']).workers).toBe(2);
    const other = await startTestServer('embedded', { limits: { create: LIMITS.create, join: LIMITS.join, api: LIMITS.api } });
    try {
      const both = `${t.url},${other.url}`;
      const before = [(await t.store.listMatches()).length, (await other.store.listMatches()).length];
      const r = await runLoad(parseArgs(['--url', both, '--metrics', both, '--matches', '4', '--seconds', '2', '--paced', '100,200', '--yield']));
      expect(r.errors).toBe(0);
      // --yield: every load process ran at the lowest priority (as the kernel told each).
      expect(r.loadNice).toBe(19);
      expect(r.workers).toBe(2);
      expect(r.processes).toHaveLength(2);
      const [a, b] = r.processes!;
      // Each server played its half: matches created there and moves answered there.
      expect((await t.store.listMatches()).length - before[0]).toBeGreaterThanOrEqual(2);
      expect((await other.store.listMatches()).length - before[1]).toBeGreaterThanOrEqual(2);
      expect(a.phases.move.count).toBeGreaterThan(0);
      expect(b.phases.move.count).toBeGreaterThan(0);
      // Histograms and memory add up; the event loop's worst is the worst process's.
      expect(r.phases!.move.count).toBe(a.phases.move.count + b.phases.move.count);
      expect(r.memory!.rssMB).toBeGreaterThanOrEqual(a.memory.rssMB + b.memory.rssMB - 1);
      expect(r.eventLoop!.max).toBe(Math.max(a.eventLoop.max, b.eventLoop.max));
      expect(r.cpu.server).toBeGreaterThan(0);
    } finally {
      await other.stop();
    }
  }, 60_000);

  it('stops counting when its window ends, before reading /metrics again: a server stalled after the window is not in its latencies', async () => {
    let stalled = 0;
    const r = await runLoad(parseArgs(['--url', t.url, '--matches', '6', '--seconds', '3', '--paced', '50,100']), {
      // Just after the window, this process (the server's) stops for 1.5 s: every move sent then waits.
      onWindowEnd: () =>
        void setImmediate(() => {
          const until = performance.now() + 1500;
          while (performance.now() < until);
          stalled++;
        }),
    });
    expect(stalled).toBe(1);
    expect(r.errors).toBe(0);
    expect(r.moves).toBeGreaterThan(20);
    // Counted, the moves caught in the stall would be well over a second at this p99.
    expect(r.p99).toBeLessThan(1000);
  }, 60_000);
});

describe('npm run load when the server dies under it', () => {
  let server: ServerProcess;
  const dir = mkdtempSync(join(tmpdir(), 'wg-load-'));
  afterAll(() => {
    server?.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts dropped sockets and refused connections by kind, and says it could not read /metrics', async () => {
    server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '' }, await freePort());
    const r = await runLoad(parseArgs(['--url', server.url, '--matches', '6', '--seconds', '3', '--paced', '100,200', '--workers', '2']), {
      onWindowStart: () => void setTimeout(() => server.proc.kill('SIGKILL'), 1000),
    });
    expect(r.moves).toBeGreaterThan(0);
    // 12 sockets in play dropped at once; each then fails to reconnect (nothing listens).
    expect(r.errorsByKind.disconnect).toBe(12);
    expect(r.errorsByKind['connect-refused']).toBeGreaterThanOrEqual(12);
    expect(r.errors).toBe(Object.values(r.errorsByKind).reduce((a, n) => a + n, 0));
    expect(r.metricsError).toMatch(/\/metrics could not be read/);
    expect(r.phases).toBeNull();
  }, 60_000);
});
