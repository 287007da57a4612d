/**
 * The board's legal choices come from the engine's own `legalMoves`, never from rules in components.
 * The client only holds its player's view, so the view is refilled as a state with nothing invented
 * (game/infostate.ts, `EMPTY`): everything `legalMoves` reads for the deciding player is in their view (the
 * public state, their own hand, their drawn card and peeked tokens). Face-down track tokens stay anonymous
 * (id null) for the Editor: the engine already names them blind as { hidden: k } and never reads their
 * colour for him.
 * test/client/legal.test.ts checks that this gives exactly the moves of the full state.
 */
import { EMPTY, legalMoves, refill, type MoveChoice, type PlayerID, type WatergateState, type WatergateView } from '../game';

function viewAsState(view: WatergateView, player: PlayerID): WatergateState {
  if (view.viewer !== player) throw new Error(`the view belongs to ${String(view.viewer)}, not ${player}`);
  return refill(view, EMPTY);
}

/** Every legal move of the viewing player, as the engine lists them. */
export function legalMovesFromView(view: WatergateView, player: PlayerID | null): MoveChoice[] {
  if (player === null || view.prompt?.player !== player || view.winner !== null) return [];
  return legalMoves(viewAsState(view, player), player);
}

/** A move as text, the same whatever order its argument's fields were written in (to compare moves). */
export function moveKey(m: MoveChoice): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify([m.move, canon(m.args[0])]);
}
