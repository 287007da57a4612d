/**
 * The server's way to the next state (game/advance.ts) against boardgame.io's reducer running the
 * game's Game object: over whole seeded random games — every kind of decision, new turns, phase changes,
 * shuffles and draws, resignations and timeouts by the player who decides, the end of the game — both
 * give the same state (G, ctx, PRNG data, state id) and the same log entries, advance leaves the state
 * it was given as it was, and the next state shares every part the move left unchanged. A resignation made while the other player decides, which boardgame.io
 * has no active player for, ends the game and changes nothing else.
 */
import { describe, expect, it } from 'vitest';
import type { State } from 'boardgame.io';
import { Watergate, advance, legalOption, type MoveAction, type WatergateState } from '../../game/index';
import { CreateGameReducer, ProcessGameConfig } from 'boardgame.io/internal';
import { initialState } from '../../tools/playout';
import { botRng } from '../../bots/index';

// boardgame.io's own reducer, as local play runs it.
const reducer = CreateGameReducer({ game: ProcessGameConfig(Watergate as never) }) as unknown as (s: State, a: unknown) => State<WatergateState> & { deltalog?: unknown[] };
const strip = ({ deltalog: _d, transients: _t, ...rest }: State & { transients?: unknown; deltalog?: unknown }) => rest;
const GAMES = Number(process.env.ADVANCE_GAMES ?? 40);

function compare(state: State<WatergateState>, action: MoveAction) {
  // The record only grows: its past lines are compared by count (they are shared, never rewritten), the
  // rest of the state in full.
  const { log, ...G } = state.G;
  const lines = log.length;
  const frozen = JSON.stringify({ ...state, G });
  const ours = advance(state, action);
  expect(JSON.stringify({ ...state, G: { ...state.G, log: undefined } })).toBe(frozen);
  expect(state.G.log.length).toBe(lines);
  // boardgame.io's reducer changes a few of the given ctx's objects in place: it gets a copy.
  const theirs = reducer({ ...state, ctx: structuredClone(state.ctx) }, action) as State<WatergateState> & { deltalog?: unknown[] };
  expect(theirs._stateID).toBe(state._stateID + 1);
  const cut = (s: State<WatergateState>) => ({ ...s, G: { ...s.G, log: s.G.log.slice(lines - 1) } });
  expect(cut(ours.state)).toEqual(cut(strip(theirs) as State<WatergateState>));
  expect(ours.state.G.log.length).toBe(theirs.G.log.length);
  expect(ours.deltalog).toEqual(theirs.deltalog);
  // What the move did not change is the previous state's own object (views and patches rely on it).
  for (const k of Object.keys(G) as (keyof typeof G)[])
    if (JSON.stringify(G[k]) === JSON.stringify(ours.state.G[k])) expect(ours.state.G[k], `G.${k}`).toBe(state.G[k]);
  return ours.state;
}

describe('advance', () => {
  it(`makes the reducer's states and log entries over ${GAMES} seeded games, including their last moves`, { timeout: 120_000 }, () => {
    const seen = { turns: 0, phases: 0, stages: 0, resign: 0, timeout: 0, forfeit: 0, abort: 0, ends: 0 };
    for (let g = 0; g < GAMES; g++) {
      const rng = botRng(9000 + g);
      let s = initialState(Watergate as never, `advance-${g}`, g % 3 === 0 ? { jokerFallback: 'rulebook2019', pinImpossible: 'removeFromGame' } : undefined);
      // Some games end early: the decider resigns or runs out of time at a random move.
      const endAt = g % 4 === 1 ? 5 + rng.int(200) : g % 4 === 2 ? 5 + rng.int(200) : Infinity;
      for (let n = 0; s.ctx.gameover === undefined; n++) {
        const p = s.G.prompt!.player;
        let action: MoveAction;
        if (n === endAt) {
          // The player's resignation and the server's ends: the clock, a forfeit (left, abandoned), an abort.
          const type = (g % 8 === 1 ? 'resign' : g % 8 === 2 ? 'timeout' : g % 8 === 5 ? 'forfeit' : 'abort') as 'resign' | 'timeout' | 'forfeit' | 'abort';
          seen[type]++;
          action = { type: 'MAKE_MOVE', payload: { type, args: type === 'forfeit' ? [g % 16 === 5 ? 'left' : 'abandoned'] : [], playerID: p } };
        } else {
          const moves = Watergate.ai!.enumerate(s.G, s.ctx, p) as { move: string; args: unknown[] }[];
          const m = moves[rng.int(moves.length)];
          const legal = legalOption(s.G, p, m.move, m.args[0]);
          if ('error' in legal) throw new Error(legal.error);
          action = { type: 'MAKE_MOVE', payload: { type: m.move, args: [legal.arg], playerID: p } };
        }
        const next = compare(s, action);
        if (next.ctx.turn !== s.ctx.turn) seen.turns++;
        if (next.ctx.phase !== s.ctx.phase && next.ctx.gameover === undefined) seen.phases++;
        if (next.ctx.turn === s.ctx.turn && JSON.stringify(next.ctx.activePlayers) !== JSON.stringify(s.ctx.activePlayers)) seen.stages++;
        s = next;
      }
      seen.ends++;
    }
    // Every kind of transition was met, many times.
    expect(seen.ends).toBe(GAMES);
    expect(Math.min(seen.resign, seen.timeout, seen.forfeit, seen.abort)).toBeGreaterThanOrEqual(Math.floor(GAMES / 16));
    expect(Math.min(seen.turns, seen.phases, seen.stages)).toBeGreaterThan(GAMES);
  });

  it("ends the game when a player resigns while the other decides, and changes nothing else", () => {
    const rng = botRng(7);
    let s = initialState(Watergate as never, 'advance-anytime');
    for (let n = 0; n < 30; n++) {
      const p = s.G.prompt!.player;
      const moves = Watergate.ai!.enumerate(s.G, s.ctx, p) as { move: string; args: unknown[] }[];
      const m = moves[rng.int(moves.length)];
      s = advance(s, { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: p } }).state;
    }
    const waiting = s.G.prompt!.player === '0' ? '1' : '0';
    const { state: end, deltalog } = advance(s, { type: 'MAKE_MOVE', payload: { type: 'resign', args: [], playerID: waiting } });
    expect(end.ctx.gameover).toEqual({ winner: s.G.prompt!.player, reason: 'resigned' });
    expect(end.G.winner).toBe(s.G.prompt!.player);
    expect(end.ctx.activePlayers).toEqual(s.ctx.activePlayers);
    expect(end.ctx._activePlayersNumMoves).toEqual(s.ctx._activePlayersNumMoves);
    expect(end._stateID).toBe(s._stateID + 1);
    expect(deltalog.map((e) => e.action.payload.type)).toEqual(['resign', 'endPhase']);
    const { winner: _w, endReason: _r, phase: _p, prompt: _pr, log, ...G } = end.G;
    const { winner: _w2, endReason: _r2, phase: _p2, prompt: _pr2, log: log0, ...G0 } = s.G;
    expect(G).toEqual(G0);
    expect(log.slice(0, log0.length)).toEqual(log0);
  });
});
