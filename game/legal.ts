/** Every legal move of a player, with its arguments: ai.enumerate for boardgame.io's bots, and the board's choices. */
import { decisionFor } from './decisions';
import type { MoveChoice, PlayerID, WatergateState } from './types';

export function legalMoves(G: WatergateState, p: PlayerID): MoveChoice[] {
  const pr = G.prompt;
  if (G.winner !== null || !pr || pr.player !== p) return [];
  const d = decisionFor(pr);
  return d.options(G, p, pr).map((arg) => ({ move: d.move, args: [arg] }));
}
