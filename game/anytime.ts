/**
 * The one boardgame.io adjustment every replay of a stored move needs, shared by the server (its move path
 * and catch-up, server/match/replay.ts) and the browser's replay page, so both rebuild the same states.
 */
import type { Ctx } from 'boardgame.io';
import { ANYTIME_MOVES } from './engine';

/**
 * The ctx boardgame.io's reducer is handed for a move: always a copy, because the reducer changes a few of
 * the previous ctx's objects in place (the active players' move counts, stages), which would rewrite the
 * state the caller holds (or throw, on a state Immer froze). A player may resign at any moment, also while
 * the other decides, and the server ends a game whose clock ran out (`timeout`): boardgame.io only lets
 * active players move, so that player is made active in the move's own stage for this one action (the
 * engine has checked the rest; the game ends with it).
 */
export function ctxForMove(ctx: Ctx, move: { type?: string; playerID?: string } | undefined): Ctx {
  const copy = structuredClone(ctx);
  const type = move?.type;
  if (type !== undefined && move?.playerID !== undefined && ANYTIME_MOVES.includes(type)) {
    const p = move.playerID;
    Object.assign(copy, { activePlayers: { [p]: type }, _activePlayersNumMoves: { [p]: 0 }, _activePlayersMinMoves: null, _activePlayersMaxMoves: null });
  }
  return copy;
}
