/**
 * What a bot's lines carry of a match: the seat's view — exactly boardgame.io's playerView of the state
 * the server holds (game/infostate.ts `hide`, the function Watergate.playerView calls), never the state —
 * and the seat's legal actions computed from that view alone, each with its stable id (game/actions.ts).
 */
import type { State } from 'boardgame.io';
import { actionOf, legalActionsOfView } from '../../../game/api';
import { playerView, type PlayerID, type WatergateState, type WatergateView } from '../../../game/index';
import { openSeat } from '../../../protocol/index';
import { matchStatus } from '../../lobby/public';
import type { MatchData } from '../../storage/types';

export interface LegalAction {
  id: number;
  move: string;
  args: unknown[];
  /** The move as text (its name and argument): for logs and people, not for parsing. */
  text: string;
}

export const viewOf = (state: State<WatergateState>, seat: PlayerID): WatergateView => playerView(state.G, seat) as WatergateView;

export function legalOf(view: WatergateView): LegalAction[] {
  return legalActionsOfView(view).map((id) => {
    const a = actionOf(id)!;
    const args = a.args ?? [];
    return { id, move: a.move, args, text: args.length ? `${a.move} ${JSON.stringify(args[0])}` : a.move };
  });
}

/** The game's end as the lines say it: the winner seat (or null) and why; undefined while it goes on. */
export function finishOf(state: State<WatergateState>): { winner: PlayerID | null; reason: string } | undefined {
  const over = state.ctx.gameover as { winner?: unknown; reason?: unknown } | undefined;
  if (over === undefined) return undefined;
  return { winner: over.winner === '0' || over.winner === '1' ? over.winner : null, reason: typeof over.reason === 'string' ? over.reason : '' };
}

/** Whether play has begun: both seats are taken (until then the move path refuses every move). */
export const started = (metadata: MatchData): boolean => openSeat(Object.values(metadata.players)) === null;

/** One line of a game stream for the seat: `gameFull` (on opening) or `gameState`. */
export function stateLine(type: 'gameFull' | 'gameState', matchID: string, seat: PlayerID, state: State<WatergateState>, metadata: MatchData): Record<string, unknown> {
  const view = viewOf(state, seat);
  const over = finishOf(state);
  const clock = matchStatus(matchID, metadata).clock;
  const playing = started(metadata);
  return {
    type,
    ...(type === 'gameFull' ? { matchID, seat } : {}),
    stateID: state._stateID,
    started: playing,
    view,
    legal: over || !playing ? [] : legalOf(view),
    ...(clock ? { clock } : {}),
    ...(over ? { status: over } : {}),
  };
}
