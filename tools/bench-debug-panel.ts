/**
 * `tsx tools/bench-debug-panel.ts BASELINE_URL URL [RUNS] [SECONDS]`: the Debug panel's "simulate" in local
 * mode (#/local, 1366 × 900, the page's own settings: 50 iterations, playout depth 20), side by side on two
 * running servers (e.g. one serving the client built from an earlier commit, one from this one), runs
 * alternating. For each run: the moves made in SECONDS, the long tasks seen (PerformanceObserver
 * 'longtask': count, median, longest) and the console errors. Writes its section of docs/BENCHMARKS.md.
 */
import { launch } from '../test/e2e/helpers/browser';
import { machine, today, writeSection } from './machine';

const [baseline, current, runsArg, secondsArg] = process.argv.slice(2);
if (!baseline || !current) throw new Error('usage: tsx tools/bench-debug-panel.ts BASELINE_URL URL [RUNS] [SECONDS]');
const RUNS = Number(runsArg ?? 3);
const SECONDS = Number(secondsArg ?? 20);

interface Run {
  moves: number;
  tasks: number[];
  errors: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)];
};

const session = await launch();
async function once(url: string): Promise<Run> {
  const ctx = await session.context({ width: 1366, height: 900 });
  await ctx.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await ctx.newPage();
  const errors = session.problems.length;
  await page.goto(`${url}/#/local`);
  await page.locator('.prompt.mine').waitFor();
  await page.locator('section.debug-panel').getByRole('button', { name: 'AI', exact: true }).click();
  await page.waitForFunction(() => (document.getElementById('ai-option-iterations') as HTMLInputElement | null)?.value === '50');
  const before = await page.locator('.record-lines li').count();
  await page.evaluate(() => {
    (window as unknown as { longTasks: number[] }).longTasks.length = 0;
    (document.activeElement as HTMLElement | null)?.blur();
  });
  await page.keyboard.press('3');
  await page.waitForTimeout(SECONDS * 1000);
  const run = {
    moves: (await page.locator('.record-lines li').count()) - before,
    tasks: await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.slice()),
    errors: session.problems.length - errors,
  };
  await ctx.close();
  return run;
}

const results: Record<'baseline' | 'current', Run[]> = { baseline: [], current: [] };
for (let i = 0; i < RUNS; i++) {
  results.baseline.push(await once(baseline));
  results.current.push(await once(current));
}
await session.close();

const row = (name: string, runs: Run[]) => {
  const tasks = runs.flatMap((r) => r.tasks);
  return `| ${name} | ${median(runs.map((r) => r.moves))} | ${median(runs.map((r) => r.tasks.length))} | ${Math.round(median(tasks))} | ${Math.round(median(runs.map((r) => Math.max(0, ...r.tasks))))} | ${Math.round(Math.max(0, ...tasks))} | ${runs.reduce((n, r) => n + r.errors, 0)} |`;
};
const body = `## Debug panel's "simulate" (\`tsx tools/bench-debug-panel.ts\`)
Measured ${today()} on ${machine()}; Chromium (Debian), #/local at 1366 × 900, the page's settings (50 iterations, playout depth 20), ${SECONDS} s of "simulate" per run, ${RUNS} runs each, alternating. Baseline: ${process.env.BASELINE_LABEL ?? baseline}; this: ${process.env.LABEL ?? current}.

| client | moves per run (median) | long tasks per run (median) | long task, median ms | longest per run, median ms | longest of all, ms | console errors, all runs |
|---|---:|---:|---:|---:|---:|---:|
${row('baseline', results.baseline)}
${row('this', results.current)}
`;
console.log(body);
writeSection('docs/BENCHMARKS.md', 'debug-panel', body);
