/**
 * Every state of a finished match, rebuilt in the browser from its replay (protocol/replay.ts): the stored
 * initial state (with the PRNG seed in its random plugin data) and each move through the game's own
 * transition (game/advance.ts), the one the server ran, so the draws and shuffles come out as they did.
 */
import type { State } from 'boardgame.io';
import { advance, type WatergateState } from '../../game';
import type { ReplayData } from '../../protocol/replay';

export type ReplayState = State<WatergateState>;

/** States 0…n (state k: after the k-th move). Throws when a move does not replay: the data is not this game's. */
export function replayStates(data: ReplayData): ReplayState[] {
  let state = data.initialState as ReplayState;
  const out = [state];
  for (const m of data.moves) {
    if (m.stateID !== state._stateID + 1) throw new Error(`move ${m.stateID} (${m.move}) does not follow state ${state._stateID}`);
    state = advance(state, { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: m.playerID } }).state;
    out.push(state);
  }
  return out;
}
