/**
 * `npm run bench:bots [-- --games N] [--first I] [--missing] [--only random,mcts,self,balance,levels,expert-vs-hard] [--mcts-ms T] [--variant V] [--no-write]`
 *
 * Measures the bots and writes the results into docs/BOTS.md and docs/BALANCE.md (between
 * `<!-- bots-NAME:start/end -->` markers, so runs of different parts can be combined):
 * - levels: think time p50/p95 and iterations/s of easy/normal/hard (time caps on) on fixed positions;
 * - random: our bot (hard, iteration budget only) vs boardgame.io's RandomBot, N games per seat;
 * - mcts:   our bot vs boardgame.io's MCTSBot (our subclass; it sees the full state), both searching
 *           T ms per decision, N games per seat;
 * - self:   our bot (hard) vs itself, N games (also the balance at level hard);
 * - balance: our bot (normal) vs itself, 2N games: Editor win rate, rounds, how games end;
 * - <level>-vs-hard (e.g. expert-vs-hard, only when asked for): that level against hard, both with
 *   iteration budgets only, N games per seat; with the calibration of both bots' win-chance estimates.
 * `--variant V` (with self or balance) patches the components as the proposal V of
 * tools/balance-variants.ts, in this process only; its games and sections are its own.
 * All games run through boardgame.io's reducer (bots/arena.ts) with seeded matches. Each game is also
 * stored in docs/bots-data/<series>.jsonl and the tables count every stored game of the series, so a
 * long measurement can be split: `--first 50 --games 50` plays games 50–99 and adds them to 0–49, and
 * `--games 0` plays none and rewrites the sections from what is stored; `--missing` plays, of games
 * FIRST..FIRST+N-1, only the games and seats not stored yet (a run stopped halfway resumes where it was).
 */
import fs from 'node:fs';
import { loadavg } from 'node:os';
import { RandomBot } from 'boardgame.io/ai';
import cliProgress from 'cli-progress';
import { newGame, playerView, type PlayerID } from '../game';
import { playMatch, type BotClass, type MatchResult } from '../bots/arena';
import { watergateBot, watergateMCTSBot } from '../bots/bgio';
import { botRng, LEVELS, think, type BotConfig, type Level } from '../bots/index';
import { isLevel, LEVEL_NAMES } from '../protocol/index';
import { reliabilityTable, wilson, type Forecast } from './calibration';
import { applyVariant } from './balance-variants';
import { machine, option as opt, today, writeSection } from './machine';
import { engineDriver, playout, randomChooser } from './playout';

const args = process.argv.slice(2);
const GAMES = Number(opt('games', '100'));
const ONLY = opt('only', 'levels,random,mcts,self,balance').split(',');
/** Levels measured against hard (`--only expert-vs-hard`). */
const VS_HARD = ONLY.map((o) => /^(.+)-vs-hard$/.exec(o)?.[1]).filter((l): l is Level => l !== undefined && isLevel(l) && l !== 'hard');
const MCTS_MS = Number(opt('mcts-ms', '250'));
const WRITE = !args.includes('--no-write');
/** Skip the games (index and seat) already stored for the series. */
const MISSING = args.includes('--missing');
const VARIANT = opt('variant', '');
/** Index of the first game: a later run with --first N plays new seeded games that add to an earlier run's. */
const FIRST = Number(opt('first', '0'));
const VARIANT_TEXT = VARIANT ? applyVariant(VARIANT) : '';
if (!Number.isInteger(GAMES) || GAMES < 0) throw new Error('--games must be a whole number (0: play none, rewrite the sections from the stored games)');
if (GAMES === 0 && (!WRITE || ONLY.includes('levels'))) throw new Error('--games 0 rewrites the sections of random, mcts, self or balance from docs/bots-data: not with --no-write or levels');
if (!Number.isInteger(FIRST) || FIRST < 0) throw new Error('--first must be a game index (0 or more)');
if (ONLY.some((o) => o.endsWith('-vs-hard') && !VS_HARD.some((l) => o === `${l}-vs-hard`))) throw new Error(`--only <level>-vs-hard takes a level other than hard: ${LEVEL_NAMES.filter((l) => l !== 'hard').join(', ')}`);
if (VARIANT && ONLY.some((o) => o !== 'balance' && o !== 'self')) throw new Error('--variant changes the components: use it with --only balance or --only self');
/** A proposal's series, sections and seeds are its own, so before and after stand side by side. */
const variantSuffix = VARIANT ? `-${VARIANT}` : '';

const HARD: BotConfig = { level: 'hard', deterministic: true };
const ROLE: Record<PlayerID, string> = { '0': 'Editor', '1': 'Nixon' };

const pct = (k: number, n: number) => (n === 0 ? '–' : `${((100 * k) / n).toFixed(1)}%`);
const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '–');

/**
 * Each searched decision's think time (ms), iterations and — in series stored since the expert level —
 * the decider's estimated chance to win (for the calibration). (Rows stored before 2026-11-30 11:30 also
 * carry totals, unused.)
 */
interface Think {
  times: number[];
  its: number[];
  est?: number[];
}
const newThink = (): Think => ({ times: [], its: [], est: [] });
function record(t: Think, msTaken: number, metadata: unknown) {
  const m = metadata as { iterations?: number; visits?: number; winChance?: number } | undefined;
  const its = m?.iterations ?? m?.visits ?? 0;
  if (its === 0) return; // a forced move: nothing to search
  t.times.push(Math.round(msTaken * 10) / 10);
  t.its.push(its);
  if (typeof m?.winChance === 'number') t.est?.push(Math.round(m.winChance * 1e4) / 1e4);
}

interface Series {
  results: MatchResult[];
  wins: Record<PlayerID, number>;
  games: Record<PlayerID, number>;
  ours: Think;
  theirs: Think;
  /** The runs (stamp and games) the games came from. */
  runs: string[];
}

/**
 * One finished game as kept in `docs/bots-data/<series>.jsonl`. Every game a run plays is appended
 * there, and the tables are computed from every game stored for the series: runs split with `--first`
 * (in parallel processes or in later sessions) add up instead of overwriting each other. A game played
 * again (same index and seat) replaces its earlier line; the games are seeded, so it is the same game.
 */
interface GameRow {
  game: number;
  seat: PlayerID;
  result: MatchResult;
  ours: Think;
  theirs: Think;
  run: string;
}
const DATA_DIR = 'docs/bots-data';
const dataFile = (series: string) => `${DATA_DIR}/${series}.jsonl`;

function loadRows(series: string): Map<string, GameRow> {
  const rows = new Map<string, GameRow>();
  if (!fs.existsSync(dataFile(series))) return rows;
  for (const line of fs.readFileSync(dataFile(series), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as GameRow;
    rows.set(`${row.game}/${row.seat}`, row);
  }
  return rows;
}

function addThink(into: Think, t: Think) {
  into.times.push(...t.times);
  into.its.push(...t.its);
}

/** Every stored estimate of one side of a series, with whether that side won its game. */
function forecasts(rows: Iterable<GameRow>, side: 'ours' | 'theirs'): Forecast[] {
  const out: Forecast[] = [];
  for (const row of rows) {
    if (row.result.aborted) continue;
    const seat = side === 'ours' ? row.seat : row.seat === '0' ? '1' : '0';
    for (const p of row[side].est ?? []) out.push({ p, won: row.result.winner === seat });
  }
  return out;
}

function summarize(rows: Iterable<GameRow>): Series {
  const s: Series = { results: [], wins: { '0': 0, '1': 0 }, games: { '0': 0, '1': 0 }, ours: newThink(), theirs: newThink(), runs: [] };
  const runs = new Map<string, number[]>();
  for (const row of rows) {
    s.results.push(row.result);
    if (!row.result.aborted) s.games[row.seat]++;
    if (row.result.winner === row.seat) s.wins[row.seat]++;
    addThink(s.ours, row.ours);
    addThink(s.theirs, row.theirs);
    runs.set(row.run, [...(runs.get(row.run) ?? []), row.game]);
  }
  for (const [run, games] of runs) s.runs.push(`${run} (games ${Math.min(...games)}–${Math.max(...games)})`);
  return s;
}

/**
 * Plays games FIRST..FIRST+perSeat-1 with `ours` in each seat listed (progress on the bar), stores each
 * game in the series' data file, and returns the summary of every game stored for the series.
 */
async function series(name: string, file: string, ours: BotClass, theirs: BotClass, perSeat: number, seats: PlayerID[], bars: cliProgress.MultiBar): Promise<Series> {
  const rows = new Map<string, GameRow>();
  const run = runStamp();
  const label = VARIANT ? `${name} (${VARIANT})` : name;
  const stored = MISSING ? loadRows(file) : new Map<string, GameRow>();
  const plan: [number, PlayerID][] = [];
  for (let g = FIRST; g < FIRST + perSeat; g++) for (const seat of seats) if (!stored.has(`${g}/${seat}`)) plan.push([g, seat]);
  const bar = plan.length > 0 ? bars.create(plan.length, 0, { name: label, unit: 'games', wins: '' }) : null;
  const wins = { '0': 0, '1': 0 }, games = { '0': 0, '1': 0 };
  if (WRITE) fs.mkdirSync(DATA_DIR, { recursive: true });
  for (const [g, seat] of plan) {
    const other: PlayerID = seat === '0' ? '1' : '0';
    const row: GameRow = { game: g, seat, result: undefined as unknown as MatchResult, ours: newThink(), theirs: newThink(), run };
    row.result = await playMatch({
      seats: { [seat]: ours, [other]: theirs } as Record<PlayerID, BotClass>,
      // The seed names the series without the proposal: game g of a proposal starts from the same
      // shuffle as game g of the components as they are, so before and after are paired.
      seed: `bench/${name}/${g}`,
      onDecision: (p, t, md) => record(p === seat ? row.ours : row.theirs, t, md),
    });
    rows.set(`${g}/${seat}`, row);
    if (WRITE) fs.appendFileSync(dataFile(file), `${JSON.stringify(row)}\n`);
    if (!row.result.aborted) games[seat]++;
    if (row.result.winner === seat) wins[seat]++;
    bar?.increment(1, { wins: `Editor ${wins['0']}/${games['0']}  Nixon ${wins['1']}/${games['1']}` });
    // The searches are synchronous: give the bars' redraw timer a turn between games.
    await new Promise((r) => setTimeout(r, 0));
  }
  // Read the file again: a run of other games of the series may have added to it meanwhile.
  const all = WRITE ? loadRows(file) : rows;
  if (all.size === 0) throw new Error(`no games stored in ${dataFile(file)}`);
  return summarize([...all.values()].sort((a, b) => a.game - b.game || a.seat.localeCompare(b.seat)));
}

/**
 * Think time and search speed over the decisions that were searched. Speed is the median of each
 * decision's own rate: a search that reaches the end of the game in one move (boardgame.io's MCTSBot
 * then loops over a finished state a million times) would otherwise swamp the mean.
 */
const THINK_HEADER = '| think time | decisions | p50 | p95 | iterations per decision (median) | iterations/s (median) |\n|---|---|---|---|---|---|';
function thinkRow(label: string, t: Think) {
  const rates = t.its.map((n, i) => (n * 1000) / Math.max(t.times[i], 0.1));
  return `| ${label} | ${t.times.length} | ${ms(quantile(t.times, 0.5))} | ${ms(quantile(t.times, 0.95))} | ${quantile(t.its, 0.5).toLocaleString('en')} | ${Math.round(quantile(rates, 0.5)).toLocaleString('en')} |`;
}

function winTable(s: Series, who: string) {
  const lines = ['| our bot plays | games | wins | win rate | 95% interval |', '|---|---|---|---|---|'];
  for (const seat of ['0', '1'] as PlayerID[]) if (s.games[seat] > 0) lines.push(`| ${ROLE[seat]} vs ${who} | ${s.games[seat]} | ${s.wins[seat]} | ${pct(s.wins[seat], s.games[seat])} | ${wilson(s.wins[seat], s.games[seat])} |`);
  const n = s.games['0'] + s.games['1'], k = s.wins['0'] + s.wins['1'];
  lines.push(`| both seats | ${n} | ${k} | **${pct(k, n)}** | ${wilson(k, n)} |`);
  const aborted = s.results.filter((r) => r.aborted).length;
  if (aborted) lines.push('', `${aborted} game(s) hit the 60-round limit and count as aborted (K14).`);
  return lines.join('\n');
}

function balanceTable(results: MatchResult[]) {
  const done = results.filter((r) => !r.aborted);
  const editor = done.filter((r) => r.winner === '0').length;
  const rounds = done.map((r) => r.rounds);
  const by = (reason: string) => done.filter((r) => r.reason === reason).length;
  const mean = rounds.reduce((a, b) => a + b, 0) / Math.max(1, rounds.length);
  const hist = new Map<number, number>();
  for (const r of rounds) hist.set(r, (hist.get(r) ?? 0) + 1);
  return [
    '| games | Editor wins | Editor win rate (95% interval) | rounds: mean / median / min–max | connected (Editor) | 5th momentum (Nixon) | supply empty (Nixon) | aborted |',
    '|---|---|---|---|---|---|---|---|',
    `| ${done.length} | ${editor} | **${pct(editor, done.length)}** (${wilson(editor, done.length)}) | ${mean.toFixed(1)} / ${quantile(rounds, 0.5)} / ${Math.min(...rounds)}–${Math.max(...rounds)} | ${by('connected')} | ${by('momentum')} | ${by('supply')} | ${results.length - done.length} |`,
    '',
    `Rounds per game: ${[...hist.entries()].sort((a, b) => a[0] - b[0]).map(([r, n]) => `${r}: ${n}`).join(', ')}.`,
  ].join('\n');
}

/**
 * A proposal against the components as they are, game by game: game g of both series starts from the same
 * shuffle (the seed names the series, not the proposal), so each pair differs only by the change. Counts
 * the pairs by who won each, and a two-sided sign test on the pairs that changed hands.
 */
function pairedTable(base: string, variant: string): string {
  const a = loadRows(base);
  const b = loadRows(variant);
  const pairs = [...b.keys()].filter((k) => a.has(k) && !a.get(k)!.result.aborted && !b.get(k)!.result.aborted);
  if (pairs.length === 0) return '';
  const count = (x: string, y: string) => pairs.filter((k) => a.get(k)!.result.winner === x && b.get(k)!.result.winner === y).length;
  const [ee, en, ne, nn] = [count('0', '0'), count('0', '1'), count('1', '0'), count('1', '1')];
  const n = en + ne;
  const p = signTest(en, ne);
  return [
    `Paired with the components as they are (${dataFile(base)}), game by game on the same seeds (${pairs.length} pairs):`,
    '',
    `| | Editor won with "${VARIANT}" | Nixon won with "${VARIANT}" |`,
    '|---|---|---|',
    `| Editor won as they are | ${ee} | ${en} |`,
    `| Nixon won as they are | ${ne} | ${nn} |`,
    '',
    `Editor wins: ${ee + en} as they are, ${ee + ne} with "${VARIANT}"; ${n} games changed hands (sign test p ${n ? pValue(p) : '= –'}).`,
  ].join('\n');
}
const binom = (n: number, k: number) => {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
};
/** Two-sided sign test: under "no effect" each of the a + b changed pairs goes either way with probability 1/2. */
function signTest(a: number, b: number): number {
  const n = a + b;
  let tail = 0;
  for (let i = 0; i <= Math.min(a, b); i++) tail += binom(n, i) / 2 ** n;
  return Math.min(1, 2 * tail);
}
/** A p-value as a reader wants it: two decimals, more when it is small (never "0.00"). */
const pValue = (p: number): string => (p < 0.001 ? '< 0.001' : `= ${p < 0.01 ? p.toPrecision(2) : p.toFixed(2)}`);

/**
 * A level against hard, deal by deal: game g is played twice on the same seed, the level in each seat.
 * Where the same seat won both, the deal (and the seat) decided; the pairs one bot won twice are where
 * the bots differed.
 */
function pairsByDeal(rows: GameRow[], level: string): string {
  const bySeat = (seat: PlayerID) => new Map(rows.filter((r) => r.seat === seat && !r.result.aborted).map((r) => [r.game, r]));
  const asEditor = bySeat('0'), asNixon = bySeat('1');
  const games = [...asEditor.keys()].filter((g) => asNixon.has(g));
  if (games.length === 0) return '';
  const count = (editorGame: PlayerID, nixonGame: PlayerID) => games.filter((g) => asEditor.get(g)!.result.winner === editorGame && asNixon.get(g)!.result.winner === nixonGame).length;
  const [editorBoth, nixonBoth, levelBoth, hardBoth] = [count('0', '0'), count('1', '1'), count('0', '1'), count('1', '0')];
  const n = levelBoth + hardBoth;
  return [
    `By deal (${games.length} seeds played in both seats): the Editor won both games of ${editorBoth}, Nixon both of ${nixonBoth}; ${level} won both of ${levelBoth}, hard both of ${hardBoth}` +
      ` (sign test on those ${n}: p ${n ? pValue(signTest(levelBoth, hardBoth)) : '= –'}).`,
  ].join('\n');
}

/** A level's iteration budget in words. */
function budget(level: Level): string {
  const { iterations, searches } = LEVELS[level];
  return searches === 1 ? `${iterations} iterations` : `${searches} searches × ${iterations} iterations`;
}

/** Think time of each level on fixed positions (decision points of seeded random games), time caps on. */
async function levels(bars: cliProgress.MultiBar): Promise<string> {
  const positions: ReturnType<typeof playerView>[] = [];
  for (let seed = 1; positions.length < 60; seed++) {
    const rng = botRng(seed * 101);
    for (const { state: G, player, moves, n } of playout(engineDriver(rng), newGame({}, rng), randomChooser(rng), { maxMoves: 40 + seed * 7 }))
      // A copy: a view shares arrays with the live state, which the next moves change.
      if (n % 9 === 0 && moves.length > 1) positions.push(structuredClone(playerView(G, player)));
  }
  const rows: string[] = [];
  const bar = bars.create(positions.length * LEVEL_NAMES.length, 0, { name: 'levels', unit: 'decisions', wins: '' });
  for (const level of LEVEL_NAMES) {
    const t = newThink();
    for (const [i, view] of positions.entries()) {
      const t0 = performance.now();
      const d = think(view, { level, seed: i });
      record(t, performance.now() - t0, d);
      bar.increment();
      await new Promise((r) => setTimeout(r, 0));
    }
    rows.push(thinkRow(`${level} (${budget(level)} or ${LEVELS[level].timeMs} ms)`, t));
  }
  return [THINK_HEADER.replace('think time', 'level (budget)'), ...rows].join('\n');
}

const START_LOAD = loadavg();
/** This run: when, the exact command and the load when it started (a run's games are stored with it). */
function runStamp() {
  return `${today()} ${new Date().toISOString().slice(11, 16)} UTC \`npm run bench:bots -- ${args.join(' ')}\` (load average at start ${START_LOAD.map((x) => x.toFixed(1)).join(' / ')})`;
}

/** A section's header: the machine, and the runs its numbers come from. */
function header(runs: string[]) {
  return [
    `Machine: ${machine()}; NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}.`,
    runs.length === 1 ? `Run ${runs[0]}.` : `Runs:\n${runs.map((r) => `- ${r}`).join('\n')}`,
    'The machine was shared with other jobs (load average at the start of each run above), so think times are upper bounds.',
  ].join('\n');
}

async function main() {
  const bars = new cliProgress.MultiBar(
    {
      format: '{name} |{bar}| {value}/{total} {unit} {wins} | {duration_formatted} elapsed, ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      // Logs and CI are not terminals: print the bars every 30 s there instead of redrawing them.
      noTTYOutput: true,
      notTTYSchedule: 30_000,
    },
    cliProgress.Presets.shades_classic,
  );
  /** [file, section, runs, body] */
  const sections: [string, string, string[], string][] = [];
  const ours = watergateBot(HARD);

  if (ONLY.includes('levels')) sections.push(['docs/BOTS.md', 'levels', [runStamp()], await levels(bars)]);
  if (ONLY.includes('random')) {
    const s = await series('vs RandomBot', 'random', ours, RandomBot as unknown as BotClass, GAMES, ['0', '1'], bars);
    sections.push(['docs/BOTS.md', 'random', s.runs, [winTable(s, 'RandomBot'), '', THINK_HEADER, thinkRow('our bot, hard', s.ours)].join('\n')]);
  }
  if (ONLY.includes('mcts')) {
    const oursTimed = watergateBot({ level: 'hard', iterations: 1e9, timeMs: MCTS_MS });
    const mcts = watergateMCTSBot({ timeMs: MCTS_MS, playoutDepth: 40 }) as unknown as BotClass;
    const s = await series(`vs MCTSBot ${MCTS_MS}ms`, `mcts-${MCTS_MS}ms`, oursTimed, mcts, GAMES, ['0', '1'], bars);
    sections.push([
      'docs/BOTS.md',
      'mcts',
      s.runs,
      [
        `Both bots search ${MCTS_MS} ms per decision (wall clock; forced moves are answered at once by both).`,
        '',
        winTable(s, 'MCTSBot'),
        '',
        THINK_HEADER,
        thinkRow('our bot (IS-MCTS, pure engine)', s.ours),
        thinkRow("boardgame.io MCTSBot (full state, boardgame.io's reducer)", s.theirs),
      ].join('\n'),
    ]);
  }
  if (ONLY.includes('self')) {
    const s = await series('hard vs hard', `self${variantSuffix}`, ours, ours, GAMES, ['0'], bars);
    const both = newThink();
    for (const side of [s.ours, s.theirs]) addThink(both, side);
    if (!VARIANT)
      sections.push(['docs/BOTS.md', 'self', s.runs, [`Our bot (hard) against itself, ${s.results.length} games: the Editor seat won ${s.wins['0']} (${pct(s.wins['0'], s.games['0'])}, 95% interval ${wilson(s.wins['0'], s.games['0'])}).`, '', THINK_HEADER, thinkRow('our bot, hard (both seats)', both)].join('\n')]);
    const title = VARIANT ? `Level hard against itself, with the proposal "${VARIANT}": ${VARIANT_TEXT}.` : 'Level hard against itself:';
    const paired = VARIANT ? pairedTable('self', `self${variantSuffix}`) : '';
    sections.push(['docs/BALANCE.md', `balance-hard${variantSuffix}`, s.runs, `${title}\n\n${balanceTable(s.results)}${paired ? `\n\n${paired}` : ''}`]);
  }
  if (ONLY.includes('balance')) {
    const normal = watergateBot({ level: 'normal', deterministic: true });
    const section = `balance-normal${variantSuffix}`;
    const s = await series('normal vs normal', `balance${variantSuffix}`, normal, normal, 2 * GAMES, ['0'], bars);
    const title = VARIANT ? `Level normal against itself, with the proposal "${VARIANT}": ${VARIANT_TEXT}.` : 'Level normal against itself:';
    const paired = VARIANT ? pairedTable('balance', `balance${variantSuffix}`) : '';
    sections.push(['docs/BALANCE.md', section, s.runs, `${title}\n\n${balanceTable(s.results)}${paired ? `\n\n${paired}` : ''}`]);
  }
  for (const level of VS_HARD) {
    const mine = watergateBot({ level, deterministic: true });
    const s = await series(`${level} vs hard`, `${level}-vs-hard`, mine, ours, GAMES, ['0', '1'], bars);
    const rows = [...loadRows(`${level}-vs-hard`).values()];
    sections.push([
      'docs/BOTS.md',
      `${level}-vs-hard`,
      s.runs,
      [
        `Level ${level} (${budget(level)} per decision) against hard (${budget('hard')}), iteration budgets only (\`deterministic\`), one thread: ${LEVELS[level].searches > 1 ? "every search of a decision ran one after the other in the benchmark's process, so " : ''}${level}'s think times are those of one core${LEVELS[level].searches > 1 ? ' (on the server its searches share the bot threads)' : ''}.`,
        '',
        winTable(s, 'hard').replace('| our bot plays |', `| ${level} plays |`),
        '',
        pairsByDeal(rows, level),
        '',
        THINK_HEADER,
        thinkRow(`${level}`, s.ours),
        thinkRow('hard', s.theirs),
      ].join('\n'),
    ]);
    sections.push([
      'docs/BOTS.md',
      `calibration-${level}-vs-hard`,
      s.runs,
      [
        `The win-chance estimate of each searched decision (the chosen move's mean value, from the decider's side) against the result of its game, over every stored game of ${dataFile(`${level}-vs-hard`)}:`,
        '',
        `**${level}:**`,
        '',
        reliabilityTable(forecasts(rows, 'ours')),
        '',
        '**hard:**',
        '',
        reliabilityTable(forecasts(rows, 'theirs')),
      ].join('\n'),
    ]);
  }
  bars.stop();

  for (const [file, name, runs, body] of sections) {
    const text = `${header(runs)}\n\n${body}`;
    console.log(`\n## ${name}\n${text}`);
    if (WRITE) writeSection(file, `bots-${name}`, text);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
