/**
 * `npm run bot -- --server URL --token T --engine <e> [--match ID [--seat 0|1]]`
 *
 * Runs a bot account (docs/BOT-API.md "The bot kit"): accepts every challenge sent to it on the event stream (not those it sent)
 * and plays every game that starts. `--match ID` instead takes a seat of that match (the Lobby's join
 * route) and plays it to its end, then exits (0 when the game finished). Engines: `watergate:<level>`,
 * `mcts[:iterations[:depth]]`, `random`, or a module path exporting `decide(view, legal) → action id`.
 * The token may come from the environment instead (`WATERGATE_TOKEN`), out of the process list.
 */
import { engine, engineError } from '../../bots/arena';
import { option } from '../machine';
import { join, playGame, runAccount, type KitOptions } from './kit';

const args = process.argv.slice(2);
const server = option('server', '', args).replace(/\/+$/, '');
const token = option('token', process.env.WATERGATE_TOKEN ?? '', args);
const name = option('engine', 'watergate:hard', args);
const matchID = option('match', '', args);
const seat = option('seat', '', args);

function fail(message: string): never {
  console.error(`bot: ${message}`);
  process.exit(2);
}
if (!/^https?:\/\//.test(server)) fail('--server takes the server\'s URL (http://… or https://…)');
if (!token) fail('--token (or WATERGATE_TOKEN) is the bot account\'s API token');
if (seat && seat !== '0' && seat !== '1') fail('--seat is 0 (the Editor) or 1 (Nixon)');
const error = engineError(name);
if (error) fail(`--engine ${name}: ${error}`);

const ac = new AbortController();
process.on('SIGINT', () => ac.abort());
process.on('SIGTERM', () => ac.abort());
const o: KitOptions = { server, token, decide: await engine(name, `${Date.now()}`), log: (l) => console.log(`${new Date().toISOString()} ${l}`), signal: ac.signal };
console.log(`bot: ${name} on ${server}`);

if (matchID) {
  const joined = await join(o, matchID, (seat || undefined) as '0' | '1' | undefined);
  if (joined !== 200 && joined !== 409) process.exit(1);
  const status = await playGame(o, matchID);
  process.exit(status ? 0 : 1);
}
await runAccount(o);
process.exit(0);
