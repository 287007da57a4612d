/**
 * What one server process tells the others about a match, when several share one PostgreSQL: only ids
 * (a move was saved up to state N, the seats changed) and the players' chat lines (each process
 * delivers those to the seats' sockets only). No game secret travels:
 * a process that hears of a move reads the move rows from storage and replays them itself
 * (docs/ARCHITECTURE.md "Several processes"). Without REDIS_URL the bus is local and carries nothing.
 */
import { randomBytes } from 'node:crypto';

export type BusMessage =
  | { t: 'move'; matchID: string; stateID: number }
  | { t: 'meta'; matchID: string }
  | { t: 'chat'; matchID: string; chat: unknown }
  /** A line of the match's spectators' room (socket/watchers.ts): for the spectators' sockets only, kept nowhere. */
  | { t: 'watchers'; matchID: string; line: unknown }
  /**
   * A line of an account's event stream (server/challenges/events.ts), on the pseudo-match channel
   * `~account:<id>` that a process subscribes to while it holds one of that account's streams. Ids and
   * public challenge fields only.
   */
  | { t: 'account'; matchID: string; line: unknown };

export type BusStatus = 'none' | 'ok' | 'down';

export interface Bus {
  readonly kind: 'local' | 'redis';
  /** This process's id on the bus (its own messages are not delivered back to it). */
  readonly id: string;
  status(): BusStatus;
  /** Fire and forget: a message that cannot be sent is counted, never awaited by a move. */
  publish(msg: BusMessage): void;
  /**
   * Messages about this match from other processes reach `onMessage` until `unsubscribe`; resolves once
   * they do (a news published before that is not heard).
   */
  subscribe(matchID: string): Promise<void>;
  unsubscribe(matchID: string): void;
  onMessage(fn: (msg: BusMessage) => void): void;
  /** After an outage: messages may have been missed, caches must be checked. */
  onReconnect(fn: () => void): void;
  close(): Promise<void>;
}

export const processId = (): string => randomBytes(6).toString('base64url');

/** One process: nobody to tell. */
export function localBus(): Bus {
  return {
    kind: 'local',
    id: processId(),
    status: () => 'none',
    publish: () => undefined,
    subscribe: async () => undefined,
    unsubscribe: () => undefined,
    onMessage: () => undefined,
    onReconnect: () => undefined,
    close: async () => undefined,
  };
}
