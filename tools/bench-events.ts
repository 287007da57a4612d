/**
 * `tsx tools/bench-events.ts [--players 128] [--rounds 7] [--background 16] [--backend embedded|postgres]
 *   [--play bots|resign] [--pace person|bot|flat|MIN-MAX] [--clock live|none|relaxed] [--paired] [--window 1000] [--no-write]`
 *
 * A Swiss event run to its end inside one server process while other matches are played beside it
 * (./load/event-bench.ts says how). By default its games are played move by move by bots at a person's
 * pace (1–4 s a decision) under the live time control (a realistic round, every game ended by the rules or the clock); `--play resign` is the first
 * benchmark (each game resigned 0–2 s after it is made: a round's start without play). Measured: each
 * round's start and the pairing alone, how long each round was played, the moves' latency while a round
 * was starting (until --window ms after its announcement) against the rest, the total, and that every game of the event has a result.
 * Written to docs/LOAD.md ("Events"): `events-bots-<backend>[-paired]` for played games,
 * `events-<backend>[-paired]` for resignations.
 */
import { resolve } from 'node:path';
import { benchEvent, eventTables, paceOf } from './load/event-bench';
import { machine, option, today, writeSection } from './machine';

const play = option('play', 'bots');
const backend = option('backend', 'embedded');
const clock = option('clock', play === 'bots' ? 'live' : 'none');
if (play !== 'bots' && play !== 'resign') throw new Error('--play must be bots or resign');
if (backend !== 'embedded' && backend !== 'postgres') throw new Error('--backend must be embedded or postgres');
if (clock !== 'live' && clock !== 'none' && clock !== 'relaxed') throw new Error('--clock must be live, none or relaxed');
const paired = process.argv.includes('--paired');

const result = await benchEvent({
  players: Number(option('players', '128')),
  rounds: Number(option('rounds', '7')),
  background: Number(option('background', '16')),
  backend,
  paired,
  play,
  pace: paceOf(option('pace', 'person')),
  clock,
  windowMs: Number(option('window', '1000')),
  progress: (line) => console.error(line),
});
const body = eventTables(result, machine(), today());
console.log(body);
const section = `events-${play === 'bots' ? 'bots-' : ''}${backend}${paired ? '-paired' : ''}`;
if (!process.argv.includes('--no-write')) writeSection(resolve(import.meta.dirname, '../docs/LOAD.md'), section, body);
// An event that did not finish, or a game without a result, is a failed benchmark, not a slow one: the exit code says so.
if (result.gamesWithResult !== result.gamesExpected || result.status !== 'finished') {
  console.error(`the event did not complete: ${result.status}, ${result.gamesWithResult} of ${result.gamesExpected} games with a result`);
  process.exitCode = 1;
}
