/**
 * `npm run bench:analysis [-- --seed N] [--no-write]`: how long the replay's analysis takes per decision,
 * with its budget (protocol/analysis.ts), on one whole game played by our easy bot on both seats.
 * Side by side in one run: Node on this machine (the baseline), Debian's Chromium running the page's Web
 * Worker (bots/browser.ts), and the same worker with the iteration budget lifted, so that only the time cap
 * ends each search — what a device too slow for the iterations gets. No phone is at hand: DevTools' CPU
 * throttling slows a page's main thread but a worker only in part (1.5× for 4× here), so a phone is
 * estimated from the measured searches instead (each decision's search time × PHONE, then capped).
 * Writes its section of docs/BOTS.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview } from 'vite';
import { chromium } from 'playwright-core';
import { newGame, playerView } from '../game';
import { botRng, review, think, type Review } from '../bots/index';
import type { ReviewTask } from '../bots/browser';
import { ANALYSIS_BUDGET } from '../protocol/analysis';
import { machine, writeSection } from './machine';
import { engineDriver, playout, type Chooser } from './playout';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const SEED = Number(args[args.indexOf('--seed') + 1] || 1);
const WRITE = !args.includes('--no-write');
/** How much slower than this machine's Chromium a phone is taken to be (mid-range phones run JavaScript 4–5× slower than a desktop). */
const PHONE = 5;

/** One game of our easy bot against itself: every decision as the replay page hands it to the worker. */
function game(seed: number): ReviewTask[] {
  const rng = botRng(seed);
  const tasks: ReviewTask[] = [];
  const G = newGame({}, rng); // the engine driver plays on this very object
  const chooser: Chooser = (moves, p) => {
    const view = playerView(G, p);
    const played = moves.length === 1 ? moves[0] : think(view, { level: 'easy', deterministic: true, seed }).move;
    tasks.push({ view, played });
    return played;
  };
  for (const step of playout(engineDriver(rng), G, chooser, { maxRounds: 30 })) void step;
  return tasks;
}

interface Row {
  setting: string;
  reviews: Review[];
  /** Each judged decision's time as its caller saw it. */
  wall: number[];
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const median = (xs: number[]) => quantile(xs, 0.5);

async function inChromium(tasks: ReviewTask[]): Promise<Row[]> {
  const root = join(ROOT, 'tools/bench-analysis');
  const out = mkdtempSync(join(tmpdir(), 'wg-bench-analysis-'));
  await build({ root, configFile: false, logLevel: 'silent', base: './', build: { outDir: out, emptyOutDir: true, target: 'es2022' } });
  const server = await preview({ root, configFile: false, logLevel: 'silent', build: { outDir: out }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const rows: Row[] = [];
    const runs = [
      { setting: 'Chromium, Web Worker', config: {} },
      { setting: `Chromium, time cap only (${ANALYSIS_BUDGET.timeMs / 1000} s, iterations unbounded)`, config: { iterations: 1e9 } },
    ];
    for (const { setting, config } of runs) {
      const page = await browser.newPage();
      await page.goto(server.resolvedUrls!.local[0]);
      await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
      const got = await page.evaluate(([t, c]) => (window as never as { analyse: (t: unknown, c: unknown) => Promise<{ reviews: Review[]; wall: number[] }> }).analyse(t, c), [tasks, config] as const);
      rows.push({ setting, ...got });
      await page.close();
    }
    return rows;
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
    rmSync(out, { recursive: true, force: true });
  }
}

const tasks = game(SEED);
const load = loadavg().map((l) => l.toFixed(1)).join(' / ');
const started = new Date().toISOString().slice(0, 16).replace('T', ' ');
const node: Row = { setting: 'Node (this machine, baseline)', reviews: [], wall: [] };
for (const t of tasks) {
  const t0 = performance.now();
  node.reviews.push(review(t.view, t.played));
  node.wall.push(performance.now() - t0);
}
const rows = [node, ...(await inChromium(tasks))];

const judged = (r: Row) => r.reviews.flatMap((x, i) => (x.forced ? [] : [{ ms: r.wall[i], it: x.iterations, search: x.elapsedMs }]));
const base = median(judged(node).map((j) => j.ms));
const lines = rows.map((r) => {
  const j = judged(r);
  const ms = j.map((x) => x.ms);
  const total = r.wall.reduce((a, b) => a + b, 0) / 1000;
  const rate = median(j.map((x) => (1000 * x.it) / x.search));
  return `| ${r.setting} | ${j.length} | ${median(ms).toFixed(0)} ms | ${quantile(ms, 0.95).toFixed(0)} ms | ${Math.max(...ms).toFixed(0)} ms | ${(median(ms) / base).toFixed(2)} | ${median(j.map((x) => x.it)).toLocaleString('en')} | ${Math.round(rate).toLocaleString('en')} | ${total.toFixed(1)} s |`;
});
const forced = node.reviews.filter((r) => r.forced).length;
// The phone: each of the browser's judged searches PHONE× longer, up to the cap; the worker's messages as measured.
const browserRow = rows[1];
const phone = judged(browserRow).map((j) => Math.min(j.search * PHONE, ANALYSIS_BUDGET.timeMs) + (j.ms - j.search));
const capRow = judged(rows[2]);
const body = [
  `Machine: ${machine()}.`,
  `Run ${started} UTC \`npm run bench:analysis -- --seed ${SEED}\` (load average at start ${load}); the machine was shared with other jobs, so times are upper bounds.`,
  '',
  `One game of our easy bot against itself (seed ${SEED}): ${tasks.length} decisions, ${forced} of them forced (one legal move: no search). Budget per decision: ${ANALYSIS_BUDGET.iterations.toLocaleString('en')} iterations or ${ANALYSIS_BUDGET.timeMs / 1000} s, whichever ends first. Per judged decision, as the caller saw it (the worker's messages included):`,
  '',
  '| where | judged decisions | median | p95 | max | median ÷ Node median | iterations (median) | iterations/s (median) | whole game |',
  '|---|---|---|---|---|---|---|---|---|',
  ...lines,
  '',
  `With only the time cap, the slowest decision took ${Math.max(...capRow.map((j) => j.ms)).toFixed(0)} ms from request to answer (median ${median(capRow.map((j) => j.ms)).toFixed(0)} ms): however slow the device, a decision ends within the cap and the worker's messages.`,
  `A phone ${PHONE}× slower than this Chromium (an estimate, not a measurement: each search above × ${PHONE}, capped at ${ANALYSIS_BUDGET.timeMs / 1000} s): median ${median(phone).toFixed(0)} ms, p95 ${quantile(phone, 0.95).toFixed(0)} ms, max ${Math.max(...phone).toFixed(0)} ms per judged decision, ${(phone.reduce((a, b) => a + b, 0) / 1000).toFixed(0)} s for the whole game; ${phone.filter((x) => x >= ANALYSIS_BUDGET.timeMs).length} of ${phone.length} decisions would reach the cap (fewer iterations there).`,
].join('\n');
console.log(body);
if (WRITE) writeSection(join(ROOT, 'docs/BOTS.md'), 'bots-analysis', body);
