/**
 * `npm run arena -- --bots a,b,… --deals N [--paired] [--threads K] [--out games.jsonl] [--seed BASE]`
 *
 * Every pair of bots plays N deals: with `--paired` each deal twice, the seats swapped (duplicate play:
 * the same seeded deal, so luck of the deal cancels out within a deal pair), otherwise 2N games on fresh
 * seeds. Games run in K worker threads (node:worker_threads through Piscina, default: the cores less one, at least one).
 * Writes the table (wins by side, Glicko-2 by side with deviations, the score per game and per deal pair)
 * to stdout and, with `--out`, one JSON line per game. Bots: `watergate:<level>`, `mcts[:it[:depth]]`,
 * `random`, or a module path exporting `decide(view, legal)` (bots/engines.ts). docs/BOTS.md "Arena".
 * `--server URL --token t1,t2,…` (one bot account's token per engine, or WATERGATE_TOKENS): the games are
 * played on that server through the HTTP bot API instead (server.ts; unpaired only: a server deals with
 * its own seeds).
 */
import { createWriteStream } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { engineError } from '../../bots/arena';
import { option } from '../machine';
import { playOnServer } from './server';
import { plan, table, type GameRecord, type GameTask } from './stats';

const args = process.argv.slice(2);
const bots = option('bots', '', args).split(',').filter(Boolean);
const deals = Number(option('deals', '10', args));
const paired = args.includes('--paired');
const threads = Math.max(1, Number(option('threads', String(Math.max(1, availableParallelism() - 1)), args)));
const out = option('out', '', args);
const base = option('seed', 'arena', args);

function fail(message: string): never {
  console.error(`arena: ${message}`);
  process.exit(2);
}
const server = option('server', '', args).replace(/\/+$/, '');
const tokenList = option('token', process.env.WATERGATE_TOKENS ?? '', args).split(',').filter(Boolean);
if (args.includes('--server') && !/^https?:\/\//.test(server)) fail('--server takes the server\'s URL (http://… or https://…)');
if (server && paired) fail('--paired needs seeded deals, which a server does not offer: leave it out with --server');
if (bots.length < 2) fail('--bots needs at least two names, comma-separated (e.g. --bots watergate:hard,mcts,random)');
if (new Set(bots).size !== bots.length) fail('--bots names a bot twice');
if (!Number.isInteger(deals) || deals < 1) fail('--deals takes a whole number ≥ 1');
for (const b of bots) {
  const e = engineError(b);
  if (e) fail(`${b}: ${e}`);
}
if (server && tokenList.length !== bots.length) fail('--token (or WATERGATE_TOKENS) takes one bot account token per engine of --bots, comma-separated, in the same order');

/** Under tsx the worker is TypeScript: load it through tsx's loader (as bots/pool.ts does). */
function workerFile(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!/\.ts($|\?)/.test(here)) return { filename: new URL('./worker.js', here).href, execArgv: [] };
  const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { filename: new URL('./worker.ts', here).href, execArgv: ['--import', tsx] };
}

const tasks = plan(bots, deals, paired, base);
const records: GameRecord[] = [];
const file = out ? createWriteStream(out) : null;
const t0 = Date.now();
console.error(`arena: ${tasks.length} games${server ? ` on ${server}` : ''} (${paired ? `${deals} deal pairs` : `${2 * deals} fresh deals`} per pair of bots) on ${threads} threads`);

const done = (r: GameRecord) => {
  records.push(r);
  file?.write(`${JSON.stringify(r)}\n`);
  console.error(`${records.length}/${tasks.length} ${r.seed}: ${r.seats['0']} (Editor) vs ${r.seats['1']} (Nixon): ${r.winnerBot ?? 'no winner'} (${r.reason}${r.moves >= 0 ? `, ${r.moves} moves` : ''}, ${(r.ms / 1000).toFixed(1)} s)`);
};
if (server) {
  // Against a server: `threads` games at a time in this process, each seat through the HTTP bot API.
  const tokens = Object.fromEntries(bots.map((b, i) => [b, tokenList[i]]));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(threads, tasks.length) }, async () => {
      while (next < tasks.length) done(await playOnServer(server, tokens, tasks[next++]));
    }),
  );
} else {
  // Piscina: a pool of node:worker_threads, one game per task, `threads` at once.
  const pool = new Piscina<GameTask, GameRecord>({ ...workerFile(), minThreads: threads, maxThreads: threads, idleTimeout: 1000 });
  await Promise.all(tasks.map(async (task) => done(await pool.run(task))));
  await pool.destroy();
}
file?.end();
console.log(table(bots, records, paired));
console.error(`arena: ${records.length} games in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(0);
