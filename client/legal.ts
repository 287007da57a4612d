/**
 * The board's legal choices come from the engine's own `legalMoves`, never from rules in components.
 * The client only holds its player's view, so this adapter dresses the view up as a state for that one
 * player: everything `legalMoves` reads for the deciding player is in their view (the public state, their
 * own hand, their drawn card and peeked tokens). Face-down track tokens stay anonymous (id null) for the
 * Editor: the engine already names them blind as { hidden: k } and never reads their colour for him.
 * test/client/legal.test.ts checks that this gives exactly the moves of the full state.
 */
import { legalMoves, type MoveChoice, type PlayerID, type WatergateState, type WatergateView } from '../game';

export function viewAsState(view: WatergateView, player: PlayerID): WatergateState {
  const other: PlayerID = player === '0' ? '1' : '0';
  return {
    ...view,
    hands: { [player]: view.hands[player] ?? [], [other]: [] } as Record<PlayerID, string[]>,
    decks: { '0': [], '1': [] },
    bag: [],
    track: { ...view.track, evidence: view.track.evidence.map((t) => ({ ...t, id: t.id as string })) },
    peek: view.peek && view.peek.player === player ? { player, tokens: view.peek.tokens ?? [] } : null,
    drawnCard: view.drawnCard && view.drawnCard.card !== null ? { player: view.drawnCard.player, card: view.drawnCard.card } : null,
  };
}

/** Every legal move of the viewing player, as the engine lists them. */
export function legalMovesFromView(view: WatergateView, player: PlayerID | null): MoveChoice[] {
  if (player === null || view.prompt?.player !== player || view.winner !== null) return [];
  return legalMoves(viewAsState(view, player), player);
}
