/**
 * `npx tsx tools/arena/paired-power.ts FILE.jsonl [--bot NAME]`
 *
 * How many games paired deals save: from games played in both seats on the same deals, the variance of
 * the score per game (what unpaired play on fresh deals has: each game a Bernoulli trial of the same
 * mean, seats balanced) against the variance of the score per deal pair (the mean of the two games of a
 * deal: 1, ½ or 0). For a 95% interval around the observed mean p to exclude ½, a mean of n
 * independent scores of variance σ² needs 1.96·σ/√n < |p − ½|, so n > (1.96 σ / (p − ½))²; paired play
 * needs that many deal pairs, twice as many games (to see a true edge that size with 80% power instead of
 * at the observed one: 2.80 in place of 1.96). The ratio of games is 2σ²_pair / σ²_game, resampled
 * over deals (bootstrap, 2,000 draws) for its own 95% interval. Reads the arena's JSONL (`--bot` is the
 * bot whose score is counted, by default the first of the first game's pair) or bench:bots's
 * (docs/bots-data/expert-vs-hard.jsonl: `seat` is expert's).
 */
import { readFileSync } from 'node:fs';
import { option } from '../machine';
import { interval } from './stats';

const file = process.argv[2];
if (!file) throw new Error('usage: tsx tools/arena/paired-power.ts FILE.jsonl [--bot NAME]');
type Row = { deal: string; seat: string; score: number };
const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const bot = option('bot', lines[0].pair?.[0] ?? 'expert');
const rows: Row[] = lines.map((g) =>
  g.pair
    ? { deal: `${g.pair.join(',')}/${g.seed}`, seat: g.seats['0'], score: g.winnerBot === null ? 0.5 : g.winnerBot === bot ? 1 : 0 }
    : { deal: String(g.game), seat: g.seat, score: g.result.winner === null ? 0.5 : g.result.winner === g.seat ? 1 : 0 },
);
// A game stored twice (the same deal and seats: the same game, replayed) counts once.
const byDeal = new Map<string, Map<string, number>>();
for (const r of rows) {
  const d = byDeal.get(r.deal) ?? new Map<string, number>();
  if (!d.has(r.seat)) d.set(r.seat, r.score);
  byDeal.set(r.deal, d);
}
const pairs = [...byDeal.values()].filter((d) => d.size === 2).map((d) => [...d.values()]);
const games = pairs.flat();

function measure(ps: number[][]) {
  const perGame = interval(ps.flat());
  const perPair = interval(ps.map((s) => (s[0] + s[1]) / 2));
  const edge = (perGame.mean - 0.5) ** 2;
  return { p: perGame.mean, varGame: perGame.sd ** 2, varPair: perPair.sd ** 2, unpaired: (1.96 ** 2 * perGame.sd ** 2) / edge, paired: (2 * 1.96 ** 2 * perPair.sd ** 2) / edge, ratio: (2 * perPair.sd ** 2) / perGame.sd ** 2 };
}
const m = measure(pairs);
let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const ratios = Array.from({ length: 2000 }, () => measure(pairs.map(() => pairs[Math.floor(rand() * pairs.length)])).ratio).sort((a, b) => a - b);
const lo = ratios[50];
const hi = ratios[1949];
console.log(`${file}: ${bot}, ${pairs.length} deal pairs (${games.length} games)`);
console.log(`score per game ${(100 * m.p).toFixed(1)}%; variance per game ${m.varGame.toFixed(4)}, per deal pair ${m.varPair.toFixed(4)}`);
console.log(`games for a 95% interval excluding ½: unpaired ${Math.ceil(m.unpaired)}, paired ${Math.ceil(m.paired)} (${Math.ceil(m.paired / 2)} deal pairs)`);
console.log(`to see the difference with 80% power (z 1.96 + 0.84): unpaired ${Math.ceil((m.unpaired * 2.8 ** 2) / 1.96 ** 2)}, paired ${Math.ceil((m.paired * 2.8 ** 2) / 1.96 ** 2)} games`);
console.log(`paired play needs ${(100 * m.ratio).toFixed(0)}% of the games (bootstrap 95%: ${(100 * lo).toFixed(0)}–${(100 * hi).toFixed(0)}%): ${(100 * (1 - m.ratio)).toFixed(0)}% fewer`);
