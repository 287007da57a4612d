/**
 * Stored moves replayed with the game's own transition (game/advance.ts, as the move path applies them;
 * a take-back returns to the earlier state it names, game/undo.ts): how a match is rebuilt from its
 * snapshot, how a process catches up with moves another process saved, and how tests and tools read a
 * stored match.
 */
import type { LogEntry, State } from 'boardgame.io';
import type { WatergateState } from '../../game/index';
import { replayStep } from '../../game/undo';
import type { MatchStore, MoveRow } from '../storage/types';

export type Replayer = (state: State, moves: MoveRow[], onEach?: (s: State, log: LogEntry[], row: MoveRow) => void, earlier?: (stateID: number) => State | undefined) => State;

/**
 * Replays stored moves on a state; a row that does not follow its predecessor means corrupt data. A
 * take-back finds the state it returns to among those replayed here, else through `earlier` (the line a
 * served match keeps); game/undo.ts MissingStateError when neither holds it.
 */
export const replay: Replayer = (state, moves, onEach, earlier) => {
  const seen = new Map<number, State>([[state._stateID, state]]);
  const find = (id: number) => (seen.get(id) ?? earlier?.(id)) as State<WatergateState> | undefined;
  for (const row of moves) {
    if (row.stateID !== state._stateID + 1) throw new Error(`stored moves skip from state ${state._stateID} to ${row.stateID}`);
    state = replayStep(state as State<WatergateState>, row.action, find);
    seen.set(state._stateID, state);
    onEach?.(state, row.log, row);
  }
  return state;
};

/** A stored match as it stands: the snapshot with the later moves replayed (tests, tools). */
export async function readMatch(store: MatchStore, matchID: string) {
  const m = await store.load(matchID, { log: true, initialState: true });
  if (!m) return undefined;
  const state = replay(m.snapshot, m.moves);
  return { state, metadata: m.metadata, log: m.log!, initialState: m.initialState!, seatsVersion: m.seatsVersion };
}
