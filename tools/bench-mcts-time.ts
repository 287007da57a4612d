/**
 * `NODE_ENV=production npx tsx tools/bench-mcts-time.ts [--positions N] [--local I:D,…] [--panel I:D,…] [--no-write]`
 *
 * Time per decision of boardgame.io's MCTSBot where developers meet it, on N decision points of seeded
 * random games (boardgame.io states, as local play has them), each bot at each setting
 * (iterations:playoutDepth):
 * - `Local({ bots })`: `watergateMCTSBot` (bots/bgio.ts), its play() on the full state;
 * - the Debug panel's AI tab: the stock MCTSBot with the local page's enumerate and its sliced search
 *   (client/local/debugAI.ts, the same code the page runs; in a browser each slice also waits for the
 *   page's next task).
 * Wall time and this process's CPU time per decision (median, p95): on a shared machine the CPU time is
 * what a decision costs, the wall time what it took then (the load average is printed with them).
 * `--page URL` (a running server or `vite preview` of the build) also times the panel in Chromium as a
 * developer sees it: from the AI tab's "play" key to the board showing the move, PRESSES times at the
 * local page's setting and 4 times at the stock one.
 * Writes the `bots-mcts-time` section of docs/BOTS.md. NODE_ENV=production: boardgame.io's reducer
 * skips its development checks, as in a built page.
 */
import { loadavg } from 'node:os';
import { MCTSBot } from 'boardgame.io/ai';
import type { Game, State } from 'boardgame.io';
import { Watergate, type WatergateState } from '../game';
import { MCTS_DEFAULTS, watergateMCTSBot } from '../bots/bgio';
import { botRng } from '../bots/index';
import { debugRunner, installSlicedSearch, PANEL_SETTINGS } from '../client/local/debugAI';
import type { GameClientInstance } from '../client/net/GameClient';
import { machine, option, today, writeSection } from './machine';
import { initialState, playout, randomChooser, reducerDriver } from './playout';

const N = Number(option('positions', '36'));
const parse = (s: string) => (s ? s.split(',').map((x) => x.split(':').map(Number) as [number, number]) : []);
const LOCAL = parse(option('local', `200:40,100:20,${MCTS_DEFAULTS.iterations}:${MCTS_DEFAULTS.playoutDepth}`));
const PANEL = parse(option('panel', `1000:50,${PANEL_SETTINGS.iterations}:${PANEL_SETTINGS.playoutDepth}`));
/** The stock setting takes seconds a decision: measured on the first few positions only. */
const STOCK_POSITIONS = 6;
const WRITE = !process.argv.includes('--no-write');
const PAGE = option('page', '');
const PRESSES = 24;

/** Decision points with a real choice, spread over seeded games (every 7th decision of each). */
function positions(): State<WatergateState>[] {
  const out: State<WatergateState>[] = [];
  for (let seed = 1; out.length < N; seed++) {
    const rng = botRng(seed * 131);
    for (const { state, moves, n } of playout(reducerDriver(Watergate), initialState(Watergate, `mcts-time-${seed}`), randomChooser(rng), { maxMoves: 30 + seed * 11 }))
      if (n % 7 === 3 && moves.length > 1 && out.length < N) out.push(state);
  }
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Row {
  who: string;
  wall: number[];
  cpu: number[];
}

/** `prepare` runs before each decision, outside its time. */
async function measure(who: string, states: State<WatergateState>[], decide: (s: State<WatergateState>, i: number) => Promise<unknown>, prepare = async (_s: State<WatergateState>) => {}): Promise<Row> {
  const row: Row = { who, wall: [], cpu: [] };
  for (const [i, s] of states.entries()) {
    await prepare(s);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const answer = (await decide(s, i)) as { action?: unknown };
    row.wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    row.cpu.push((c.user + c.system) / 1000);
    if (!answer?.action) throw new Error(`${who}: no move at position ${i}`);
    process.stdout.write('.');
  }
  console.log(` ${who}: wall median ${secs(pct(row.wall, 0.5))}, p95 ${secs(pct(row.wall, 0.95))}; cpu median ${secs(pct(row.cpu, 0.5))}, p95 ${secs(pct(row.cpu, 0.95))}`);
  return row;
}

const playerOf = (s: State) => (s.ctx.activePlayers ? Object.keys(s.ctx.activePlayers)[0] : s.ctx.currentPlayer);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' / ');
const startLoad = load();
const states = positions();
const rows: Row[] = [];
const enumerate = Watergate.ai!.enumerate;

const mark = (i: number, d: number, own: { iterations: number; playoutDepth: number }, name: string) => (i === own.iterations && d === own.playoutDepth ? ` (${name})` : i === 1000 && d === 50 ? ' (stock)' : '');
for (const [iterations, playoutDepth] of LOCAL) {
  const Bot = watergateMCTSBot({ iterations, playoutDepth });
  const who = `\`Local({ bots })\`: watergateMCTSBot ${iterations} iterations, depth ${playoutDepth}${mark(iterations, playoutDepth, MCTS_DEFAULTS, 'default')}`;
  rows.push(await measure(who, states, (s, i) => new Bot({ game: Watergate as Game, enumerate, seed: i }).play(s, playerOf(s))));
}

// The panel's bot: the page's runner, attached to a stand-in for the page's client whose store holds the position.
installSlicedSearch();
let current: State | null = null;
const page = { store: { getState: () => current } } as unknown as GameClientInstance;
const runner = debugRunner(() => null);
const panelGame = { ...Watergate, ai: { enumerate: runner.enumerate } } as Game;
for (const [iterations, playoutDepth] of PANEL) {
  const who = `Debug panel's AI tab: MCTSBot ${iterations} iterations, depth ${playoutDepth}${mark(iterations, playoutDepth, PANEL_SETTINGS, "the local page's")}`;
  rows.push(
    await measure(
      who,
      iterations >= 500 ? states.slice(0, STOCK_POSITIONS) : states,
      (s, i) => new MCTSBot({ game: panelGame, enumerate: runner.enumerate, seed: i, iterations, playoutDepth }).play(s, playerOf(s)),
      async (s) => {
        current = s;
        runner.attach(page);
        await sleep(100); // the runner refuses a search right after a change (a second loop's step)
      },
    ),
  );
}

/** Press "play" in the page's Debug panel and time it until the board shows another state. */
async function pageRows(url: string): Promise<Row[]> {
  const { launch } = await import('../test/e2e/helpers/browser');
  const session = await launch();
  const ctx = await session.context({ width: 1366, height: 900 });
  const tab = await ctx.newPage();
  await tab.goto(`${url}/#/local`);
  await tab.locator('.prompt.mine').waitFor();
  await tab.locator('section.debug-panel').getByRole('button', { name: 'AI', exact: true }).click();
  await tab.waitForFunction(`document.getElementById('ai-option-iterations')?.value === '${PANEL_SETTINGS.iterations}'`);
  const slider = (k: string, v: number) => tab.evaluate(`(() => { const i = document.getElementById('ai-option-${k}'); i.value = '${v}'; i.dispatchEvent(new Event('change')); })()`);
  const sig = `document.querySelectorAll('.record-lines li').length + '|' + document.querySelector('.prompt')?.dataset.prompt + '|' + document.querySelector('.game')?.dataset.phase`;
  const rows: Row[] = [];
  for (const [iterations, playoutDepth, presses] of [[PANEL_SETTINGS.iterations, PANEL_SETTINGS.playoutDepth, PRESSES], [1000, 50, 4]]) {
    await slider('iterations', iterations);
    await slider('playoutDepth', playoutDepth);
    const row: Row = { who: `Debug panel in Chromium (the build), "play" to the board's change: ${iterations} iterations, depth ${playoutDepth}${mark(iterations, playoutDepth, PANEL_SETTINGS, "the local page's")}`, wall: [], cpu: [] };
    for (let i = 0; i < presses; i++) {
      await sleep(200); // past the runner's 90 ms after a change
      const before = await tab.evaluate(sig);
      await tab.evaluate('document.activeElement?.blur()');
      const t0 = performance.now();
      await tab.keyboard.press('2');
      await tab.waitForFunction(`(${sig}) !== ${JSON.stringify(before)}`, undefined, { polling: 'raf', timeout: 120_000 });
      row.wall.push(performance.now() - t0);
      process.stdout.write('.');
    }
    console.log(` ${row.who}: median ${secs(pct(row.wall, 0.5))}, p95 ${secs(pct(row.wall, 0.95))}`);
    rows.push(row);
  }
  await session.close();
  return rows;
}
if (PAGE) rows.push(...(await pageRows(PAGE)));

const cell = (xs: number[], p: number) => (xs.length ? secs(pct(xs, p)) : '–');
const body = [
  '### MCTSBot time per decision',
  '',
  `${today()}, ${machine()}; \`NODE_ENV=production npx tsx ${['tools/bench-mcts-time.ts', ...process.argv.slice(2)].join(' ')}\`, load average at start ${startLoad}, at the end ${load()}.`,
  `${states.length} decision points of seeded random games (settings of 500 iterations or more: the first ${STOCK_POSITIONS} only). CPU time is this process's per decision (what a decision costs on a free core); wall time is what it took on the machine as loaded then${PAGE ? '; in Chromium, from the key press to the board showing the move (no CPU time: the page is another process)' : ''}.`,
  '',
  '| bot and setting | decisions | CPU median | CPU p95 | wall median | wall p95 |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.who} | ${r.wall.length} | ${cell(r.cpu, 0.5)} | ${cell(r.cpu, 0.95)} | ${cell(r.wall, 0.5)} | ${cell(r.wall, 0.95)} |`),
].join('\n');
console.log(body);
if (WRITE) writeSection('docs/BOTS.md', 'bots-mcts-time', body);
