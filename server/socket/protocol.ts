/**
 * What the socket guard says when it refuses a request: one event with a typed reason. Shared by the
 * server (guard.ts), the browser client (client/net/GameClient.tsx) and the tests; no Node imports here.
 */
export const ERROR_EVENT = 'watergate:error';

export interface GuardError {
  matchID?: string;
  type: 'bad-request' | 'not-found' | 'unauthorized' | 'stale' | 'invalid-move' | 'server-error';
  /** In English: the engine's or the guard's own words. */
  message: string;
}
