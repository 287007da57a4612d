/**
 * Every state of a finished match, rebuilt in the browser from its replay (protocol/replay.ts): the stored
 * initial state (with the PRNG seed in its random plugin data) and each move through the game's own
 * transition (game/advance.ts), the one the server ran, so the draws and shuffles come out as they did.
 * A take-back (`undo`) is a step of its own: the earlier state it names, again (game/undo.ts).
 */
import type { State } from 'boardgame.io';
import type { WatergateState } from '../../game';
import { replayStep, UNDO_MOVE, undoTarget } from '../../game/undo';
import type { ReplayData } from '../../protocol/replay';

export type ReplayState = State<WatergateState>;

/** States 0…n (state k: after the k-th move). Throws when a move does not replay: the data is not this game's. */
export function replayStates(data: ReplayData): ReplayState[] {
  let state = data.initialState as ReplayState;
  const out = [state];
  for (const m of data.moves) {
    if (m.stateID !== state._stateID + 1) throw new Error(`move ${m.stateID} (${m.move}) does not follow state ${state._stateID}`);
    state = replayStep(state, { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: m.playerID } }, (id) => out[id - out[0]._stateID]);
    out.push(state);
  }
  return out;
}

/**
 * The steps a later take-back undid (shown greyed, "taken back"): for each take-back at step k back to
 * step j, the steps j+1 … k-1. Steps are numbered as replayStates' states (step n: after the n-th move).
 */
export function takenBackSteps(data: ReplayData): Set<number> {
  const out = new Set<number>();
  const first = (data.initialState as ReplayState)._stateID;
  data.moves.forEach((m, i) => {
    if (m.move !== UNDO_MOVE) return;
    const to = undoTarget({ type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: m.playerID } })! - first;
    for (let k = to + 1; k <= i; k++) out.add(k);
  });
  return out;
}
