/**
 * One playout harness for tests, tools and benchmarks: a **driver** says who decides, what they may do and
 * what a move leads to (the pure engine; the server's advance; boardgame.io's reducer, as local play runs
 * it), a **chooser**
 * picks among the legal moves, and `playout` yields every decision before its move — the per-move hook is
 * whatever the caller does with each step.
 *
 *   for (const step of playout(engineDriver(rng), newGame({}, rng), randomChooser(rng))) { … }
 *   const end = playToEnd(advanceDriver(), initialState(Watergate, 'seed'), chooser);
 */
import type { Game, State } from 'boardgame.io';
import { CreateGameReducer, InitializeGame, ProcessGameConfig } from 'boardgame.io/internal';
import { advanceMove, applyMove, legalMoves, type MoveChoice, type PlayerID, type SetupData, type WatergateState } from '../game/index';
import type { Rng } from '../game/types';

export interface Driver<S> {
  /** Who must decide now, or null when the game is over. */
  decider(s: S): PlayerID | null;
  moves(s: S, p: PlayerID): MoveChoice[];
  /** The state after the move (the engine driver changes the state in place and returns it). */
  apply(s: S, p: PlayerID, m: MoveChoice): S;
  /** The game's round, for round limits. */
  round(s: S): number;
}

export type Chooser = (moves: MoveChoice[], player: PlayerID) => MoveChoice;

export interface Step<S> {
  /** The state before the move (the engine driver's state is live: copy what must be kept). */
  state: S;
  player: PlayerID;
  moves: MoveChoice[];
  /** Moves made so far. */
  n: number;
}

/** The pure engine (game/engine.ts), drawing with `rng`. */
export function engineDriver(rng: Rng): Driver<WatergateState> {
  return {
    decider: (G) => (G.winner === null && G.prompt ? G.prompt.player : null),
    moves: (G, p) => legalMoves(G, p),
    apply(G, p, m) {
      const refused = applyMove(G, p, m.move, m.args[0], rng);
      if (refused) throw new Error(`a legal move was refused: ${JSON.stringify(m)}: ${refused}`);
      return G;
    },
    round: (G) => G.round,
  };
}

/**
 * The server's way through a match (game/advance.ts): each move checked by the engine once
 * (`legalOption`), then applied; states it has returned stay as they were.
 */
export function advanceDriver(): Driver<State<WatergateState>> {
  return {
    decider: (s) => (s.ctx.gameover !== undefined ? null : (s.G.prompt?.player ?? null)),
    moves: (s, p) => legalMoves(s.G, p),
    apply(s, p, m) {
      const moved = advanceMove(s, p, m.move, m.args[0]);
      if ('error' in moved) throw new Error(`a legal move was refused: ${JSON.stringify(m)}: ${moved.error}`);
      return moved.state;
    },
    round: (s) => s.G.round,
  };
}

/**
 * boardgame.io's reducer with the game's flow, stages and plugins, as local play runs it (hotseat, bots,
 * the Debug panel): states it has returned stay as they were.
 */
export function reducerDriver(game: Game): Driver<State<WatergateState>> {
  const reducer = CreateGameReducer({ game: ProcessGameConfig(game) }) as unknown as (s: State, a: unknown) => State<WatergateState> & { deltalog?: unknown; transients?: unknown };
  return {
    // The engine's prompt names the player it waits for (boardgame.io's stages follow it).
    decider: (s) => (s.ctx.gameover !== undefined ? null : (s.G.prompt?.player ?? null)),
    moves: (s, p) => game.ai!.enumerate(s.G, s.ctx, p) as MoveChoice[],
    apply(s, p, m) {
      // The reducer changes a few of the given ctx's objects in place: it gets a copy of ctx.
      const next = reducer({ ...s, ctx: structuredClone(s.ctx) }, { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: p } });
      if (next._stateID === s._stateID) throw new Error(`a legal move was refused: ${JSON.stringify(m)}`);
      const { deltalog: _d, transients: _t, ...state } = next;
      return state as State<WatergateState>;
    },
    round: (s) => s.G.round,
  };
}

/** A new match as boardgame.io creates it, with its own seed. */
export const initialState = (game: Game, seed: string, setupData?: SetupData) =>
  InitializeGame({ game: { ...game, seed }, numPlayers: 2, setupData }) as State<WatergateState>;

/** Uniformly random among the legal moves, from a seeded generator. */
export const randomChooser =
  (rng: { int(n: number): number }): Chooser =>
  (moves) =>
    moves[rng.int(moves.length)];

export interface PlayoutLimits {
  maxMoves?: number;
  /** K14: the rules have no round limit; a game that reaches this one is stopped (callers report it as aborted). */
  maxRounds?: number;
}

/** Every decision of one game, each yielded before its move; returns the last state. */
export function* playout<S>(driver: Driver<S>, start: S, choose: Chooser, { maxMoves = Infinity, maxRounds = Infinity }: PlayoutLimits = {}): Generator<Step<S>, S> {
  let state = start;
  for (let n = 0; n < maxMoves && driver.round(state) <= maxRounds; n++) {
    const player = driver.decider(state);
    if (player === null) break;
    const moves = driver.moves(state, player);
    yield { state, player, moves, n };
    state = driver.apply(state, player, choose(moves, player));
  }
  return state;
}

/** Plays one game to its end (or a limit), calling `onMove` after each move with the state it led to. */
export function playToEnd<S>(
  driver: Driver<S>,
  start: S,
  choose: Chooser,
  { maxMoves = Infinity, maxRounds = Infinity }: PlayoutLimits = {},
  onMove?: (after: S, move: MoveChoice, player: PlayerID) => void,
): { state: S; moves: number } {
  let state = start;
  let n = 0;
  for (; n < maxMoves && driver.round(state) <= maxRounds; n++) {
    const player = driver.decider(state);
    if (player === null) break;
    const move = choose(driver.moves(state, player), player);
    state = driver.apply(state, player, move);
    onMove?.(state, move, player);
  }
  return { state, moves: n };
}
