/**
 * `NODE_ENV=production tsx tools/bench-search.ts [--vs DIR] [--iterations N] [--repeats R] [--no-write]`
 *
 * How fast our bot's search runs, beside a baseline in the same run: the searches of fixed decisions
 * (views of both seats taken along one seeded random game), to an iteration budget only, so both
 * sides search exactly as many iterations and — when the search itself has not changed — choose the
 * same moves with the same visits (the digest says so). Each repeat runs the code under test and the
 * baseline (`--vs`: another checkout, e.g. `git worktree add /tmp/base HEAD~1`) one after the other,
 * each in a process of its own; the figures are medians of the repeats' CPU time, and the ratio is
 * taken repeat by repeat. Written to docs/BOTS.md ("search-speed").
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { machine, option, today, writeSection } from './machine';

const args = process.argv.slice(2);
const ITERATIONS = Number(option('iterations', '8000'));
const REPEATS = Number(option('repeats', '5'));
const VS = option('vs', '');
const CHILD = option('child', '');

interface Run {
  decisions: number;
  iterations: number;
  cpuMs: number;
  wallMs: number;
  digest: string;
}

/** In a child process: the searches with the code of checkout `root`. */
async function searchWith(root: string): Promise<Run> {
  const load = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  const game = await load('game/index.ts');
  const { decide } = await load('bots/ismcts.ts');
  const { botRng } = await load('bots/rng.ts');
  const rng = botRng(7);
  const G = game.newGame(undefined, rng);
  const views: unknown[] = [];
  for (let n = 0; n < 200 && G.winner === null; n++) {
    const p = G.prompt.player;
    const moves = game.legalMoves(G, p);
    if (moves.length > 1 && n % 10 === 0) views.push(game.playerView(G, p));
    const m = moves[rng.int(moves.length)];
    game.applyMove(G, p, m.move, m.args[0], rng);
  }
  const hash = createHash('sha256');
  let iterations = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const v of views) {
    const d = decide(v, { iterations: ITERATIONS, seed: 3 });
    iterations += d.iterations;
    hash.update(JSON.stringify([d.move, d.stats.map((s: { visits: number }) => s.visits)]));
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { decisions: views.length, iterations, cpuMs: (cpu.user + cpu.system) / 1000, wallMs, digest: hash.digest('hex').slice(0, 12) };
}

function child(root: string): Run {
  const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1], '--child', root, '--iterations', String(ITERATIONS)], { encoding: 'utf8', env: process.env });
  return JSON.parse(out.trim().split('\n').pop()!) as Run;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (CHILD) {
  console.log(JSON.stringify(await searchWith(CHILD)));
} else {
  if (process.env.NODE_ENV !== 'production') throw new Error('run with NODE_ENV=production, as the server and the bot workers do');
  const here = resolve('.');
  const sides = VS ? [here, resolve(VS)] : [here];
  const runs: Run[][] = sides.map(() => []);
  for (let r = 0; r < REPEATS; r++) sides.forEach((root, i) => runs[i].push(child(root)));
  const rate = (x: Run) => x.iterations / (x.cpuMs / 1000);
  const commit = (root: string) => execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const rows = sides.map((root, i) => {
    const rs = runs[i];
    return `| ${i === 0 ? `this checkout (${commit(root)})` : `baseline (${commit(root)})`} | ${rs[0].decisions} | ${rs[0].iterations.toLocaleString('en')} | ${Math.round(median(rs.map((x) => x.cpuMs)))} ms | ${Math.round(median(rs.map(rate))).toLocaleString('en')} | ${[...new Set(rs.map((x) => x.digest))].join(', ')} |`;
  });
  const ratio = VS ? median(runs[0].map((x, k) => rate(x) / rate(runs[1][k]))) : null;
  const body = [
    `Machine: ${machine()}; ${today()}; ${REPEATS} repeats, each side in a process of its own, in turn; ${ITERATIONS.toLocaleString('en')} iterations per decision (\`deterministic\`).`,
    '',
    '| code | decisions | iterations | CPU time (median) | iterations per CPU second (median) | digest of the decisions |',
    '|---|---|---|---|---|---|',
    ...rows,
    ...(ratio === null ? [] : ['', `Iterations per CPU second, this checkout ÷ baseline, repeat by repeat: median **${ratio.toFixed(2)}×** (${runs[0].map((x, k) => (rate(x) / rate(runs[1][k])).toFixed(2)).join(', ')}).`]),
  ].join('\n');
  console.log(body);
  if (!args.includes('--no-write')) writeSection('docs/BOTS.md', 'search-speed', body);
}
