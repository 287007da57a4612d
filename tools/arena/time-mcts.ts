/**
 * `NODE_ENV=production npx tsx tools/arena/time-mcts.ts [--positions N] [--engine mcts:I:D]`
 *
 * Time per decision of the fair MCTS engine (bots/fair-mcts.ts) on N decision points of seeded random
 * games: this process's CPU time (what a decision costs on a free core) and wall time (what it took on
 * the machine as loaded then), median and p95, with the load average. Prints; docs/BOTS.md "Fair MCTS"
 * quotes it.
 */
import { loadavg } from 'node:os';
import { apply, currentPlayer, legalActions, newState, seededRandom, view, type GameState } from '../../game/api';
import { engine } from '../../bots/arena';
import { machine, option, today } from '../machine';

const N = Number(option('positions', '30'));
const name = option('engine', 'mcts');
const points: GameState[] = [];
const r = seededRandom('time-mcts');
for (let g = 0; points.length < N; g++) {
  let s = newState(`time-mcts-${g}`);
  for (let k = 0, p = currentPlayer(s); p !== null && points.length < N; k++, p = currentPlayer(s)) {
    const ids = legalActions(s, p);
    if (k % 7 === 3 && ids.length > 1) points.push(s);
    s = apply(s, ids[Math.floor(r() * ids.length)]);
  }
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const load0 = loadavg().map((x) => x.toFixed(1)).join(' / ');
const decide = await engine(name, 1);
const cpu: number[] = [];
const wall: number[] = [];
for (const s of points) {
  const v = view(s, currentPlayer(s)!);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await decide(v, legalActions(s, currentPlayer(s)!));
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(`${today()}, ${machine()}; ${name}, ${points.length} decisions; load average at start ${load0}`);
console.log(`| ${name} | ${points.length} | ${s(pct(cpu, 0.5))} | ${s(pct(cpu, 0.95))} | ${s(pct(wall, 0.5))} | ${s(pct(wall, 0.95))} |`);
