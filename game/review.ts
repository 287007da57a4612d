/**
 * A decision of a played game as its decider saw it — the one input of its review by our bot (the replay
 * page's analysis in the browser, the server's cached analysis): the decider's own information state of
 * the position before the move (`hide`, boardgame.io's playerView: never the other hand, the decks, the bag
 * or a token the decider could not see) and the move made. Shared so that both judge exactly the same thing.
 */
import { SERVER_MOVES } from './engine';
import { UNDO_MOVE } from './undo';
import { hide } from './infostate';
import type { MoveChoice, PlayerID, WatergateState, WatergateView } from './types';

export interface SeenDecision {
  decider: PlayerID;
  view: WatergateView;
  played: MoveChoice;
}

/**
 * `G`: the state the move was made in. Null for what is no choice among the prompt's moves: resigning, a
 * clock running out, a take-back, a move by anyone but the player the prompt waits for.
 */
export function decisionSeen(G: WatergateState, m: { playerID: string; move: string; args: unknown[] }): SeenDecision | null {
  if (m.move === 'resign' || m.move === UNDO_MOVE || (SERVER_MOVES as readonly string[]).includes(m.move) || G.prompt?.player !== m.playerID) return null;
  const decider = m.playerID as PlayerID;
  return { decider, view: hide(G, decider), played: { move: m.move, args: m.args } as MoveChoice };
}
