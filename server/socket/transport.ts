/**
 * The parts of boardgame.io's SocketIO transport (0.50.2) that the guard drives. They are plain
 * properties in the shipped JS but not in its typings; naming them here keeps the casts in one place.
 */
import type { Server as IOServer, Socket } from 'socket.io';
import type { SocketIO } from 'boardgame.io/server';

export interface ClientInfo {
  socket: Socket;
  matchID: string;
  playerID: string | null | undefined;
  credentials: string | undefined;
}

export interface TransportInternals {
  clientInfo: Map<string, ClientInfo>;
  roomInfo: Map<string, Set<string>>;
  pubSub: { publish(channel: string, payload: unknown): void };
  getMatchQueue(matchID: string): { add<T>(fn: () => Promise<T>): Promise<T>; onIdle(): Promise<void>; size: number; pending: number };
  perMatchQueue: Map<string, { onIdle(): Promise<void> }>;
  addClient(client: ClientInfo, game: unknown): void;
  removeClient(socketID: string): void;
}

export const internals = (t: SocketIO) => t as unknown as TransportInternals;

/** koa-socket-2 keeps the socket.io server on the Koa app. */
export const ioOf = (app: object) => (app as { _io: IOServer })._io;
