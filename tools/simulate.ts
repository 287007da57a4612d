/**
 * npm run simulate -- --games N --seed S [--round-limit R] [--joker rulebook2019]
 * Plays N RandomBot games headless through boardgame.io's reducer; prints win rates, the distribution
 * of rounds, how games ended and games per second.
 */
process.env.NODE_ENV ??= 'production'; // boardgame.io's per-move serializability check is a development aid
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { playRandomGame, type RandomGameResult } from './random-game';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '200' },
    seed: { type: 'string', default: 'watergate' },
    'round-limit': { type: 'string', default: '100' },
    joker: { type: 'string', default: 'errata2023' },
  },
});
const games = Number(values.games);
const roundLimit = Number(values['round-limit']);
if (!Number.isInteger(games) || games < 1 || !Number.isInteger(roundLimit) || roundLimit < 1) {
  console.error('usage: npm run simulate -- --games N --seed S [--round-limit R] [--joker errata2023|rulebook2019]');
  process.exit(2);
}
const setupData = { jokerFallback: values.joker as 'errata2023' | 'rulebook2019' };

const bar = new cliProgress.SingleBar({ format: 'simulating [{bar}] {value}/{total} games | {rate} games/s', hideCursor: true }, cliProgress.Presets.shades_classic);
const results: RandomGameResult[] = [];
const t0 = performance.now();
bar.start(games, 0, { rate: '0' });
for (let i = 0; i < games; i++) {
  results.push(await playRandomGame(`${values.seed}-${i}`, { roundLimit, setupData }));
  bar.update(i + 1, { rate: ((i + 1) / ((performance.now() - t0) / 1000)).toFixed(1) });
}
bar.stop();
const seconds = (performance.now() - t0) / 1000;

const done = results.filter((r) => !r.aborted);
const pct = (n: number) => `${((100 * n) / Math.max(1, done.length)).toFixed(1)}%`;
const rounds = new Map<number, number>();
for (const r of done) rounds.set(r.rounds, (rounds.get(r.rounds) ?? 0) + 1);
const reasons = new Map<string, number>();
for (const r of done) reasons.set(r.reason!, (reasons.get(r.reason!) ?? 0) + 1);
console.log(`\n${games} games (seed "${values.seed}", ${setupData.jokerFallback}), ${seconds.toFixed(1)} s, ${(games / seconds).toFixed(1)} games/s`);
console.log(`Editor wins ${pct(done.filter((r) => r.winner === '0').length)}, Nixon wins ${pct(done.filter((r) => r.winner === '1').length)}` + (results.length > done.length ? `, aborted at round ${roundLimit}: ${results.length - done.length}` : ''));
console.log(`How games ended: ${[...reasons].map(([k, v]) => `${k} ${pct(v)}`).join(', ')}`);
console.log(`Rounds (mean ${(done.reduce((s, r) => s + r.rounds, 0) / Math.max(1, done.length)).toFixed(2)}):`);
const widest = Math.max(...rounds.values());
for (const [r, n] of [...rounds].sort((a, b) => a[0] - b[0])) console.log(`  ${String(r).padStart(3)} ${'█'.repeat(Math.ceil((40 * n) / widest)).padEnd(40)} ${n}`);
