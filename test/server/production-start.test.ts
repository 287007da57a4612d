/**
 * `npm start` as an operator meets it (scripts/start.mjs): on a checkout with no build it builds the
 * client and the server bundle, then serves from the bundle under plain Node; a second start builds
 * nothing. The bundle needs the production dependencies only: every package it imports is one of
 * package.json's dependencies (or theirs), and a copy of the build beside a node_modules holding only
 * the production packages (what `npm ci --omit=dev` installs, by package-lock.json) serves the page and
 * plays the computer's seat in its worker thread.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../tools/cluster';
import { builtClient } from '../e2e/helpers/build';
import { api, player, until } from './helpers';

const ROOT = resolve(import.meta.dirname, '../..');
// Inside the checkout: the bundle finds its packages in the node_modules above it, as dist/ does.
const DIST = join(ROOT, 'node_modules', '.cache', `watergate-start-test-${process.pid}`);
const temps: string[] = [DIST];
const procs: ChildProcess[] = [];

afterAll(() => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** Starts `node args` in `cwd` and waits for /healthz; every output line is kept. */
async function start(args: string[], cwd: string, env: Record<string, string>, ms = 240_000) {
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'watergate-start-data-'));
  temps.push(data);
  // Only what is given: no NODE_PATH, no CLIENT_DIR or DATABASE_URL from the test runner's environment.
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const proc = spawn(process.execPath, args, { cwd, env: { ...base, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: data, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(proc);
  const lines: string[] = [];
  for (const s of [proc.stdout!, proc.stderr!]) createInterface({ input: s }).on('line', (l) => lines.push(l));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + ms; ; ) {
    if (proc.exitCode !== null) throw new Error(`exited ${proc.exitCode} before listening:\n${lines.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`not listening after ${ms} ms:\n${lines.join('\n')}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    lines,
    async stop() {
      proc.kill('SIGTERM');
      return exited;
    },
  };
}

/** The page loads, and the computer (the Editor, in the bundle's worker thread) makes its first decision. */
async function servesAndPlays(url: string) {
  const page = await fetch(`${url}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<link rel="manifest"');
  const { matchID, humanSeat } = (await api(url, '/games/watergate/vs-computer', { botSeat: '0', level: 'easy' })).body;
  // Watched from before the human joins: the computer waits for them, then decides.
  const me = player(url, matchID, null);
  try {
    await until(() => me.state() !== null, 'the spectator synced', 30_000);
    const before = me.state()!._stateID;
    expect((await api(url, `/games/watergate/${matchID}/join`, { playerID: humanSeat, playerName: 'Ann' })).status).toBe(200);
    await until(() => me.state()!._stateID > before, 'the computer to decide', 60_000);
  } finally {
    me.stop();
  }
}

/** Bare package names a bundle imports or requires (node's own modules left out). */
function packagesOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const names = new Set<string>();
  for (const re of [/(?:\bfrom|\bimport)\s*\(?\s*["']([@\w][\w@./-]*)["']/g, /(?:\b|__)require\(\s*["']([@\w][\w@./-]*)["']\s*\)/g])
    for (const [, spec] of text.matchAll(re)) {
      if (spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0])) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  return names;
}

describe('npm start (scripts/start.mjs)', () => {
  it('on a checkout without a build: builds the client and the server, serves from the bundle and plays; a second start builds nothing', { timeout: 400_000 }, async () => {
    const first = await start(['scripts/start.mjs'], ROOT, { DIST_DIR: DIST });
    const built = first.lines.join('\n');
    expect(built).toContain('building the client');
    expect(built).toContain('building the server');
    for (const f of ['server/main.js', 'server/worker.js', 'client/index.html', 'client/sw.js']) expect(existsSync(join(DIST, f)), f).toBe(true);
    await servesAndPlays(first.url);
    expect(await first.stop()).toBe(0);

    const again = await start(['scripts/start.mjs'], ROOT, { DIST_DIR: DIST }, 60_000);
    expect(again.lines.join('\n')).not.toContain('building the');
    expect((await fetch(`${again.url}/`)).status).toBe(200);
    expect(await again.stop()).toBe(0);
  });

  it('the bundle needs the production dependencies only: what it imports is theirs, and it runs beside them alone', { timeout: 300_000 }, async () => {
    // Built by the test above; alone (-t), built here the same way.
    if (!existsSync(join(DIST, 'server', 'main.js'))) expect(spawnSync(process.execPath, ['--import', 'tsx', 'tools/server-bundle.ts', '--out', join(DIST, 'server')], { cwd: ROOT }).status).toBe(0);
    const client = existsSync(join(DIST, 'client', 'index.html')) ? join(DIST, 'client') : await builtClient();
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; dependencies?: Record<string, string> }> };
    // Ours, and those of boardgame.io (the one package built into the bundle).
    const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(lock.packages['node_modules/boardgame.io'].dependencies ?? {})]);
    // boardgame.io's FlatFile storage requires it in its constructor; we never make one.
    allowed.add('node-persist');
    for (const f of ['main.js', 'worker.js']) {
      const used = [...packagesOf(join(DIST, 'server', f))];
      expect(used.length, f).toBeGreaterThan(f === 'main.js' ? 10 : 0);
      expect(used.filter((p) => !allowed.has(p)), f).toEqual([]);
      for (const p of used) if (p !== 'node-persist') expect(lock.packages[`node_modules/${p}`]?.dev, p).not.toBe(true);
    }

    // A production machine: the build, package.json, and node_modules with the production packages only
    // (hard links of ours), outside the checkout so that nothing else can be found.
    const app = mkdtempSync(join(tmpdir(), 'watergate-prod-'));
    temps.push(app);
    cpSync(join(DIST, 'server'), join(app, 'dist', 'server'), { recursive: true });
    writeFileSync(join(app, 'package.json'), readFileSync(join(ROOT, 'package.json')));
    let copied = 0;
    for (const [key, entry] of Object.entries(lock.packages)) {
      if (!key.startsWith('node_modules/') || key.slice('node_modules/'.length).includes('node_modules/') || entry.dev) continue;
      if (!existsSync(join(ROOT, key))) continue; // an optional package for another platform
      mkdirSync(dirname(join(app, key)), { recursive: true });
      expect(spawnSync('cp', ['-al', join(ROOT, key), join(app, key)]).status, key).toBe(0);
      copied++;
    }
    expect(copied).toBeGreaterThan(50);
    for (const dev of ['vite', 'tsx', 'esbuild', 'vitest', 'vite-plugin-pwa']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);

    const prod = await start(['dist/server/main.js'], app, { CLIENT_DIR: client, SKIP_CLIENT_BUILD: '1' }, 60_000);
    await servesAndPlays(prod.url);
    expect(await prod.stop()).toBe(0);
  });
});
