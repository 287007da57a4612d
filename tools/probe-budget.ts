/**
 * `NODE_ENV=production tsx tools/probe-budget.ts --iterations N [--first G] [--games M] [--until ISO-TIME]`
 *
 * A probe for a stronger top level, not a level: one search of N iterations against hard (8,000), both
 * with iteration budgets only (`deterministic`, so the machine's load changes the time, not the result),
 * deal g on seed `scale/g` played twice, the probe as the Editor and as Nixon. Each game is appended to
 * docs/bots-data/probe-hard-N-vs-hard.jsonl ({g, seat: the probe's, winner, aborted, rounds, s: seconds});
 * `--until` stops starting games after that time, so two runs (one per core) fit a session.
 * docs/BOTS.md ("Where it stands") gives what the probe found.
 */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { playMatch } from '../bots/arena';
import { watergateBot } from '../bots/bgio';
import { option as opt } from './machine';

const ITERATIONS = Number(opt('iterations', '32000'));
const FIRST = Number(opt('first', '0'));
const GAMES = Number(opt('games', '10'));
const UNTIL = Date.parse(opt('until', '9999-12-31T00:00:00Z'));
if (![ITERATIONS, FIRST, GAMES].every((n) => Number.isInteger(n) && n >= 0) || Number.isNaN(UNTIL)) throw new Error('--iterations, --first and --games are whole numbers; --until is a time');

const out = resolve(import.meta.dirname, `../docs/bots-data/probe-hard-${ITERATIONS}-vs-hard.jsonl`);
const probe = watergateBot({ level: 'hard', deterministic: true, iterations: ITERATIONS });
const hard = watergateBot({ level: 'hard', deterministic: true });

async function main(): Promise<void> {
  for (let g = FIRST; g < FIRST + GAMES; g++)
    for (const seat of ['0', '1'] as const) {
      if (Date.now() > UNTIL) return;
      const t0 = Date.now();
      const r = await playMatch({ seats: seat === '0' ? { '0': probe, '1': hard } : { '0': hard, '1': probe }, seed: `scale/${g}` });
      appendFileSync(out, JSON.stringify({ g, seat, winner: r.winner, aborted: r.aborted, rounds: r.rounds, s: (Date.now() - t0) / 1000 }) + '\n');
    }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
