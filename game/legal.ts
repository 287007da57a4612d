/** Every legal move of a player, with its arguments: ai.enumerate for boardgame.io's bots, and the board's choices. */
import { decisionFor } from './decisions';
import { EMPTY, refill } from './infostate';
import type { MoveChoice, PlayerID, WatergateState, WatergateView } from './types';

export function legalMoves(G: WatergateState, p: PlayerID): MoveChoice[] {
  const pr = G.prompt;
  if (G.winner !== null || !pr || pr.player !== p) return [];
  const d = decisionFor(pr);
  return d.options(G, p, pr).map((arg) => ({ move: d.move, args: [arg] }));
}

/**
 * The legal moves of a view's own seat, from the view alone: refilled with nothing invented
 * (game/infostate.ts `EMPTY`), as the engine never reads what a seat cannot see when listing that seat's
 * moves (test/client/legal.test.ts). A view of another seat, or of no seat, has none for `p`.
 */
export function legalMovesOfView(view: WatergateView, p: PlayerID): MoveChoice[] {
  if (view.viewer !== p || view.prompt?.player !== p || view.winner !== null) return [];
  return legalMoves(refill(view, EMPTY), p);
}
