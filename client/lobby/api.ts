/** boardgame.io's LobbyClient against the server this page came from (the Lobby REST API, same origin). */
import { LobbyClient } from 'boardgame.io/client';
import type { PlayerID } from '../../game';
import { holdSeat } from './seats';

export const GAME = 'watergate';
export const lobby = new LobbyClient({ server: window.location.origin });

export type MatchSummary = Awaited<ReturnType<LobbyClient['listMatches']>>['matches'][number];

/** Joins a seat and remembers its credentials. */
export async function joinSeat(matchID: string, playerID: PlayerID, name: string): Promise<void> {
  const { playerCredentials } = await lobby.joinMatch(GAME, matchID, { playerID, playerName: name });
  holdSeat({ matchID, playerID, credentials: playerCredentials, name });
}

/** A readable error from a failed lobby call (LobbyClient throws with the server's status and message). */
export function errorText(e: unknown): string {
  if (e && typeof e === 'object' && 'details' in e) {
    const d = (e as { details?: unknown }).details;
    if (d && typeof d === 'object' && 'error' in d) return String((d as { error: unknown }).error);
    if (typeof d === 'string' && d) return d;
  }
  return e instanceof Error ? e.message : String(e);
}
