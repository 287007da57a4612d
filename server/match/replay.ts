/**
 * Stored moves replayed with the game's own transition (game/advance.ts, as the move path applies them):
 * how a match is rebuilt from its snapshot, how a process catches up with moves another process saved,
 * and how tests and tools read a stored match.
 */
import type { LogEntry, State } from 'boardgame.io';
import { advance, type WatergateState } from '../../game/index';
import type { MatchStore, MoveRow } from '../storage/types';

export type Replayer = (state: State, moves: MoveRow[], onEach?: (s: State, log: LogEntry[]) => void) => State;

/** Replays stored moves on a state; a row that does not follow its predecessor means corrupt data. */
export const replay: Replayer = (state, moves, onEach) => {
  for (const row of moves) {
    if (row.stateID !== state._stateID + 1) throw new Error(`stored moves skip from state ${state._stateID} to ${row.stateID}`);
    state = advance(state as State<WatergateState>, row.action).state;
    onEach?.(state, row.log);
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
