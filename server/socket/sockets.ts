/**
 * The game's socket.io endpoint, as boardgame.io's transport (Server() calls `init`), speaking
 * boardgame.io's client protocol (sync, update, matchData, chat) but running every request through the
 * match service. socket.io 4 runs on our own HTTP server (http.ts). What it adds to stock 0.50.2 (its
 * holes: docs/ARCHITECTURE.md "Security"):
 * - every event name and argument is type-checked before use; a bad one gets a `watergate:error` event
 *   and goes no further; the default namespace `/` admits no one;
 * - `sync` for an unknown match creates nothing; a seat's sync needs its credentials; a spectator
 *   gets the spectator view; `initialState` goes through the receiver's view like `state`;
 * - a move is accepted only from a socket that synced as that seat, with `payload.playerID` equal to it,
 *   only as a move (no events, undo or redo) of bounded size, only on the current state and only if the
 *   rules allow it; otherwise the client is told why and, when its state is old, resynced (one resync in
 *   flight per socket);
 * - a seat's authority lasts as long as the seat: when the seats change, a socket whose credentials no
 *   longer open its seat becomes a spectator at once (`revoke`);
 * - how much one client may ask is limited (guard.ts, server/limits.ts);
 * - each seat's update is filtered once and sent to that seat's room (one encoding per seat, not per
 *   socket), as a JSON Patch from the view that room already holds (protocol/json-patch.ts) — or whole if that is simpler;
 * - match data (sync, `matchData`) shows each seat's name, presence and bot mark only (lobby/public.ts);
 *   once "play again" made a next match, the old one's seated sockets get NEXT_EVENT, also on a later
 *   sync — its spectators too only when neither match is private (lobby/public.ts publicNext);
 * - the players' chat goes to the seats' sockets only (history on sync, and live), never to a spectator;
 *   spectators have a room of their own (WATCHERS_SAY / WATCHERS_EVENT, watchers.ts) that no seat hears;
 * - any other event is refused.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Game, LogEntry, State } from 'boardgame.io';
import { getFilterPlayerView } from 'boardgame.io/internal';
import { Server as IOServer, type Namespace, type ServerOptions as IOOptions, type Socket } from 'socket.io';
import type { PlayerID } from '../../game/index';
import { ERROR_EVENT, NEXT_EVENT, STATUS_EVENT, WATCHERS_EVENT, WATCHERS_SAY, roleText, seatEntry, type GuardError, type MatchStatus, type NextMatch, type WatcherLine } from '../../protocol/index';
import { authenticateCredentials } from '../auth';
import type { Bus } from '../bus/index';
import { matchStatus as statusOf, publicNext, publicSeats } from '../lobby/public';
import type { Logger } from '../log';
import type { Limiter } from '../limits';
import type { MatchService, SyncData } from '../match/service';
import type { RefusalLog } from '../refusals';
import type { MatchData } from '../storage/types';
import { checkAction, isCredentials, isMatchID, isSeat, type MoveAction } from './args';
import { SocketGuard } from './guard';
import { createHttpServer, type HttpLimits } from './http';
import { textOnlyParser } from './parser';
import { isWatcherLine, WatcherRoom } from './watchers';
import { createPatch } from '../../protocol/json-patch';

type Filter = ReturnType<typeof getFilterPlayerView>;
/** Refused moves that only the sender could have avoided (stale moves have a limit of their own). */
const SENDERS_FAULT: ReadonlySet<GuardError['type']> = new Set(['invalid-move', 'bad-request', 'unauthorized', 'not-found']);
interface Follower {
  matchID: string;
  seat: PlayerID | null;
  credentials: string | null;
}
/** What this process knows of one connection: its address (the key of its limits) and its resync. */
interface Conn {
  addr: string;
  /** The resync in flight, if any: a socket never has two (a flood of stale moves costs one). */
  resyncing: Promise<void> | null;
  again: boolean;
}
const GROUPS = ['0', '1', null] as const;
const PLAYERS = ['0', '1'] as const;
const SOCKET_PATH = '/socket.io/';
const room = (matchID: string, seat: PlayerID | null | 'all') => (seat === 'all' ? matchID : `${matchID}#${seat ?? 's'}`);
/** The invitation to a next match ("play again"), when there is one. */
const nextOf = (matchID: string, m: MatchData): NextMatch | null => (m.nextMatchID ? { matchID, nextMatchID: m.nextMatchID } : null);

export interface SocketsOptions {
  game: Game;
  service: MatchService;
  log: Logger;
  limiter: Limiter;
  trustProxy: boolean;
  refusals: RefusalLog;
  /** Carries the spectators' rooms' lines to the other processes (the match service's own bus). */
  bus: Bus;
  /** socket.io options (cors, an origin check in allowRequest, maxHttpBufferSize). */
  socketOpts: Partial<IOOptions>;
  /** Replaced HTTP timeouts and caps (http.ts), for tests. */
  httpLimits?: Partial<HttpLimits>;
}

export class GameSockets {
  private nsp!: Namespace;
  private io!: IOServer;
  private http!: HttpServer;
  private readonly filter: Filter;
  private readonly guard: SocketGuard;
  private readonly followers = new Map<string, Follower>();
  private readonly conns = new Map<string, Conn>();
  /** `${matchID}#${seat}` → sockets of that seat in this process (presence is per seat, not per tab). */
  private readonly seatSockets = new Map<string, number>();
  /** The last presence write asked for each seat (storePresence keeps them in order). */
  private readonly presenceWrites = new Map<string, Promise<unknown>>();
  /** The view each room of a match was last sent (the base of the next patch), per match and room. */
  private readonly views = new Map<string, Map<string, { stateID: number; view: State }>>();
  private readonly watchers = new WatcherRoom();
  private stopping = false;

  constructor(private readonly o: SocketsOptions) {
    this.filter = getFilterPlayerView(o.game);
    this.guard = new SocketGuard(o);
    o.service.setDelivery({
      update: (matchID, state, deltalog, prev, metadata) => this.deliverUpdate(matchID, state, deltalog, prev, metadata),
      matchData: (matchID, metadata) => {
        this.nsp.to(room(matchID, 'all')).emit('matchData', matchID, publicSeats(metadata));
        // To the seats; to the spectators too only when neither match is private (lobby/public.ts publicNext).
        const next = nextOf(matchID, metadata);
        if (next) this.nsp.to(publicNext(metadata) ? room(matchID, 'all') : PLAYERS.map((seat) => room(matchID, seat))).emit(NEXT_EVENT, next);
        this.revoke(matchID, metadata);
      },
      status: (matchID, metadata) => this.nsp.to(room(matchID, 'all')).emit(STATUS_EVENT, this.statusOf(matchID, metadata)),
      // The players' chat is theirs: the seats' rooms only (a socket there synced with its seat's credentials), never the spectators'.
      chat: (matchID, message) => this.nsp.to(PLAYERS.map((seat) => room(matchID, seat))).emit('chat', matchID, message),
      resync: (matchID) => {
        this.views.delete(matchID);
        for (const id of this.nsp.adapter.rooms.get(room(matchID, 'all')) ?? []) {
          const s = this.nsp.sockets.get(id);
          if (s) void this.resync(s);
        }
      },
    });
    o.bus.onMessage((m) => {
      if (m.t === 'watchers' && isWatcherLine(m.line)) this.toWatchers(m.matchID, m.line);
    });
  }

  /**
   * boardgame.io's transport interface: Server() calls it once, before any middleware is added and
   * before run() calls `app.listen` (which app.ts points at `listen` below). The HTTP server is ours
   * (http.ts), with socket.io 4 attached to it.
   */
  init(app: { callback(): (req: IncomingMessage, res: ServerResponse) => void }, games: Game[]): void {
    this.http = createHttpServer(() => app.callback(), SOCKET_PATH, this.o.refusals, this.o.httpLimits);
    const { allowRequest: originCheck, ...socketOpts } = this.o.socketOpts;
    // A closed page or a lost server is seen at once (the connection closes); a connection that silently
    // died is noticed by pings within half a minute. Shorter pings drop slow but live players (measured:
    // a 5 s timeout broke browser sessions on this busy machine).
    this.io = new IOServer(this.http, {
      path: SOCKET_PATH,
      serveClient: false,
      pingTimeout: 20_000,
      pingInterval: 10_000,
      // A connection that never joins the game namespace is closed.
      connectTimeout: 10_000,
      parser: textOnlyParser,
      ...socketOpts,
      allowRequest: (req, cb) => {
        const admit = () => void this.guard.admit(req).then((refusal) => cb(refusal, refusal === null));
        if (!originCheck) return admit();
        originCheck(req, (err, ok) => (ok ? admit() : cb(err, false)));
      },
    });
    this.io.engine.on('connection_error', (e: { code?: unknown; message?: unknown }) => this.o.refusals.note('engine', String(e.code), { reason: String(e.message) }));
    // The default namespace serves nothing: a client connecting there is refused, its packets dropped.
    this.io.of('/').use((_socket, next) => next(new Error(`this server speaks on /${games[0].name} only`)));
    this.nsp = this.io.of(games[0].name!);
    this.nsp.on('connection', (socket: Socket) => this.connected(socket));
  }

  /** What boardgame.io's run() calls as `app.listen`: our server, on the configured host. */
  listen(port: number, host: string, cb: () => void): HttpServer {
    return this.http.listen(port, host, cb);
  }

  get openSockets(): number {
    return this.nsp?.sockets.size ?? 0;
  }

  private connected(socket: Socket): void {
    const addr = this.guard.address(socket.handshake.address, socket.handshake.headers['x-forwarded-for']);
    this.conns.set(socket.id, { addr, resyncing: null, again: false });
    socket.use((packet, next) => {
      void next; // nothing reaches socket.io's own handlers
      const [event, ...args] = packet as unknown[];
      const handler = event === 'sync' ? this.sync : event === 'update' ? this.update : event === 'chat' ? this.chat : event === WATCHERS_SAY ? this.watchersSay : null;
      if (!handler) {
        const what = typeof event === 'string' ? `"${event.slice(0, 40)}" is not accepted` : 'an event name must be a string';
        return void this.guard.bad(socket, { type: 'bad-request', message: what }).catch((e: unknown) => this.o.log.error({ err: e }, 'refusing a request failed'));
      }
      handler.call(this, socket, args).catch((e: unknown) => {
        this.o.log.error({ err: e, event, socket: socket.id }, 'socket handler failed');
        if (socket.connected) socket.emit(ERROR_EVENT, { type: 'server-error', message: 'the server could not handle this request' } satisfies GuardError);
      });
    });
    socket.on('error', (e) => this.o.log.debug({ err: e, socket: socket.id }, 'socket error'));
    socket.on('disconnect', () => {
      this.conns.delete(socket.id);
      this.watchers.forget(socket.id);
      if (!this.stopping) void this.unfollow(socket).catch((e: unknown) => this.o.log.error({ err: e }, 'disconnect handling failed'));
    });
  }

  private async sync(socket: Socket, args: unknown[]): Promise<void> {
    const [matchID, playerID, credentials] = args;
    if (!isMatchID(matchID)) return this.guard.bad(socket, { type: 'bad-request', message: 'sync needs a match ID' });
    if (playerID !== null && playerID !== undefined && !isSeat(playerID))
      return this.guard.bad(socket, { matchID, type: 'bad-request', message: 'playerID must be "0", "1" or absent (spectator)' });
    if (credentials !== undefined && credentials !== null && !isCredentials(credentials))
      return this.guard.bad(socket, { matchID, type: 'bad-request', message: 'credentials must be a string' });
    const conn = this.conns.get(socket.id);
    if (!conn || (await this.guard.limited(socket, 'syncSocket', socket.id, matchID)) || (await this.guard.limited(socket, 'sync', conn.addr, matchID))) return;
    const seat = isSeat(playerID) ? playerID : null;
    const f: Follower = { matchID, seat, credentials: (credentials as string | undefined) ?? null };
    const before = this.followers.get(socket.id);
    if (before && (before.matchID !== matchID || before.seat !== seat)) await this.unfollow(socket);
    let connected = true;
    const refusal = await this.o.service.sync(matchID, seat, f.credentials, (d) => {
      // Stored as present and held by this process already (a presence lease names the processes
      // holding a seat's sockets): nothing to write.
      if (this.attach(socket, f, d, true))
        connected = seat === null || (seatEntry(d.metadata.players, seat)?.isConnected === true && (d.metadata.holders?.[seat] ?? []).includes(this.o.service.processID));
    });
    if (refusal) return this.guard.fail(socket, refusal);
    if (!connected) await this.storePresence(matchID, seat!);
  }

  /**
   * Inside the match's queue (service.sync): the socket follows the match as `f` and gets its view, so
   * the view sent and the patches that follow are in step. False when the socket went meanwhile.
   */
  private attach(socket: Socket, f: Follower, d: SyncData, withChat: boolean): boolean {
    // A socket that closed while its sync waited must not be counted (its seat would stay "connected").
    if (!socket.connected) return false;
    const before = this.followers.get(socket.id);
    if (before) before.credentials = f.credentials;
    else {
      this.followers.set(socket.id, f);
      socket.join(room(f.matchID, 'all'));
      socket.join(room(f.matchID, f.seat));
      this.o.service.follow(f.matchID, 1);
      if (f.seat !== null) {
        const key = room(f.matchID, f.seat);
        this.seatSockets.set(key, (this.seatSockets.get(key) ?? 0) + 1);
      }
    }
    this.sendSync(socket, before ?? f, d);
    // The chat kept with the match, to a seat's socket that just came (its page may have reloaded); a
    // spectator's never (docs/SECURITY.md "Unlisted matches and the players' chat").
    if (!before && withChat && f.seat !== null) for (const line of d.chat) socket.emit('chat', f.matchID, line);
    return true;
  }

  /**
   * The seats changed (a leave, a join, new credentials): a socket that synced as a seat with
   * credentials that no longer open it loses the seat at once — out of the seat's room (nothing more
   * of that seat reaches it), told why, and given the spectator view; its presence no longer counts.
   */
  private revoke(matchID: string, metadata: MatchData): void {
    for (const seat of ['0', '1'] as const) {
      for (const id of [...(this.nsp.adapter.rooms.get(room(matchID, seat)) ?? [])]) {
        const f = this.followers.get(id);
        const socket = this.nsp.sockets.get(id);
        if (!f || !socket || f.seat !== seat || authenticateCredentials(f.credentials, seatEntry(metadata.players, seat))) continue;
        void this.demote(socket, f, seatEntry(metadata.players, seat)?.isConnected === true).catch((e: unknown) => this.o.log.error({ err: e, matchID }, 'moving a socket to the spectators failed'));
      }
    }
  }

  private async demote(socket: Socket, f: Follower, seatConnected: boolean): Promise<void> {
    const leaving = this.unfollow(socket, seatConnected);
    this.guard.fail(socket, { matchID: f.matchID, type: 'unauthorized', message: `${roleText(f.seat!)}'s seat changed hands: your credentials no longer open it, you now watch as a spectator`, seatLost: true });
    const spectator: Follower = { matchID: f.matchID, seat: null, credentials: null };
    const refusal = await this.o.service.sync(f.matchID, null, null, (d) => void this.attach(socket, spectator, d, false));
    if (refusal) this.guard.fail(socket, refusal);
    await leaving;
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
    // A page that comes (or reloads) after "play again" was asked still sees the invitation: a seat's
    // always, a spectator's only when the next match is public.
    const next = nextOf(f.matchID, d.metadata);
    if (next && (f.seat !== null || publicNext(d.metadata))) socket.emit(NEXT_EVENT, next);
    socket.emit(STATUS_EVENT, this.statusOf(f.matchID, d.metadata));
  }

  /** The match's status event, with what each seat may take back (the match service's memory knows). */
  private statusOf(matchID: string, metadata: MatchData) {
    return statusOf(matchID, metadata, this.o.service.takeBackStatus(matchID));
  }

  private viewOf(seat: PlayerID | null, matchID: string, state: State): State {
    return (this.filter(seat, { type: 'update', args: [matchID, state] } as never) as unknown as { args: [string, State] }).args[1];
  }

  /**
   * A fresh sync for one socket (its state was old, or the match jumped). At most one is in flight per
   * socket: asked again meanwhile, one more follows it, however many times it was asked.
   */
  private resync(socket: Socket): Promise<void> {
    const c = this.conns.get(socket.id);
    if (!c) return Promise.resolve();
    if (c.resyncing) {
      c.again = true;
      return c.resyncing;
    }
    const run = async () => {
      do {
        c.again = false;
        const f = this.followers.get(socket.id);
        if (!f || !socket.connected) return;
        const refusal = await this.o.service
          .sync(f.matchID, f.seat, f.credentials, (d) => {
            if (this.followers.get(socket.id) === f) this.sendSync(socket, f, d);
          })
          .catch((e: unknown): GuardError => {
            // Storage away, say: the client is told, and asks again (nobody awaits a delivery's resync).
            this.o.log.error({ err: e, matchID: f.matchID }, 'resync failed');
            return { matchID: f.matchID, type: 'server-error', message: 'the server could not send the match: try again in a moment' };
          });
        if (refusal) this.guard.fail(socket, refusal);
      } while (c.again);
    };
    c.resyncing = run().finally(() => (c.resyncing = null));
    return c.resyncing;
  }

  /**
   * The socket no longer follows its match. When it was the seat's last socket here, the seat is marked
   * away — unless `seatConnected` says the stored seat is not marked present anyway (a seat just left).
   */
  private async unfollow(socket: Socket, seatConnected = true): Promise<void> {
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
    if (seatConnected) await this.storePresence(f.matchID, f.seat);
  }

  /**
   * Stores whether this process holds a socket of the seat, as it is when the write runs: writes for one
   * seat go one after another, so a socket leaving and another arriving (a seat changing hands, a
   * reload) end with the seat as its sockets are, whatever order their writes were asked in.
   */
  private storePresence(matchID: string, seat: PlayerID): Promise<void> {
    const key = room(matchID, seat);
    const write = () => this.o.service.connection(matchID, seat, (this.seatSockets.get(key) ?? 0) > 0);
    const p = (this.presenceWrites.get(key) ?? Promise.resolve()).then(write, write);
    const tail = p.catch(() => undefined);
    this.presenceWrites.set(key, tail);
    void tail.then(() => {
      if (this.presenceWrites.get(key) === tail) this.presenceWrites.delete(key);
    });
    return p;
  }

  private async update(socket: Socket, args: unknown[]): Promise<void> {
    const [action, stateID, matchID, playerID] = args;
    if (!isMatchID(matchID)) return this.guard.bad(socket, { type: 'bad-request', message: 'a move needs a match ID' });
    const f = this.followers.get(socket.id);
    if (!isSeat(playerID) || !f || f.matchID !== matchID || f.seat !== playerID)
      return this.guard.bad(socket, { matchID, type: 'unauthorized', message: 'sync with this seat and its credentials before moving' });
    // The argument's size is the service's to cap (MAX_MOVE_ARG_CHARS), for every mover alike.
    const bad = checkAction(action);
    if (bad) return this.guard.bad(socket, { matchID, type: 'bad-request', message: bad });
    const move = action as MoveAction;
    if (move.payload.playerID !== playerID)
      return this.guard.bad(socket, { matchID, type: 'unauthorized', message: `a move of seat ${playerID} cannot be made as seat ${String(move.payload.playerID).slice(0, 40)}` });
    if (!Number.isInteger(stateID)) return this.guard.bad(socket, { matchID, type: 'bad-request', message: 'stateID must be an integer' });
    const credentials = typeof move.payload.credentials === 'string' ? move.payload.credentials : '';
    const refusal = await this.o.service.move({ matchID, playerID, credentials, type: move.payload.type, arg: (move.payload.args ?? [])[0], stateID: stateID as number });
    if (!refusal) return;
    // A move the rules or the seat refuse is the sender's doing, as a malformed packet is, and costs the
    // engine a check each time: counted alike (an honest board sends next to none), the socket closed
    // past the limit.
    if (SENDERS_FAULT.has(refusal.type)) return this.guard.bad(socket, refusal);
    if (refusal.type === 'stale' && (await this.guard.limited(socket, 'staleSocket', socket.id, matchID))) return;
    this.guard.fail(socket, refusal);
    if (refusal.type === 'stale' || refusal.type === 'server-error') await this.resync(socket);
  }

  /** Chat is taken only from a socket seated now (its credentials still open the seat), as itself. */
  private async chat(socket: Socket, args: unknown[]): Promise<void> {
    const [matchID, msg] = args as [unknown, { id?: unknown; sender?: unknown; payload?: unknown } | undefined];
    const f = this.followers.get(socket.id);
    if (!f || f.seat === null || f.matchID !== matchID || !msg || typeof msg !== 'object' || msg.sender !== f.seat)
      return this.guard.bad(socket, { type: 'bad-request', message: 'only a seated player may chat, as themselves' });
    const conn = this.conns.get(socket.id);
    if (!conn || (await this.guard.limited(socket, 'chat', conn.addr, f.matchID))) return;
    const refusal = await this.o.service.chat(f.matchID, f.seat, f.credentials, msg);
    if (refusal) this.guard.fail(socket, refusal);
  }

  /**
   * The spectators' room (watchers.ts): a line only from a socket that follows this match without a seat
   * now, to the match's spectators here and, through the bus, on the other processes; never to a seat.
   */
  private async watchersSay(socket: Socket, args: unknown[]): Promise<void> {
    const [matchID, text] = args;
    const f = this.followers.get(socket.id);
    if (!f || f.seat !== null || f.matchID !== matchID)
      return this.guard.bad(socket, { type: 'bad-request', message: "only a spectator of this match may speak in its spectators' room" });
    const conn = this.conns.get(socket.id);
    if (!conn || (await this.guard.limited(socket, 'chat', conn.addr, f.matchID))) return;
    const line = this.watchers.say(socket.id, text);
    if (typeof line === 'string') return this.guard.fail(socket, { matchID: f.matchID, type: 'bad-request', message: line });
    this.toWatchers(f.matchID, line);
    this.o.bus.publish({ t: 'watchers', matchID: f.matchID, line });
  }

  private toWatchers(matchID: string, line: WatcherLine): void {
    this.nsp.to(room(matchID, null)).emit(WATCHERS_EVENT, matchID, line);
  }

  /**
   * Each room its own view, as a patch on the view it holds (or whole); with the match's metadata, the
   * status follows as the message's last argument (protocol/index.ts, STATUS_EVENT) instead of a frame of its own.
   */
  private deliverUpdate(matchID: string, state: State, deltalog: LogEntry[], prev: State, metadata?: MatchData): void {
    const rooms = this.nsp.adapter.rooms;
    let status: MatchStatus | undefined;
    for (const seat of GROUPS) {
      const r = room(matchID, seat);
      if (!rooms.get(r)?.size) continue;
      const out = this.filter(seat, { type: 'update', args: [matchID, { ...state, deltalog }] } as never) as { args: [string, State, LogEntry[]] };
      const [, view, log] = out.args;
      const ops = createPatch(this.roomView(matchID, seat, prev), view, 64);
      this.remember(matchID, seat, view);
      status ??= metadata && this.statusOf(matchID, metadata);
      const rest = status ? [status] : [];
      if (ops) this.nsp.to(r).emit('patch', matchID, prev._stateID, state._stateID, ops, log, ...rest);
      else this.nsp.to(r).emit('update', matchID, view, log, ...rest);
    }
  }

  /** Shutdown: no "disconnected" writes for every seat on the way out, then close every socket. */
  close(): void {
    this.stopping = true;
    this.io?.close();
  }
}
