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
 * - each seat's update is filtered once and sent to that seat's room (one encoding per seat, not per
 *   socket), as a JSON Patch from the view that room already holds (protocol/json-patch.ts) — or whole if that is simpler;
 * - match data (sync, `matchData`) shows each seat's name, presence and bot mark only (lobby/public.ts);
 *   once "play again" made a next match, everyone following the old one gets NEXT_EVENT, also on a later sync;
 * - any other event is refused.
 */
import type { Game, LogEntry, State } from 'boardgame.io';
import { getFilterPlayerView } from 'boardgame.io/internal';
import IO from 'koa-socket-2';
import type { Namespace, Server as IOServer, Socket } from 'socket.io';
import type { PlayerID } from '../../game/index';
import { ERROR_EVENT, NEXT_EVENT, STATUS_EVENT, type GuardError, type NextMatch } from '../../protocol/index';
import { matchStatus as statusOf, publicSeats } from '../lobby/public';
import type { Logger } from '../log';
import type { Limiter } from '../limits';
import type { MatchService, SyncData } from '../match/service';
import type { MatchData } from '../storage/types';
import { checkAction, isCredentials, isMatchID, isSeat, type MoveAction } from './args';
import { textOnlyParser } from './parser';
import { createPatch } from '../../protocol/json-patch';

type Filter = ReturnType<typeof getFilterPlayerView>;
interface Follower {
  matchID: string;
  seat: PlayerID | null;
  credentials: string | null;
}
const GROUPS = ['0', '1', null] as const;
const room = (matchID: string, seat: PlayerID | null | 'all') => (seat === 'all' ? matchID : `${matchID}#${seat ?? 's'}`);
/** The invitation to a next match ("play again"), when there is one. */
const nextOf = (matchID: string, m: MatchData): NextMatch | null => (m.nextMatchID ? { matchID, nextMatchID: m.nextMatchID } : null);

export class GameSockets {
  private nsp!: Namespace;
  private io!: IOServer;
  private readonly filter: Filter;
  private readonly followers = new Map<string, Follower>();
  /** `${matchID}#${seat}` → sockets of that seat in this process (presence is per seat, not per tab). */
  private readonly seatSockets = new Map<string, number>();
  /** The view each room of a match was last sent (the base of the next patch), per match and room. */
  private readonly views = new Map<string, Map<string, { stateID: number; view: State }>>();
  private stopping = false;

  constructor(
    private readonly o: { game: Game; service: MatchService; log: Logger; limiter: Limiter; trustProxy: boolean; socketOpts: object },
  ) {
    this.filter = getFilterPlayerView(o.game);
    o.service.setDelivery({
      update: (matchID, state, deltalog, prev) => this.deliverUpdate(matchID, state, deltalog, prev),
      matchData: (matchID, metadata) => {
        const to = this.nsp.to(room(matchID, 'all'));
        to.emit('matchData', matchID, publicSeats(metadata));
        const next = nextOf(matchID, metadata);
        if (next) to.emit(NEXT_EVENT, next);
      },
      status: (matchID, metadata) => this.nsp.to(room(matchID, 'all')).emit(STATUS_EVENT, statusOf(matchID, metadata)),
      chat: (matchID, message) => this.nsp.to(room(matchID, 'all')).emit('chat', matchID, message),
      resync: (matchID) => {
        this.views.delete(matchID);
        for (const id of this.nsp.adapter.rooms.get(room(matchID, 'all')) ?? []) {
          const s = this.nsp.sockets.get(id);
          if (s) void this.resync(s);
        }
      },
    });
  }

  /** boardgame.io's transport interface: called once by Server(). */
  init(app: { context: Record<string, unknown>; _io?: IOServer }, games: Game[]): void {
    // A closed page or a lost server is seen at once (the connection closes); a connection that silently
    // died is noticed by pings within half a minute. Shorter pings drop slow but live players (measured:
    // a 5 s timeout broke browser sessions on this busy machine).
    const io = new IO({ ioOptions: { pingTimeout: 20_000, pingInterval: 10_000, parser: textOnlyParser, ...this.o.socketOpts } });
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
      else if (event === 'chat') void run(() => this.chat(socket, args));
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
    const f: Follower = { matchID, seat, credentials: (credentials as string | undefined) ?? null };
    const before = this.followers.get(socket.id);
    if (before && (before.matchID !== matchID || before.seat !== seat)) await this.unfollow(socket);
    let connected = false;
    const refusal = await this.o.service.sync(matchID, seat, f.credentials, (d) => {
      // Inside the match's queue: the view sent here and the patches that follow are in step.
      const fresh = !this.followers.has(socket.id);
      if (fresh) {
        this.followers.set(socket.id, f);
        socket.join(room(matchID, 'all'));
        socket.join(room(matchID, seat));
        this.o.service.follow(matchID, 1);
        if (seat !== null) {
          const key = room(matchID, seat);
          this.seatSockets.set(key, (this.seatSockets.get(key) ?? 0) + 1);
        }
      }
      // Held by this process already (a presence lease names the processes holding a seat's sockets).
      connected = seat !== null && (d.metadata.holders?.[seat] ?? []).includes(this.o.service.processID);
      this.sendSync(socket, f, d);
      // The chat kept with the match, to a socket that just came (its page may have reloaded).
      if (fresh) for (const line of d.chat) socket.emit('chat', matchID, line);
    });
    if (refusal) return this.fail(socket, refusal);
    if (seat !== null && !connected) await this.o.service.connection(matchID, seat, true);
  }

  /** The seat's view of a state, as the room of that seat was (or is now) sent it. */
  private roomView(matchID: string, seat: PlayerID | null, state: State): State {
    const cached = this.views.get(matchID)?.get(room(matchID, seat));
    if (cached?.stateID === state._stateID) return cached.view;
    return this.viewOf(seat, matchID, state);
  }

  private remember(matchID: string, seat: PlayerID | null, view: State): void {
    let m = this.views.get(matchID);
    if (!m) this.views.set(matchID, (m = new Map()));
    m.set(room(matchID, seat), { stateID: view._stateID, view });
  }

  private sendSync(socket: Socket, f: Follower, d: Pick<SyncData, 'state' | 'log' | 'metadata' | 'initialState'>): void {
    const view = this.roomView(f.matchID, f.seat, d.state);
    this.remember(f.matchID, f.seat, view);
    const out = this.filter(f.seat, {
      type: 'sync',
      args: [f.matchID, { state: d.state, log: d.log, filteredMetadata: publicSeats(d.metadata), initialState: d.initialState }],
    } as never) as unknown as { args: [string, { state: State; initialState: State }] };
    out.args[1].state = view;
    out.args[1].initialState = this.viewOf(f.seat, f.matchID, d.initialState);
    socket.emit('sync', ...out.args);
    // A page that comes (or reloads) after "play again" was asked still sees the invitation.
    const next = nextOf(f.matchID, d.metadata);
    if (next) socket.emit(NEXT_EVENT, next);
    socket.emit(STATUS_EVENT, statusOf(f.matchID, d.metadata));
  }

  private viewOf(seat: PlayerID | null, matchID: string, state: State): State {
    return (this.filter(seat, { type: 'update', args: [matchID, state] } as never) as unknown as { args: [string, State] }).args[1];
  }

  /** A fresh sync for one socket (its state was old, or the match jumped). */
  private async resync(socket: Socket): Promise<void> {
    const f = this.followers.get(socket.id);
    if (!f) return;
    const refusal = await this.o.service.sync(f.matchID, f.seat, f.credentials, (d) => this.sendSync(socket, f, d));
    if (refusal) this.fail(socket, refusal);
  }

  private async unfollow(socket: Socket): Promise<void> {
    const f = this.followers.get(socket.id);
    if (!f) return;
    this.followers.delete(socket.id);
    socket.leave(room(f.matchID, 'all'));
    socket.leave(room(f.matchID, f.seat));
    this.o.service.follow(f.matchID, -1);
    const rooms = this.nsp.adapter.rooms;
    if (!rooms.get(room(f.matchID, f.seat))?.size) this.views.get(f.matchID)?.delete(room(f.matchID, f.seat));
    if (!rooms.get(room(f.matchID, 'all'))?.size) this.views.delete(f.matchID);
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

  /** Chat is taken only from a synced seat speaking as itself (spectators read it). */
  private async chat(socket: Socket, args: unknown[]): Promise<void> {
    const [matchID, msg] = args as [unknown, { id?: unknown; sender?: unknown; payload?: unknown } | undefined];
    const f = this.followers.get(socket.id);
    if (!f || f.seat === null || f.matchID !== matchID || !msg || typeof msg !== 'object' || msg.sender !== f.seat)
      return this.fail(socket, { type: 'bad-request', message: 'only a seated player may chat, as themselves' });
    const refusal = await this.o.service.chat(f.matchID, f.seat, msg);
    if (refusal) this.fail(socket, refusal);
  }

  private deliverUpdate(matchID: string, state: State, deltalog: LogEntry[], prev: State): void {
    const rooms = this.nsp.adapter.rooms;
    for (const seat of GROUPS) {
      const r = room(matchID, seat);
      if (!rooms.get(r)?.size) continue;
      const out = this.filter(seat, { type: 'update', args: [matchID, { ...state, deltalog }] } as never) as { args: [string, State, LogEntry[]] };
      const [, view, log] = out.args;
      const ops = createPatch(this.roomView(matchID, seat, prev), view, 64);
      this.remember(matchID, seat, view);
      if (ops) this.nsp.to(r).emit('patch', matchID, prev._stateID, state._stateID, ops, log);
      else this.nsp.to(r).emit('update', matchID, view, log);
    }
  }

  /** Shutdown: no "disconnected" writes for every seat on the way out, then close every socket. */
  close(): void {
    this.stopping = true;
    this.io?.close();
  }
}
