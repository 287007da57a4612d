/**
 * Replaying stored moves through boardgame.io's reducer: how a match is rebuilt from its snapshot, how a
 * process catches up with moves another process saved, and how tests and tools read a stored match.
 */
import { createRequire } from 'node:module';
import type { Game, LogEntry, State } from 'boardgame.io';
import { CreateGameReducer, ProcessGameConfig } from 'boardgame.io/internal';
import { ctxForMove } from '../../game/anytime';
import type { MatchStore, MoveRow, StoredAction } from '../storage/types';

export type Reducer = ((s: State, a: unknown) => State & { transients?: unknown }) & {
  game: ProcessedGame;
  /** The state the reducer is handed for this action (see gameReducer). */
  prepare(s: State, a: StoredAction): State;
};
type ProcessedGame = ReturnType<typeof ProcessGameConfig>;
export type Replayer = (state: State, moves: MoveRow[], onEach?: (s: State, log: LogEntry[]) => void) => State;

/** The reducer's output as stored and sent: without the deltalog and the reducer's transient errors. */
export const strip = ({ deltalog: _d, transients: _t, ...rest }: State & { transients?: unknown }): State => rest as State;

/**
 * boardgame.io runs every move and hook through Immer, which by default deep-freezes each new state: an
 * eighth of the reducer's time here. The server never mutates a state it holds (the engine works on
 * Immer's drafts inside the reducer), so freezing is switched off — on the Immer instance boardgame.io
 * itself loads.
 */
const immer = createRequire(createRequire(import.meta.url).resolve('boardgame.io/internal'))('immer') as { setAutoFreeze(on: boolean): void };
immer.setAutoFreeze(false);

/**
 * boardgame.io's reducer for the game, with the processed game (its flow) beside it. The reducer changes
 * a few of the previous state's ctx objects in place (the active players' move counts, stages), which
 * would rewrite history under whoever holds that state — the base of the next patch to clients, for
 * one — so it gets a copy of ctx (a few hundred bytes) and the states it is given stay as they were.
 */
export function gameReducer(game: Game): Reducer {
  const processed = ProcessGameConfig(game);
  const reduce = CreateGameReducer({ game: processed }) as unknown as (s: State, a: unknown) => State;
  // A copy of ctx, with a player who resigns or runs out of time made active for that one action: shared
  // with the browser's replay page (game/anytime.ts), so both rebuild the same states.
  const prepare = (s: State, a: StoredAction): State => ({ ...s, ctx: ctxForMove(s.ctx, a?.payload) });
  const safe = (s: State, a: unknown) => reduce(prepare(s, a as StoredAction), a);
  return Object.assign(safe, { game: processed, prepare }) as unknown as Reducer;
}

/** Replays stored moves on a state; a row that does not produce its own state id means corrupt data. */
export function replayer(reducer: Reducer): Replayer {
  return (state, moves, onEach) => {
    for (const row of moves) {
      if (row.stateID !== state._stateID + 1) throw new Error(`stored moves skip from state ${state._stateID} to ${row.stateID}`);
      const next = reducer(state, row.action);
      if (next._stateID !== row.stateID) throw new Error(`stored move ${row.stateID} (${row.action.payload.type}) did not replay`);
      state = strip(next);
      onEach?.(state, row.log);
    }
    return state;
  };
}

/** A stored match as it stands: the snapshot with the later moves replayed (tests, tools). */
export async function readMatch(store: MatchStore, game: Game, matchID: string) {
  const m = await store.load(matchID, { log: true, initialState: true });
  if (!m) return undefined;
  const state = replayer(gameReducer(game))(m.snapshot, m.moves);
  return { state, metadata: m.metadata, log: m.log!, initialState: m.initialState!, seatsVersion: m.seatsVersion };
}
