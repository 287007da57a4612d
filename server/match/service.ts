/**
 * The server's move path, without sockets (docs/ARCHITECTURE.md "The move path"). For each move:
 * authenticate once against the cached seats, ask the engine once (checkMove: legal, or why not), reduce
 * once through boardgame.io's reducer (its flow, stages and plugins), commit one write that storage
 * refuses if the head or the seats moved on, then deliver.
 *
 * The process that serves a match keeps its state in memory (`Entry`) and never reads it back for a
 * move; a sync checks the stored head (one small read) so a cache that missed another process's moves
 * catches up by replaying the stored moves. Every operation on a match runs in that match's queue.
 */
import { randomBytes } from 'node:crypto';
import type { Game, LogEntry, State } from 'boardgame.io';
import { legalOption, settingsFrom, type PlayerID, type WatergateState } from '../../game/index';
import { openSeat, roleText, seatEntry, type GuardError } from '../../protocol/index';
import { authenticateCredentials } from '../auth';
import type { Bus, BusMessage } from '../bus/index';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { StaleStateError, StorageUnavailableError } from '../storage/errors';
import type { ChatLine, Head, MatchData, MatchStore, StoredAction } from '../storage/types';
import { afterMove, clockToStart, expired } from './clock';
import { SeatPresence } from './presence';
import { gameReducer, replayer, strip, type Reducer, type Replayer } from './replay';

export interface MoveRequest {
  matchID: string;
  playerID: PlayerID;
  /** The seat's credentials; null when the server itself plays the seat (a bot). */
  credentials: string | null;
  type: string;
  arg: unknown;
  /** The state the mover saw (a client's _stateID); null: the current one. */
  stateID: number | null;
  /** The computer moves for the seat: refused unless the seat is the server's bot or stand-in right now. */
  bot?: boolean;
}

/** Whether the computer plays this seat now: a vs-computer seat, or a stand-in for its owner. */
export const botPlays = (m: MatchData, seat: PlayerID): boolean =>
  m.standIns?.[seat as '0' | '1'] !== undefined || (seatEntry(m.players, seat)?.data as { bot?: unknown } | undefined)?.bot !== undefined;

/** What the socket layer does with news of a match (only for matches with sockets in this process). */
export interface Delivery {
  /** A new state, `prev` the one before it (the one clients of the match hold). */
  update(matchID: string, state: State, deltalog: LogEntry[], prev: State): void;
  matchData(matchID: string, metadata: MatchData): void;
  /** The match's clock, stand-ins or presence changed (docs/ARCHITECTURE.md "Clocks and stand-ins"). */
  status(matchID: string, metadata: MatchData): void;
  chat(matchID: string, message: unknown): void;
  /** The state jumped (reloaded): send every client of the match a fresh sync. */
  resync(matchID: string): void;
}

/** A read-only look at a served match, for hooks (bots). */
export interface MatchView {
  matchID: string;
  /**
   * Why the hook runs: loaded into memory, a move saved here, moves saved elsewhere, a client synced, or
   * the seats or presence changed (a join here, or news of one from another process).
   */
  reason: 'load' | 'move' | 'news' | 'sync' | 'meta';
  state: State<WatergateState>;
  metadata: MatchData;
}

export interface SyncData {
  state: State;
  log: LogEntry[];
  metadata: MatchData;
  initialState: State;
  /** The match's chat, kept with it (the last CHAT_KEPT lines). */
  chat: ChatLine[];
}

/**
 * The most a move's argument may weigh, as JSON: every legal option is far smaller (a few tokens and
 * spaces), so anything bigger is refused before it costs the engine or the queue any work.
 */
export const MAX_MOVE_ARG_CHARS = 1024;

/** A move argument's size as JSON, or Infinity when it is not plain data. */
function argChars(arg: unknown): number {
  try {
    return arg === undefined ? 0 : (JSON.stringify(arg)?.length ?? Infinity);
  } catch {
    return Infinity;
  }
}

/** Chat rules (docs/ARCHITECTURE.md "Request paths"): seated players only, as themselves. */
export const CHAT = { maxLength: 500, burst: 5, perMs: 10_000, kept: 200 } as const;

export interface ServiceOptions {
  game: Game;
  store: MatchStore;
  bus: Bus;
  log: Logger;
  metrics?: Metrics;
  /** Store a whole snapshot every this many moves (and at the end); 1 = every move. */
  snapshotEvery?: number;
  /** A match nobody here is connected to is dropped from memory after this long. */
  idleMs?: number;
  /** This process's name in presence leases (match/presence.ts); default: random. */
  processID?: string;
}

class Entry {
  sockets = 0;
  lastUsed = Date.now();
  private tail: Promise<unknown> = Promise.resolve();
  constructor(
    readonly matchID: string,
    public state: State,
    public metadata: MatchData,
    public seatsVersion: number,
    public log: LogEntry[],
    public initialState: State,
    public sinceSnapshot: number,
    public chat: ChatLine[],
  ) {}
  /**
   * A move's write failed without saying whether it was saved (a timeout after the statement was sent):
   * this memory may be one move behind storage. The next operation, or the settling timer, rereads the
   * stored head first (refresh delivers the move if it was saved; the stored head check refuses a
   * second copy of it).
   */
  doubt = false;
  /** When each seat last spoke (for the chat's rate limit). */
  readonly spoke: Record<string, number[]> = {};
  /** Runs fn after everything queued before it for this match. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.tail.then(fn);
    this.tail = p.catch(() => undefined);
    return p;
  }
  idle(): Promise<unknown> {
    return this.tail;
  }
}

/** The refusal for a request storage could not serve; the client may try the same again shortly. */
const unavailable = (matchID: string): GuardError => ({ matchID, type: 'unavailable', message: 'the server cannot reach its storage right now: retrying', retryAfterSeconds: 1 });

/** Storage did not answer (StorageUnavailableError), as opposed to a bug or a refusal on purpose. */
const storageDown = (e: unknown) => e instanceof StorageUnavailableError;

export class MatchService {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry | undefined>>();
  private readonly reducer: Reducer;
  private readonly replay: Replayer;
  private readonly snapshotEvery: number;
  private readonly idleMs: number;
  private readonly stateHooks: ((m: MatchView) => void)[] = [];
  private readonly evictHooks: ((matchID: string) => void)[] = [];
  private delivery: Delivery | null = null;
  private sweeper: ReturnType<typeof setInterval>;
  private stopping = false;
  /** This process in presence leases: the seats whose sockets it holds name it. */
  readonly processID: string;
  /** The seats whose sockets this process holds, stored as a lease (match/presence.ts). */
  readonly presence: SeatPresence;

  constructor(private readonly o: ServiceOptions) {
    this.processID = o.processID ?? randomBytes(8).toString('hex');
    this.presence = new SeatPresence({ store: o.store, log: o.log, processID: this.processID, changeMetadata: (id, fn) => this.changeMetadata(id, fn) });
    this.reducer = gameReducer(o.game);
    this.replay = replayer(this.reducer);
    this.snapshotEvery = Math.max(1, o.snapshotEvery ?? 1);
    this.idleMs = o.idleMs ?? 60_000;
    o.bus.onMessage((m) => this.heard(m));
    o.bus.onReconnect(() => {
      for (const e of this.entries.values()) void e.run(() => this.refresh(e)).catch((err) => this.o.log.error({ err, matchID: e.matchID }, 'check after bus outage failed'));
    });
    this.sweeper = setInterval(() => this.sweep(), Math.min(30_000, this.idleMs)).unref();
  }

  setDelivery(d: Delivery): void {
    this.delivery = d;
  }
  /** After a match is loaded, a move is saved, or news from another process is applied. */
  onState(fn: (m: MatchView) => void): void {
    this.stateHooks.push(fn);
  }
  onEvict(fn: (matchID: string) => void): void {
    this.evictHooks.push(fn);
  }
  get activeMatches(): number {
    return this.entries.size;
  }
  get game(): Game {
    return this.o.game;
  }

  // ——— loading and keeping in step with storage ———

  private async open(matchID: string): Promise<Entry | undefined> {
    const cached = this.entries.get(matchID);
    if (cached) return cached;
    let p = this.loading.get(matchID);
    if (!p) {
      p = (async () => {
        const m = await this.o.store.load(matchID, { log: true, initialState: true });
        if (!m) return undefined;
        const state = this.replay(m.snapshot, m.moves);
        const chat = await this.o.store.chat(matchID, CHAT.kept);
        const e = new Entry(matchID, state, m.metadata, m.seatsVersion, m.log ?? [], m.initialState!, m.moves.length, chat);
        this.entries.set(matchID, e);
        void this.o.bus.subscribe(matchID);
        this.emitState(e, 'load');
        return e;
      })().finally(() => this.loading.delete(matchID));
      this.loading.set(matchID, p);
    }
    return p;
  }

  /**
   * Brings a cached match up to the stored head: replays moves saved by another process (delivering
   * each as an update), takes the stored seats and presence. Inside the match's queue.
   */
  private async refresh(e: Entry, head?: Head): Promise<void> {
    head ??= await this.o.store.head(e.matchID);
    if (!head) {
      this.drop(e.matchID);
      return;
    }
    const metaChanged = JSON.stringify(head.metadata) !== JSON.stringify(e.metadata);
    e.metadata = head.metadata;
    e.seatsVersion = head.seatsVersion;
    if (head.stateID > e.state._stateID) {
      const moves = await this.o.store.movesAfter(e.matchID, e.state._stateID);
      let prev = e.state;
      e.state = this.replay(e.state, moves, (s, log) => {
        e.log.push(...log);
        this.delivery?.update(e.matchID, s, log, prev);
        prev = s;
      });
      e.sinceSnapshot += moves.length;
      this.emitState(e, 'news');
    } else if (head.stateID < e.state._stateID) {
      // Storage is behind this memory (restored backup?): storage is the truth.
      this.drop(e.matchID);
      const fresh = await this.open(e.matchID);
      if (fresh) {
        fresh.sockets = e.sockets;
        this.delivery?.resync(e.matchID);
      }
      return;
    }
    if (!metaChanged) return;
    this.delivery?.matchData(e.matchID, e.metadata);
    this.delivery?.status(e.matchID, e.metadata);
    // A seat taken can be what play waited for (a bot seat starts thinking when its human joins).
    this.emitState(e, 'meta');
  }

  private heard(m: BusMessage): void {
    const e = this.entries.get(m.matchID);
    if (!e) return;
    this.o.metrics?.busReceived.inc({ type: m.t });
    if (m.t === 'chat') {
      e.chat = [...e.chat, m.chat as ChatLine].slice(-CHAT.kept);
      return void this.delivery?.chat(m.matchID, m.chat);
    }
    if (m.t === 'move' && m.stateID <= e.state._stateID) return;
    void e.run(() => this.refresh(e)).catch((err) => this.o.log.error({ err, matchID: m.matchID }, 'applying news from another process failed'));
  }

  private emitState(e: Entry, reason: MatchView['reason']): void {
    const view: MatchView = { matchID: e.matchID, reason, state: e.state as State<WatergateState>, metadata: e.metadata };
    for (const fn of this.stateHooks) {
      try {
        fn(view);
      } catch (err) {
        this.o.log.error({ err, matchID: e.matchID }, 'state hook failed');
      }
    }
  }

  private drop(matchID: string): void {
    if (!this.entries.delete(matchID)) return;
    this.o.bus.unsubscribe(matchID);
    for (const fn of this.evictHooks) fn(matchID);
  }

  /** Forgets matches nobody here has looked at for idleMs (their state is in storage). */
  private sweep(): void {
    const now = Date.now();
    for (const e of this.entries.values()) if (e.sockets === 0 && now - e.lastUsed > this.idleMs) this.drop(e.matchID);
  }

  // ——— what sockets and routes ask ———

  /**
   * The match as a client needs it on (re)connecting, after checking the stored head. `attach` runs
   * inside the match's queue, so what it sends and the deliveries that follow are in step: no move can
   * be delivered between the state it reads and the socket joining the match's rooms.
   */
  async sync(matchID: string, seat: PlayerID | null, credentials: string | null, attach: (d: SyncData) => void): Promise<GuardError | null> {
    try {
      return await this.syncOnce(matchID, seat, credentials, attach);
    } catch (e) {
      if (!storageDown(e)) throw e;
      return this.refuse(unavailable(matchID));
    }
  }

  private async syncOnce(matchID: string, seat: PlayerID | null, credentials: string | null, attach: (d: SyncData) => void): Promise<GuardError | null> {
    const notFound: GuardError = { matchID, type: 'not-found', message: `match ${matchID} not found` };
    // Twice at most: a refresh that finds storage behind this memory replaces the match's entry.
    for (let attempt = 0; attempt < 2; attempt++) {
      const e = this.entries.get(matchID) ?? (await this.open(matchID));
      if (!e) return notFound;
      const out = await e.run(async (): Promise<GuardError | null | 'again'> => {
        await this.refresh(e);
        e.doubt = false;
        if (this.entries.get(matchID) !== e) return 'again';
        e.lastUsed = Date.now();
        if (seat !== null && !authenticateCredentials(credentials, seatEntry(e.metadata.players, seat)))
          return { matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${seat}` };
        attach({ state: e.state, log: e.log, metadata: e.metadata, initialState: e.initialState, chat: e.chat });
        this.emitState(e, 'sync');
        return null;
      });
      if (out !== 'again') return out;
    }
    return notFound;
  }

  /** A socket of this process now follows (+1) or stopped following (-1) the match. */
  follow(matchID: string, delta: 1 | -1): void {
    const e = this.entries.get(matchID);
    if (!e) return;
    e.sockets = Math.max(0, e.sockets + delta);
    e.lastUsed = Date.now();
  }

  /** One move; resolves to null when saved and delivered, or to the refusal. */
  async move(req: MoveRequest): Promise<GuardError | null> {
    const t0 = performance.now();
    const { matchID } = req;
    if (this.stopping) return this.refuse({ matchID, type: 'server-error', message: 'the server is shutting down: try again in a moment' });
    if (argChars(req.arg) > MAX_MOVE_ARG_CHARS) return this.refuse({ matchID, type: 'bad-request', message: `a move's argument is at most ${MAX_MOVE_ARG_CHARS} characters of JSON` });
    let out: GuardError | null;
    try {
      const e = await this.open(matchID);
      if (!e) return this.refuse({ matchID, type: 'not-found', message: `match ${matchID} not found` });
      e.lastUsed = Date.now();
      out = await e.run(() => this.moveInQueue(e, req));
    } catch (err) {
      if (!storageDown(err)) throw err;
      out = unavailable(matchID);
    }
    if (out) return this.refuse(out);
    this.o.metrics?.moves.inc();
    this.o.metrics?.moveSeconds.observe((performance.now() - t0) / 1000);
    return null;
  }

  private refuse(r: GuardError): GuardError {
    this.o.metrics?.refusals.inc({ type: r.type });
    return r;
  }

  private async moveInQueue(e: Entry, req: MoveRequest, attempt = 0, seatsChecked = false): Promise<GuardError | null> {
    const { matchID, playerID } = req;
    if (!this.entries.has(matchID)) return { matchID, type: 'not-found', message: `match ${matchID} not found` };
    if (e.doubt) {
      await this.refresh(e);
      e.doubt = false;
      if (this.entries.get(matchID) !== e) return { matchID, type: 'stale', message: 'the match was reloaded from storage: resyncing' };
    }
    const seat = seatEntry(e.metadata.players, playerID);
    if (req.credentials !== null && !authenticateCredentials(req.credentials, seat))
      return { matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${playerID}` };
    const state = e.state;
    if (req.stateID !== null && req.stateID !== state._stateID)
      return { matchID, type: 'stale', message: `your state ${req.stateID} is out of date (now ${state._stateID}): resyncing` };
    if (state.ctx.gameover !== undefined) return { matchID, type: 'invalid-move', message: 'the game is over' };
    // The computer's move for a seat its owner took back meanwhile, or a clock that no longer runs out.
    if (req.bot && !botPlays(e.metadata, playerID)) return { matchID, type: 'stale', message: 'the computer no longer plays this seat' };
    // While the computer stands in, the owner keeps its seat's view and chat but not its moves (two
    // movers for one seat would race): taking the seat back is the way to play again.
    if (!req.bot && req.credentials !== null && e.metadata.standIns?.[playerID as '0' | '1'])
      return { matchID, type: 'invalid-move', message: `the computer is playing ${roleText(playerID)} for you: take your seat back to move` };
    if (req.type === 'timeout' && (req.credentials !== null || !expired(e.metadata.clock, state._stateID, Date.now())))
      return { matchID, type: 'invalid-move', message: 'the clock has not run out' };
    // Play starts only when both seats are taken (a resign too: there is nobody to resign to).
    const open = openSeat(Object.values(e.metadata.players));
    if (open !== null) {
      if (seatsChecked) return { matchID, type: 'invalid-move', message: `the game starts when both seats are taken: waiting for ${roleText(open)}` };
      // This memory may not have heard of a join in another process yet: look at storage once first.
      await this.refresh(e);
      if (this.entries.get(matchID) !== e) return { matchID, type: 'stale', message: 'the match was reloaded from storage: resyncing' };
      return this.moveInQueue(e, req, attempt, true);
    }

    // The engine says whether and why not, and which of its own options the argument is: that option,
    // never the sender's object, is reduced, stored, logged, sent and replayed. boardgame.io's flow must
    // agree (its stages follow the engine's prompt). Checked before reducing, so a refusal costs no
    // reducer work and no console noise.
    const legal = legalOption(state.G as WatergateState, playerID, req.type, req.arg);
    if ('error' in legal) return { matchID, type: 'invalid-move', message: legal.error };
    const flow = this.reducer.game.flow;
    const action: StoredAction = { type: 'MAKE_MOVE', payload: { type: req.type, args: [legal.arg], playerID } };
    const input = this.reducer.prepare(state, action);
    const reduced = flow.isPlayerActive(input.G, input.ctx, playerID) && flow.getMove(input.ctx, req.type, playerID) ? this.reducer(state, action) : state;
    if (reduced._stateID === state._stateID) {
      // The rules accept it but boardgame.io did not apply it: its stages disagree with the engine's prompt.
      this.o.log.error({ matchID, playerID, move: req.type, activePlayers: state.ctx.activePlayers }, 'move accepted by the rules but not applied by boardgame.io');
      return { matchID, type: 'server-error', message: 'the server could not apply this move: resyncing' };
    }
    const deltalog = reduced.deltalog ?? [];
    const next = strip(reduced);
    const gameover = next.ctx.gameover;
    const snapshot = gameover !== undefined || e.sinceSnapshot + 1 >= this.snapshotEvery;
    const updatedAt = Date.now();
    const clock = this.clockAfter(e.metadata, playerID, next, updatedAt);
    try {
      // `auto`: the server's own move for the seat (the computer, a stand-in, the clock), no decision of its player.
      await this.o.store.commitMove(matchID, { prevStateID: state._stateID, seatsVersion: e.seatsVersion, state: next, action, log: deltalog, updatedAt, gameover, snapshot, clock, auto: req.credentials === null });
    } catch (err) {
      if (!(err instanceof StaleStateError)) {
        // Saved or not, nothing is applied here: the stored head says which, before anything else.
        this.doubt(e);
        if (storageDown(err)) {
          this.o.log.warn({ matchID, err: (err as Error).message }, 'move not saved: storage unavailable');
          return unavailable(matchID);
        }
        // Not an outage: trying again would not help; the client is resynced instead.
        this.o.log.error({ err, matchID }, 'move not saved');
        return { matchID, type: 'server-error', message: 'the server could not save this move: resyncing' };
      }
      // Another process saved a move, or the seats changed, since this memory was current.
      this.o.log.warn({ matchID, stored: err.stored, attempted: err.attempted }, 'stale write refused');
      this.o.metrics?.staleWrites.inc();
      await this.refresh(e);
      // Only the seats changed (a join, a rename): the same move on the same state may go through.
      if (attempt === 0 && e.state._stateID === state._stateID && this.entries.has(matchID)) return this.moveInQueue(e, req, 1);
      return { matchID, type: 'stale', message: 'another move was saved first: resyncing' };
    }
    e.state = next;
    e.log.push(...deltalog);
    e.sinceSnapshot = snapshot ? 0 : e.sinceSnapshot + 1;
    e.metadata = { ...e.metadata, updatedAt, ...(gameover !== undefined ? { gameover } : {}), ...(clock ? { clock } : {}) };
    this.delivery?.update(matchID, next, deltalog, state);
    if (clock || e.metadata.standIns) this.delivery?.status(matchID, e.metadata);
    this.o.bus.publish({ t: 'move', matchID, stateID: next._stateID });
    this.emitState(e, 'move');
    return null;
  }

  /** Marks the entry as possibly behind storage and rereads the head once storage answers again. */
  private doubt(e: Entry): void {
    if (e.doubt) return;
    e.doubt = true;
    const settle = () => {
      if (!e.doubt || this.stopping || this.entries.get(e.matchID) !== e) return;
      void e
        .run(async () => {
          if (!e.doubt) return;
          await this.refresh(e);
          e.doubt = false;
        })
        .catch(() => setTimeout(settle, 1000).unref());
    };
    setTimeout(settle, 1000).unref();
  }

  /**
   * A timed match's clock after a move at `now` (undefined for an untimed one, or one whose clock has
   * not started): the mover's decision is charged and earns the increment, the next decider's runs.
   */
  private clockAfter(m: MatchData, mover: PlayerID, next: State, now: number) {
    const setting = settingsFrom(m.setupData as never).clock;
    if (!setting || !m.clock) return undefined;
    const decider = next.ctx.gameover === undefined ? ((next.G as WatergateState).prompt?.player ?? null) : null;
    return afterMove(m.clock, setting, mover, decider, next._stateID, now);
  }

  /** A seat's sockets in this process came (true) or all went (false): see SeatPresence. */
  connection(matchID: string, seat: PlayerID, connected: boolean): Promise<void> {
    return this.presence.connection(matchID, seat, connected);
  }

  /**
   * Changes the stored metadata under its lock (see MetadataChange) and, if anything was written, brings
   * every process's memory and clients up to date. Returns what was written.
   */
  async changeMetadata(matchID: string, change: (m: MatchData) => MatchData): Promise<MatchData | null | undefined> {
    let changed = false;
    const written = await this.o.store.updateMetadata(matchID, (m) => {
      const out = change(m);
      changed = out !== m;
      return out;
    });
    if (changed) await this.metadataChanged(matchID);
    return written;
  }

  /** The metadata changed in storage (a Lobby route, presence): refresh the cache, tell the others. */
  async metadataChanged(matchID: string): Promise<void> {
    this.o.bus.publish({ t: 'meta', matchID });
    const e = this.entries.get(matchID);
    if (!e) {
      // A timed match whose seats just filled starts its clock in the memory of a process (clocks.ts).
      const head = await this.o.store.head(matchID);
      if (head && clockToStart(head.metadata)) await this.open(matchID);
      return;
    }
    await e.run(async () => {
      const head = await this.o.store.head(matchID);
      if (!head) return this.drop(matchID);
      await this.refresh(e, head);
    });
  }

  /**
   * A seated player says something (the socket checked who, its credentials are checked here: the seat
   * may have changed hands since the socket synced): at most CHAT.maxLength characters, at most
   * CHAT.burst lines per CHAT.perMs per seat (in this process), kept with the match, then delivered to
   * everyone following it — also on other processes — as text (clients never render it as HTML).
   */
  async chat(matchID: string, seat: PlayerID, credentials: string | null, message: { id?: unknown; payload?: unknown }): Promise<GuardError | null> {
    const text = typeof message.payload === 'string' ? message.payload.trim() : '';
    if (text.length === 0 || text.length > CHAT.maxLength) return this.refuse({ matchID, type: 'bad-request', message: `a chat message is 1 to ${CHAT.maxLength} characters of text` });
    const id = typeof message.id === 'string' && /^[A-Za-z0-9_-]{1,40}$/.test(message.id) ? message.id : null;
    if (!id) return this.refuse({ matchID, type: 'bad-request', message: 'a chat message needs an id' });
    const e = this.entries.get(matchID) ?? (await this.open(matchID));
    if (!e) return this.refuse({ matchID, type: 'not-found', message: `match ${matchID} not found` });
    // Like a move: the seat's credentials now, not when the socket synced.
    if (!authenticateCredentials(credentials, seatEntry(e.metadata.players, seat)))
      return this.refuse({ matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${seat}` });
    const now = Date.now();
    const recent = (e.spoke[seat] ?? []).filter((t) => now - t < CHAT.perMs);
    if (recent.length >= CHAT.burst) return this.refuse({ matchID, type: 'bad-request', message: `at most ${CHAT.burst} messages in ${CHAT.perMs / 1000} seconds: wait a moment` });
    e.spoke[seat] = [...recent, now];
    const line: ChatLine = { id, sender: seat, payload: text, at: now };
    try {
      await this.o.store.addChat(matchID, line);
    } catch (err) {
      if (!storageDown(err)) throw err;
      return this.refuse(unavailable(matchID));
    }
    e.chat = [...e.chat, line].slice(-CHAT.kept);
    this.delivery?.chat(matchID, line);
    this.o.bus.publish({ t: 'chat', matchID, chat: line });
    return null;
  }

  /**
   * The match as it stands, for a Lobby read (whose turn it is): the entry in memory — kept in step by
   * the bus, and brought up to `atLeast` (a stored head the caller just read) if it is behind — or the
   * match loaded from storage, then kept in memory like any served match. Undefined if there is none.
   */
  async current(matchID: string, atLeast = -1): Promise<MatchView | undefined> {
    const e = this.entries.get(matchID) ?? (await this.open(matchID));
    if (!e) return undefined;
    e.lastUsed = Date.now();
    if (e.state._stateID < atLeast) await e.run(() => this.refresh(e));
    const now = this.entries.get(matchID) ?? e;
    return { matchID, reason: 'sync', state: now.state as State<WatergateState>, metadata: now.metadata };
  }

  /** The cached state of a served match (tests, bots), or undefined. */
  peek(matchID: string): MatchView | undefined {
    const e = this.entries.get(matchID);
    return e && { matchID, reason: 'sync', state: e.state as State<WatergateState>, metadata: e.metadata };
  }

  /** Refuses new moves and waits for those in progress to be written. */
  async drain(): Promise<void> {
    this.stopping = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.entries.values()].map((e) => e.idle()));
  }
}
