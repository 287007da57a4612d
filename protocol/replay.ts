/**
 * A finished match as `GET /games/watergate/:id/replay` gives it and "Download game" saves it: the stored
 * initial state (its random plugin data holds the PRNG seed) and every move, so the game's transition
 * (game/advance.ts) rebuilds each state exactly — as boardgame.io's reducer does for every move made by
 * the player the game waited for. Nothing secret while the game is on: the route answers 403 until it is over. Never a
 * seat's credentials nor its private `data` (a webhook): names and roles only.
 */

export const REPLAY_FORMAT = 'watergate-replay/1';

/** The refusal before the end: the same words whatever the match's state, so it tells nothing. */
export const REPLAY_NOT_YET = 'a replay opens when the game is over';

export const replayPath = (matchID: string): string => `/games/watergate/${encodeURIComponent(matchID)}/replay`;

export interface ReplaySeat {
  id: '0' | '1';
  role: 'editor' | 'nixon';
  name: string | null;
}

/** One decision, as the server applied it (`stateID`: the state it produced). */
export interface ReplayMove {
  stateID: number;
  playerID: '0' | '1';
  move: string;
  args: unknown[];
}

export interface ReplayData {
  format: typeof REPLAY_FORMAT;
  matchID: string;
  setupData: unknown;
  players: ReplaySeat[];
  /** boardgame.io's State at creation (G, ctx with the seed, plugins, _stateID 0). */
  initialState: unknown;
  moves: ReplayMove[];
  /** ctx.gameover of the final state. */
  gameover: unknown;
}
