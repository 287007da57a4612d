/**
 * npm run bench: how fast the rules run, measured three ways, written to docs/BENCHMARKS.md.
 *  1. the pure engine (what our bots search): moves/s and complete random games/s;
 *  2. boardgame.io's reducer with the real Game object (what the server and MCTSBot run): moves/s, games/s;
 *  3. state size: JSON bytes of G at the end of a game and heap per live game state.
 * Runs with NODE_ENV=production (set by `npm run bench`: it must be set before boardgame.io and Immer load,
 * which static imports do before this file's first line runs), as the server does: boardgame.io's
 * development mode adds a serializability walk of G after every move and Immer its checking build.
 */
if (process.env.NODE_ENV !== 'production') throw new Error('run with NODE_ENV=production (npm run bench sets it): boardgame.io and Immer are slower in development mode');
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Watergate, newGame } from '../game/index';
import { advanceDriver, engineDriver, initialState, playToEnd, randomChooser, reducerDriver } from './playout';
import type { WatergateState } from '../game/types';
import { machine, today, writeSection } from './machine';
import { botRng as prng } from '../bots/index';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, out: { type: 'string', default: 'docs/BENCHMARKS.md' } } });
const budget = Number(values.seconds) * 1000;
const load0 = loadavg().map((x) => x.toFixed(1)).join(' / ');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs `game()` repeatedly in 5 slices of the budget; returns the median rate of each slice. */
function measure(label: string, game: (seed: number) => number): { games: number; moves: number } {
  const slices: { games: number; moves: number }[] = [];
  let seed = 1;
  for (let s = 0; s < 5; s++) {
    const t0 = performance.now();
    let games = 0;
    let moves = 0;
    while (performance.now() - t0 < budget / 5) {
      moves += game(seed++);
      games++;
    }
    const secs = (performance.now() - t0) / 1000;
    slices.push({ games: games / secs, moves: moves / secs });
  }
  const result = { games: median(slices.map((x) => x.games)), moves: median(slices.map((x) => x.moves)) };
  console.log(`${label}: ${result.games.toFixed(1)} games/s, ${Math.round(result.moves)} moves/s`);
  return result;
}

let lastG: WatergateState | null = null;
const engine = measure('pure engine', (seed) => {
  const rng = prng(seed);
  const { state, moves } = playToEnd(engineDriver(rng), newGame(undefined, rng), randomChooser(rng), { maxRounds: 100 });
  lastG = state;
  return moves;
});

const server = advanceDriver();
const advanced = measure('advance (the server)', (seed) => {
  const rng = prng(seed);
  return playToEnd(server, initialState(Watergate as never, `bench-${seed}`), randomChooser(rng), { maxRounds: 100 }).moves;
});

const reducer = reducerDriver(Watergate as never);
const bgio = measure("boardgame.io's reducer", (seed) => {
  const rng = prng(seed);
  return playToEnd(reducer, initialState(Watergate as never, `bench-${seed}`), randomChooser(rng), { maxRounds: 100 }).moves;
});

// State size: bytes of a finished game's G, and heap per live state (1,000 fresh games kept alive).
const bytes = Buffer.byteLength(JSON.stringify(lastG));
globalThis.gc?.();
const heap0 = process.memoryUsage().heapUsed;
const keep: WatergateState[] = [];
for (let i = 0; i < 1000; i++) keep.push(newGame(undefined, prng(i)));
globalThis.gc?.();
const perState = (process.memoryUsage().heapUsed - heap0) / keep.length;
console.log(`state: ${(bytes / 1024).toFixed(1)} KiB JSON at game end; ~${(perState / 1024).toFixed(1)} KiB heap per new game`);

writeSection(
  values.out!,
  'engine',
  `## Rules engine (\`npm run bench\`)
Measured ${today()} on ${machine()} (load average at start ${load0}: the machine was ${Number(load0.split(' / ')[0]) > 1.5 ? 'shared with other work, so compare rows of the same run' : 'quiet'}); NODE_ENV=production; random legal moves, seeded; median of 5 slices of ${values.seconds} s / 5.

| path | complete games/s | moves/s |
|---|---:|---:|
| pure engine (\`game/engine.ts\`, what our bot searches) | ${engine.games.toFixed(1)} | ${Math.round(engine.moves)} |
| \`advance\` (\`game/advance.ts\`: the server's moves, with the engine's check once per move) | ${advanced.games.toFixed(1)} | ${Math.round(advanced.moves)} |
| boardgame.io reducer with the \`Watergate\` Game (local play, MCTSBot) | ${bgio.games.toFixed(1)} | ${Math.round(bgio.moves)} |

The two lower rows make the same states (test/game/advance.test.ts): advance is **${(advanced.moves / bgio.moves).toFixed(1)}×** the reducer's moves/s in this run. Most of a reducer move is boardgame.io's own work (Immer drafts, flow, plugins, an Error with a stack trace for every event); advance copies the state (the record's past lines are shared), lets the engine apply the move and derives ctx from the result. State: ${(bytes / 1024).toFixed(1)} KiB of JSON for G at the end of a game (the game record is most of it); about ${(perState / 1024).toFixed(1)} KiB of heap per freshly set-up game${globalThis.gc ? '' : ' (measured without --expose-gc: indicative)'}.`,
);
console.log(`written to ${values.out}`);
