/**
 * The game's socket.io endpoint, as boardgame.io's transport (Server() calls `init`), speaking
 * boardgame.io's client protocol (sync, update, matchData, chat) but running every request through the
 * match service. What it adds to stock 0.50.2 (its holes: docs/ARCHITECTURE.md "Security"):
 * - payload shapes are checked; a bad one gets a `watergate:error` event and goes no further;
 * - `sync` for an unknown match creates nothing; a seat's sync needs its credentials; a spectator
 *   gets the spectator view; `initialState` goes through the receiver's view like `state`;
 * - a move is accepted only from a socket that synced as that seat, with `payload.playerID` equal to it,
 *   only as a move (no events, undo or redo), only on the current state and only if the rules allow it;
 *   otherwise the client is told why and, when its state is old, resynced;
 * - each seat's update is filtered once and sent to that seat's room (one encoding per seat, not per socket);
 * - any other event is refused.
 */
import type { Game, LogEntry, State } from 'boardgame.io';
import { getFilterPlayerView } from 'boardgame.io/internal';
import IO from 'koa-socket-2';
import type { Namespace, Server as IOServer, Socket } from 'socket.io';
import type { PlayerID } from '../../game/index';
import { ERROR_EVENT, type GuardError } from '../../protocol/index';
import type { Logger } from '../log';
import type { MatchService } from '../match/service';
import type { MatchData } from '../storage/types';
import { checkAction, isCredentials, isMatchID, isSeat, type MoveAction } from './args';

type Filter = ReturnType<typeof getFilterPlayerView>;
interface Follower {
  matchID: string;
  seat: PlayerID | null;
  credentials: string | null;
}
const GROUPS = ['0', '1', null] as const;
const room = (matchID: string, seat: PlayerID | null | 'all') => (seat === 'all' ? matchID : `${matchID}#${seat ?? 's'}`);
export const publicMatchData = (m: MatchData) => Object.values(m.players).map(({ credentials: _c, ...p }) => p);

export class GameSockets {
  private nsp!: Namespace;
  private io!: IOServer;
  private readonly filter: Filter;
  private readonly followers = new Map<string, Follower>();
  /** `${matchID}#${seat}` → sockets of that seat in this process (presence is per seat, not per tab). */
  private readonly seatSockets = new Map<string, number>();
  private stopping = false;

  constructor(
    private readonly o: { game: Game; service: MatchService; log: Logger; socketOpts: object },
  ) {
    this.filter = getFilterPlayerView(o.game);
    o.service.setDelivery({
      update: (matchID, state, deltalog) => this.deliverUpdate(matchID, state, deltalog),
      matchData: (matchID, metadata) => this.nsp.to(room(matchID, 'all')).emit('matchData', matchID, publicMatchData(metadata)),
      chat: (matchID, message) => this.nsp.to(room(matchID, 'all')).emit('chat', matchID, message),
      resync: (matchID) => {
        for (const id of this.nsp.adapter.rooms.get(room(matchID, 'all')) ?? []) {
          const s = this.nsp.sockets.get(id);
          if (s) void this.resync(s);
        }
      },
    });
  }

  /** boardgame.io's transport interface: called once by Server(). */
  init(app: { context: Record<string, unknown>; _io?: IOServer }, games: Game[]): void {
    const io = new IO({ ioOptions: { pingTimeout: 20_000, pingInterval: 10_000, ...this.o.socketOpts } });
    app.context.io = io;
    io.attach(app);
    this.io = app._io!;
    this.nsp = this.io.of(games[0].name!);
    this.nsp.on('connection', (socket: Socket) => this.connected(socket));
  }

  get openSockets(): number {
    return this.nsp?.sockets.size ?? 0;
  }

  private fail(socket: Socket, e: GuardError): void {
    socket.emit(ERROR_EVENT, e);
    this.o.log.info({ socket: socket.id, matchID: e.matchID, type: e.type, reason: e.message }, 'socket request refused');
  }

  private connected(socket: Socket): void {
    socket.use((packet, next) => {
      const [event, ...args] = packet as unknown as [string, ...unknown[]];
      const run = (fn: () => Promise<void>) =>
        fn().catch((e: unknown) => {
          this.o.log.error({ err: e, event, socket: socket.id }, 'socket handler failed');
          socket.emit(ERROR_EVENT, { type: 'server-error', message: 'the server could not handle this request' } satisfies GuardError);
        });
      if (event === 'sync') void run(() => this.sync(socket, args));
      else if (event === 'update') void run(() => this.update(socket, args));
      else if (event === 'chat') this.chat(socket, args);
      else this.fail(socket, { type: 'bad-request', message: `"${String(event).slice(0, 40)}" is not accepted` });
      void next; // nothing reaches socket.io's own handlers
    });
    socket.on('disconnect', () => {
      if (!this.stopping) void this.unfollow(socket).catch((e: unknown) => this.o.log.error({ err: e }, 'disconnect handling failed'));
    });
  }

  private async sync(socket: Socket, args: unknown[]): Promise<void> {
    const [matchID, playerID, credentials] = args;
    if (!isMatchID(matchID)) return this.fail(socket, { type: 'bad-request', message: 'sync needs a match ID' });
    if (playerID !== null && playerID !== undefined && !isSeat(playerID))
      return this.fail(socket, { matchID, type: 'bad-request', message: 'playerID must be "0", "1" or absent (spectator)' });
    if (credentials !== undefined && credentials !== null && !isCredentials(credentials))
      return this.fail(socket, { matchID, type: 'bad-request', message: 'credentials must be a string' });
    const seat = isSeat(playerID) ? playerID : null;
    const data = await this.o.service.sync(matchID, seat, (credentials as string | undefined) ?? null);
    if ('type' in data) return this.fail(socket, data);
    await this.unfollow(socket);
    const f: Follower = { matchID, seat, credentials: (credentials as string | undefined) ?? null };
    this.followers.set(socket.id, f);
    socket.join(room(matchID, 'all'));
    socket.join(room(matchID, seat));
    this.o.service.follow(matchID, 1);
    this.sendSync(socket, f, data);
    if (seat !== null) {
      const key = room(matchID, seat);
      const n = (this.seatSockets.get(key) ?? 0) + 1;
      this.seatSockets.set(key, n);
      if (n === 1 || data.metadata.players[seat as unknown as number]?.isConnected !== true) await this.o.service.connection(matchID, seat, true);
    }
  }

  private sendSync(socket: Socket, f: Follower, d: { state: State; log: LogEntry[]; metadata: MatchData; initialState: State }): void {
    const out = this.filter(f.seat, {
      type: 'sync',
      args: [f.matchID, { state: d.state, log: d.log, filteredMetadata: publicMatchData(d.metadata), initialState: d.initialState }],
    } as never) as unknown as { args: [string, { initialState: State }] };
    out.args[1].initialState = this.viewOf(f.seat, f.matchID, d.initialState);
    socket.emit('sync', ...out.args);
  }

  private viewOf(seat: PlayerID | null, matchID: string, state: State): State {
    return (this.filter(seat, { type: 'update', args: [matchID, state] } as never) as unknown as { args: [string, State] }).args[1];
  }

  /** A fresh sync for one socket (its state was old, or the match jumped). */
  private async resync(socket: Socket): Promise<void> {
    const f = this.followers.get(socket.id);
    if (!f) return;
    const d = await this.o.service.sync(f.matchID, f.seat, f.credentials);
    if ('type' in d) return this.fail(socket, d);
    this.sendSync(socket, f, d);
  }

  private async unfollow(socket: Socket): Promise<void> {
    const f = this.followers.get(socket.id);
    if (!f) return;
    this.followers.delete(socket.id);
    socket.leave(room(f.matchID, 'all'));
    socket.leave(room(f.matchID, f.seat));
    this.o.service.follow(f.matchID, -1);
    if (f.seat === null) return;
    const key = room(f.matchID, f.seat);
    const n = (this.seatSockets.get(key) ?? 1) - 1;
    if (n > 0) return void this.seatSockets.set(key, n);
    this.seatSockets.delete(key);
    await this.o.service.connection(f.matchID, f.seat, false);
  }

  private async update(socket: Socket, args: unknown[]): Promise<void> {
    const [action, stateID, matchID, playerID] = args;
    if (!isMatchID(matchID)) return this.fail(socket, { type: 'bad-request', message: 'a move needs a match ID' });
    const f = this.followers.get(socket.id);
    if (!isSeat(playerID) || !f || f.matchID !== matchID || f.seat !== playerID)
      return this.fail(socket, { matchID, type: 'unauthorized', message: 'sync with this seat and its credentials before moving' });
    const bad = checkAction(action);
    if (bad) return this.fail(socket, { matchID, type: 'bad-request', message: bad });
    const move = action as MoveAction;
    if (move.payload.playerID !== playerID)
      return this.fail(socket, { matchID, type: 'unauthorized', message: `a move of seat ${playerID} cannot be made as seat ${String(move.payload.playerID)}` });
    if (!Number.isInteger(stateID)) return this.fail(socket, { matchID, type: 'bad-request', message: 'stateID must be an integer' });
    const credentials = typeof move.payload.credentials === 'string' ? move.payload.credentials : '';
    const refusal = await this.o.service.move({ matchID, playerID, credentials, type: move.payload.type, arg: (move.payload.args ?? [])[0], stateID: stateID as number });
    if (!refusal) return;
    this.fail(socket, refusal);
    if (refusal.type === 'stale' || refusal.type === 'server-error') await this.resync(socket);
  }

  /** Chat is relayed only from a synced seat speaking as itself. */
  private chat(socket: Socket, args: unknown[]): void {
    const [matchID, msg] = args as [unknown, { sender?: unknown; payload?: unknown } | undefined];
    const f = this.followers.get(socket.id);
    if (!f || f.seat === null || f.matchID !== matchID || !msg || typeof msg !== 'object' || msg.sender !== f.seat || JSON.stringify(msg.payload ?? null).length > 2000)
      return this.fail(socket, { type: 'bad-request', message: '"chat" is not accepted' });
    this.o.service.chat(matchID, msg);
  }

  private deliverUpdate(matchID: string, state: State, deltalog: LogEntry[]): void {
    const rooms = this.nsp.adapter.rooms;
    for (const seat of GROUPS) {
      const r = room(matchID, seat);
      if (!rooms.get(r)?.size) continue;
      const out = this.filter(seat, { type: 'update', args: [matchID, { ...state, deltalog }] } as never) as { args: unknown[] };
      this.nsp.to(r).emit('update', ...out.args);
    }
  }

  /** Shutdown: no "disconnected" writes for every seat on the way out, then close every socket. */
  close(): void {
    this.stopping = true;
    this.io?.close();
  }
}
