/**
 * `npm run bench:takeback`: what take-backs cost the server, beside what it does anyway, in one run.
 *
 * - Per move, in process: the line of play kept and what each seat may take back (server/match/line.ts
 *   and game/undo.ts undoPlan for both seats, as the status after every move of a match with take-backs
 *   computes it) beside the move's own transition (game/advance.ts), over seeded random games.
 * - Memory: a served match's line of play at random points of those games, beside its state alone.
 * - The server (embedded SQLite, in process, no sockets): a take-back through the match service (the
 *   engine's plan, one write with a snapshot, delivery) beside a move through it, alternately on one match.
 *
 * Writes its section of docs/BENCHMARKS.md. Run with `node --expose-gc --import tsx` for the memory part.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { State } from 'boardgame.io';
import { botRng } from '../bots/index';
import { advance, advanceMove, legalMoves, Watergate, type MoveAction, type PlayerID, type WatergateState } from '../game/index';
import { undoPlan } from '../game/undo';
import { startServer } from '../server/app';
import { createLogger } from '../server/log';
import { PlayLine } from '../server/match/line';
import { openStore } from '../server/storage/index';
import { advanceDriver, initialState, randomChooser } from './playout';
import { machine, today, writeSection } from './machine';

const GAMES = Number(process.env.GAMES ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 60);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
type S = State<WatergateState>;

/** One seeded game's moves: the state before each and the action. */
function game(seed: number): { states: S[]; actions: MoveAction[] } {
  const rng = botRng(seed);
  const choose = randomChooser(rng);
  const driver = advanceDriver();
  let s = initialState(Watergate, `bench-takeback-${seed}`);
  const states: S[] = [s];
  const actions: MoveAction[] = [];
  for (let p = driver.decider(s); p !== null; p = driver.decider(s)) {
    const m = choose(driver.moves(s, p), p);
    const moved = advanceMove(s, p, m.move, m.args[0]);
    if ('error' in moved) throw new Error(moved.error);
    s = moved.state;
    states.push(s);
    actions.push(moved.action);
  }
  return { states, actions };
}

function perMove() {
  const games = Array.from({ length: GAMES }, (_, i) => game(i));
  const moves = games.reduce((n, g) => n + g.actions.length, 0);
  // Baseline and take-backs in turns, three rounds each, so a slow moment of a shared machine hits both.
  const base: number[] = [];
  const extra: number[] = [];
  const lengths: number[] = [];
  for (let round = 0; round < 3; round++) {
    let t0 = performance.now();
    for (const g of games) for (let i = 0; i < g.actions.length; i++) advance(g.states[i], g.actions[i]);
    base.push(((performance.now() - t0) * 1000) / moves);
    t0 = performance.now();
    for (const g of games) {
      const line = new PlayLine(g.states[0], true);
      for (let i = 0; i < g.actions.length; i++) {
        line.push(g.states[i + 1], { action: g.actions[i], auto: false, clock: null });
        undoPlan(line, '0', null);
        undoPlan(line, '1', null);
        if (round === 0) lengths.push(line.steps.length);
      }
    }
    extra.push(((performance.now() - t0) * 1000) / moves);
  }
  return { actions: games.map((g) => g.actions), moves, base: median(base), extra: median(extra), lengths };
}

/** The state after the first `k` moves of seeded game `seed`, replayed afresh; with its line of play if asked. */
function replayTo(seed: number, actions: MoveAction[], k: number, withLine: boolean): unknown {
  let s = initialState(Watergate, `bench-takeback-${seed}`);
  const line = withLine ? new PlayLine(s, true) : null;
  for (let j = 0; j < k; j++) {
    s = advance(s, actions[j]).state;
    line?.push(s, { action: actions[j], auto: false, clock: null });
  }
  return line ?? s;
}

function memory(actions: MoveAction[][]): { line: number; state: number } | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  const rng = botRng(99);
  const points = actions.map((a) => 1 + rng.int(a.length - 1));
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  // What memory keeps of a match anyway (its state), then the same with its line of play (whose head is that state).
  const measure = (withLine: boolean) => {
    const h0 = heap();
    const held = points.map((k, i) => replayTo(i, actions[i], k, withLine));
    const used = heap() - h0;
    void held.length;
    return used / points.length;
  };
  const state = measure(false);
  const line = measure(true);
  return { line: line - state, state };
}

async function server() {
  const dir = mkdtempSync(join(tmpdir(), 'wg-bench-takeback-'));
  const srv = await startServer({ store: await openStore({ dataDir: dir }), port: 0, log: createLogger('silent'), limits: 'off' });
  try {
    const post = (path: string, body: unknown) => fetch(srv.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, string>>);
    const { matchID } = await post('/games/watergate/create', { setupData: { takeBacks: 'free' } });
    const creds: Record<PlayerID, string> = { '0': '', '1': '' };
    for (const p of ['0', '1'] as const) creds[p] = (await post(`/games/watergate/${matchID}/join`, { playerID: p, playerName: p === '0' ? 'Ann' : 'Bob' })).playerCredentials;
    const move: number[] = [];
    const back: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const s = (await srv.service.current(matchID))!.state as S;
      const p = s.G.prompt!.player as PlayerID;
      // A value play on a marker: it draws nothing, so it may always be taken back.
      const m = legalMoves(s.G, p).find((x) => x.move === 'play' && ['initiative', 'momentum'].includes((x.args[0] as { target?: { kind: string } }).target?.kind ?? '')) ?? legalMoves(s.G, p)[0];
      let t0 = performance.now();
      const refused = await srv.service.move({ matchID, playerID: p, credentials: creds[p], type: m.move, arg: m.args[0], stateID: s._stateID });
      move.push(performance.now() - t0);
      if (refused) throw new Error(refused.message);
      t0 = performance.now();
      const out = await srv.service.undo({ matchID, playerID: p, credentials: creds[p], stateID: null, accept: null });
      back.push(performance.now() - t0);
      if (out.status !== 200) throw new Error(JSON.stringify(out));
    }
    return { move, back };
  } finally {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cpu = perMove();
const mem = memory(cpu.actions);
const srv = await server();
const f = (n: number, d = 1) => n.toFixed(d);
const body = `## Take-backs (\`npm run bench:takeback\`)

Measured ${today()} on ${machine()}.

What a match with take-backs costs the server beside what it does anyway, in the same run (medians of three passes over ${GAMES} seeded random games, ${cpu.moves} moves):

| per move | µs | × the move's transition |
|---|---:|---:|
| the move's transition (\`game/advance.ts\`, baseline) | ${f(cpu.base)} | 1 |
| the line of play kept and what each seat may take back (\`PlayLine.push\` + \`undoPlan\` for both seats) | ${f(cpu.extra)} | ${f(cpu.extra / cpu.base, 2)} |

The line of play held per match: median ${median(cpu.lengths)} positions, 95th percentile ${pct(cpu.lengths, 0.95)}, at most ${Math.max(...cpu.lengths)} (it restarts at every draw from the PRNG: each round's deal).
${mem ? `Memory at a random point of each game (heap after GC, ${GAMES} matches held): the line adds ${f(mem.line / 1024)} KiB per match beside the ${f(mem.state / 1024)} KiB of its state (its positions share with each other all that a move did not change).` : 'Memory: run with `node --expose-gc` to measure.'}

The server (embedded SQLite, in process, no sockets), ${ROUNDS} value plays each taken back at once on one match, through the match service:

| | median ms | 95th percentile ms | × a move |
|---|---:|---:|---:|
| a move (baseline) | ${f(median(srv.move), 2)} | ${f(pct(srv.move, 0.95), 2)} | 1 |
| a take-back (the plan, one write with a snapshot, delivery) | ${f(median(srv.back), 2)} | ${f(pct(srv.back, 0.95), 2)} | ${f(median(srv.back) / median(srv.move), 2)} |
`;
console.log(body);
writeSection(resolve(import.meta.dirname, '../docs/BENCHMARKS.md'), 'takeback', body);
