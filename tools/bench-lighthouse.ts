/**
 * Lighthouse's scores of the lobby and a match page against a running server (`npm start`), each page
 * `--runs` times (default 3; the median is reported, the host being shared). Lighthouse is not one of
 * the project's packages (12.x needs a newer Node than some hosts have for 13.x): install it in a scratch
 * folder and point LIGHTHOUSE at it (docs/BENCHMARKS.md, "Lighthouse"):
 *
 *   (mkdir -p /tmp/lh && cd /tmp/lh && npm i -E lighthouse@12.2.3)
 *   LIGHTHOUSE=/tmp/lh/node_modules/.bin/lighthouse npx tsx tools/bench-lighthouse.ts --url http://127.0.0.1:8000
 *
 * Mobile defaults (simulated slow 4G, 4× CPU slowdown). The match page shows a match in progress with
 * both seats taken (made through the Lobby API), as a visitor without a seat sees it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const url = arg('url', 'http://127.0.0.1:8000').replace(/\/$/, '');
const runs = Number(arg('runs', '3'));
const LIGHTHOUSE = process.env.LIGHTHOUSE || '/tmp/lh/node_modules/.bin/lighthouse';
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';

async function post(path: string, body: unknown): Promise<Record<string, string>> {
  const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, string>;
}

const { matchID } = await post('/games/watergate/create', { numPlayers: 2 });
await post(`/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Woodward' });
await post(`/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Nixon' });

const pages = { lobby: `${url}/#/`, match: `${url}/#/match/${matchID}` };
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'] as const;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const [name, page] of Object.entries(pages)) {
  const results: { scores: number[]; metrics: number[] }[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'wg-lh-'));
    const out = join(dir, 'report.json');
    try {
      execFileSync(LIGHTHOUSE, [page, `--only-categories=${CATEGORIES.join(',')}`, '--output=json', `--output-path=${out}`, '--quiet', '--chrome-flags=--headless=new --no-sandbox'], {
        env: { ...process.env, CHROME_PATH: CHROME },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const r = JSON.parse(readFileSync(out, 'utf8')) as { categories: Record<string, { score: number }>; audits: Record<string, { numericValue: number }> };
      results.push({ scores: CATEGORIES.map((c) => Math.round(r.categories[c].score * 100)), metrics: METRICS.map((m) => r.audits[m].numericValue) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const scores = CATEGORIES.map((c, i) => `${c} ${median(results.map((r) => r.scores[i]))} (${results.map((r) => r.scores[i]).join('/')})`);
  const metrics = METRICS.map((m, i) => `${m} ${m === 'cumulative-layout-shift' ? median(results.map((r) => r.metrics[i])).toFixed(3) : Math.round(median(results.map((r) => r.metrics[i])))}`);
  console.log(`${name}: ${scores.join(', ')}\n  medians: ${metrics.join(', ')}`);
}
