/**
 * Every state of a finished match, rebuilt in the browser from its replay (protocol/replay.ts): the stored
 * initial state (with the PRNG seed in ctx._random) and each move through boardgame.io's reducer with the
 * game's own flow — the reducer the server ran, so the draws and shuffles come out as they did.
 */
import type { State } from 'boardgame.io';
import { CreateGameReducer, ProcessGameConfig } from 'boardgame.io/internal';
import { Watergate, type WatergateState } from '../../game';
import { ctxForMove } from '../../game/anytime';
import type { ReplayData } from '../../protocol/replay';

export type ReplayState = State<WatergateState>;

/** States 0…n (state k: after the k-th move). Throws when a move does not replay: the data is not this game's. */
export function replayStates(data: ReplayData): ReplayState[] {
  const reduce = CreateGameReducer({ game: ProcessGameConfig(Watergate as never) }) as unknown as (s: State, a: unknown) => State & { transients?: unknown };
  let state = data.initialState as ReplayState;
  const out = [state];
  for (const m of data.moves) {
    const payload = { type: m.move, args: m.args, playerID: m.playerID };
    const next = reduce({ ...state, ctx: ctxForMove(state.ctx, payload) }, { type: 'MAKE_MOVE', payload });
    if (next._stateID !== m.stateID) throw new Error(`move ${m.stateID} (${m.move}) does not replay`);
    // As the server stores states: without the reducer's deltalog and transient errors.
    const { deltalog: _d, transients: _t, ...rest } = next;
    state = rest as ReplayState;
    out.push(state);
  }
  return out;
}
