/**
 * The matches this process serves, in memory, each with its queue (docs/ARCHITECTURE.md "The move path").
 * A match is loaded once (its snapshot with the later moves replayed) and kept while sockets follow it;
 * every operation on a match runs in its queue. Memory never reads a state back for a move: a sync, news
 * from another process (the bus) or a doubt after a failed write compares the stored head (one small
 * read) and catches up by replaying the stored moves. What changes is told to the socket layer
 * (`Delivery`) and to whoever watches (`onState`: the bots, turn notices).
 */
import type { LogEntry, State } from 'boardgame.io';
import type { WatergateState } from '../../game/index';
import { MissingStateError } from '../../game/undo';
import type { GuardError } from '../../protocol/index';
import type { Bus, BusMessage } from '../bus/index';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { StorageUnavailableError } from '../storage/errors';
import type { ChatLine, Head, MatchData, MatchStore } from '../storage/types';
import { KeptLog, KeptState } from './kept';
import { PlayLine } from './line';
import { replay } from './replay';

/** What the socket layer does with news of a match (only for matches with sockets in this process). */
export interface Delivery {
  /**
   * A new state, `prev` the one before it (the one clients of the match hold). With `metadata` the state
   * is the match's current one and its status rides in the same message (one frame per socket a move).
   */
  update(matchID: string, state: State, deltalog: LogEntry[], prev: State, metadata?: MatchData): void;
  matchData(matchID: string, metadata: MatchData): void;
  /** The match's clock, stand-ins or presence changed (docs/ARCHITECTURE.md "Clocks and stand-ins"). */
  status(matchID: string, metadata: MatchData): void;
  chat(matchID: string, message: unknown): void;
  /** The state jumped (reloaded): send every client of the match a fresh sync. */
  resync(matchID: string): void;
}

/** A read-only look at a served match, for hooks (bots, turn notices). */
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

/** The longest a match's first load waits for its bus subscription to take effect. */
const SUBSCRIBE_WAIT_MS = 1000;

/** The chat lines kept with a match (in storage and in memory). */
export const CHAT_KEPT = 200;

export class Entry {
  sockets = 0;
  lastUsed = Date.now();
  private tail: Promise<unknown> = Promise.resolve();
  constructor(
    readonly matchID: string,
    public state: State,
    public metadata: MatchData,
    public seatsVersion: number,
    /** The match's log, as text (kept.ts): boardgame.io's sync sends it, the abort rule reads it. */
    readonly log: KeptLog,
    /** The match's first state, as text (kept.ts): boardgame.io's sync sends it. */
    readonly initialState: KeptState,
    public sinceSnapshot: number,
    public chat: ChatLine[],
  ) {
    this.line = new PlayLine(state, false);
  }
  /**
   * A move's write failed without saying whether it was saved (a timeout after the statement was sent):
   * this memory may be one move behind storage. The next operation, or the settling timer, rereads the
   * stored head first (refresh delivers the move if it was saved; the stored head check refuses a
   * second copy of it).
   */
  doubt = false;
  /** When each seat last spoke (for the chat's rate limit). */
  readonly spoke: Record<string, number[]> = {};
  /** The recent line of play, for take-backs (line.ts): fed wherever `state` moves on. */
  line: PlayLine;
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
export const unavailable = (matchID: string): GuardError => ({ matchID, type: 'unavailable', message: 'the server cannot reach its storage right now: retrying', retryAfterSeconds: 1 });

/** Storage did not answer (StorageUnavailableError), as opposed to a bug or a refusal on purpose. */
export const storageDown = (e: unknown) => e instanceof StorageUnavailableError;

export interface MemoryOptions {
  store: MatchStore;
  bus: Bus;
  log: Logger;
  metrics?: Metrics;
  /** A match nobody here is connected to is dropped from memory after this long. */
  idleMs?: number;
}

export class MatchMemory {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry | undefined>>();
  private readonly stateHooks: ((m: MatchView) => void)[] = [];
  private readonly evictHooks: ((matchID: string) => void)[] = [];
  private readonly idleMs: number;
  private readonly sweeper: ReturnType<typeof setInterval>;
  delivery: Delivery | null = null;

  constructor(private readonly o: MemoryOptions) {
    this.idleMs = o.idleMs ?? 60_000;
    o.bus.onMessage((m) => this.heard(m));
    o.bus.onReconnect(() => {
      for (const e of this.entries.values()) void e.run(() => this.refresh(e)).catch((err) => this.o.log.error({ err, matchID: e.matchID }, 'check after bus outage failed'));
    });
    this.sweeper = setInterval(() => this.sweep(), Math.min(30_000, this.idleMs)).unref();
  }

  onState(fn: (m: MatchView) => void): void {
    this.stateHooks.push(fn);
  }
  onEvict(fn: (matchID: string) => void): void {
    this.evictHooks.push(fn);
  }
  get size(): number {
    return this.entries.size;
  }
  /** The match's entry if it is in memory now. */
  get(matchID: string): Entry | undefined {
    return this.entries.get(matchID);
  }
  /** Whether `e` is still the match's entry (a refresh that found storage behind replaces it). */
  holds(e: Entry): boolean {
    return this.entries.get(e.matchID) === e;
  }

  /** The match's entry, loaded from storage if it is not in memory (undefined: no such match). */
  async open(matchID: string): Promise<Entry | undefined> {
    const cached = this.entries.get(matchID);
    if (cached) return cached;
    let p = this.loading.get(matchID);
    if (!p) {
      p = (async () => {
        // Listening before reading: news another process saves after this read is heard. While Redis is
        // away the wait is cut short (its return makes every process check its matches against storage).
        const subscribed = this.o.bus.subscribe(matchID);
        if (this.o.bus.status() === 'ok') await Promise.race([subscribed, new Promise((r) => setTimeout(r, SUBSCRIBE_WAIT_MS).unref())]);
        const m = await this.o.store.load(matchID, { log: true, initialState: true }).catch((e: unknown) => {
          this.o.bus.unsubscribe(matchID);
          throw e;
        });
        if (!m) {
          this.o.bus.unsubscribe(matchID);
          return undefined;
        }
        const line = new PlayLine(m.snapshot, m.snapshot._stateID === m.initialState!._stateID);
        const state = replay(m.snapshot, m.moves, (s, _log, row) => line.push(s, row));
        const chat = await this.o.store.chat(matchID, CHAT_KEPT);
        const e = new Entry(matchID, state, m.metadata, m.seatsVersion, new KeptLog(m.log ?? []), new KeptState(m.initialState!), m.moves.length, chat);
        e.line = line;
        this.entries.set(matchID, e);
        this.emit(e, 'load');
        return e;
      })().finally(() => this.loading.delete(matchID));
      this.loading.set(matchID, p);
    }
    return p;
  }

  /**
   * Brings a match in memory up to the stored head: replays moves saved by another process (delivering
   * each as an update), takes the stored seats and presence. Inside the match's queue.
   */
  async refresh(e: Entry, head?: Head): Promise<void> {
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
      try {
        e.state = replay(
          e.state,
          moves,
          (s, log, row) => {
            e.line.push(s, row);
            e.log.push(log);
            this.delivery?.update(e.matchID, s, log, prev);
            prev = s;
          },
          (id) => e.line.find(id),
        );
      } catch (err) {
        // A take-back to a position this memory no longer holds: storage is the truth (its snapshot is the taken-back position).
        if (err instanceof MissingStateError) return this.reload(e);
        throw err;
      }
      e.sinceSnapshot += moves.length;
      this.emit(e, 'news');
    } else if (head.stateID < e.state._stateID) {
      // Storage is behind this memory (restored backup?): storage is the truth.
      return this.reload(e);
    }
    if (!metaChanged) return;
    this.delivery?.matchData(e.matchID, e.metadata);
    this.delivery?.status(e.matchID, e.metadata);
    // A seat taken can be what play waited for (a bot seat starts thinking when its human joins).
    this.emit(e, 'meta');
  }

  /** Loads the match afresh from storage in place of `e` and resyncs its clients. */
  private async reload(e: Entry): Promise<void> {
    this.drop(e.matchID);
    const fresh = await this.open(e.matchID);
    if (fresh) {
      fresh.sockets = e.sockets;
      this.delivery?.resync(e.matchID);
    }
  }

  /** Tells the watchers (onState) about the match as it is now. */
  emit(e: Entry, reason: MatchView['reason']): void {
    const view: MatchView = { matchID: e.matchID, reason, state: e.state as State<WatergateState>, metadata: e.metadata };
    for (const fn of this.stateHooks) {
      try {
        fn(view);
      } catch (err) {
        this.o.log.error({ err, matchID: e.matchID }, 'state hook failed');
      }
    }
  }

  private heard(m: BusMessage): void {
    const e = this.entries.get(m.matchID);
    if (!e) return;
    this.o.metrics?.busReceived.inc({ type: m.t });
    if (m.t === 'chat') {
      e.chat = [...e.chat, m.chat as ChatLine].slice(-CHAT_KEPT);
      return void this.delivery?.chat(m.matchID, m.chat);
    }
    if (m.t === 'watchers') return; // the socket layer's alone (socket/watchers.ts): nothing of the match changed
    if (m.t === 'move' && m.stateID <= e.state._stateID) return;
    void e.run(() => this.refresh(e)).catch((err) => this.o.log.error({ err, matchID: m.matchID }, 'applying news from another process failed'));
  }

  drop(matchID: string): void {
    if (!this.entries.delete(matchID)) return;
    this.o.bus.unsubscribe(matchID);
    for (const fn of this.evictHooks) fn(matchID);
  }

  /** Forgets matches nobody here has looked at for idleMs (their state is in storage). */
  private sweep(): void {
    const now = Date.now();
    for (const e of this.entries.values()) if (e.sockets === 0 && now - e.lastUsed > this.idleMs) this.drop(e.matchID);
  }

  /**
   * The match as a client needs it on (re)connecting, after checking the stored head. `attach` runs
   * inside the match's queue, so what it sends and the deliveries that follow are in step: no move can
   * be delivered between the state it reads and the socket joining the match's rooms. `admit` says
   * whether the caller may see the match as it asked (its credentials, checked against the current seats).
   */
  async sync(matchID: string, admit: (m: MatchData) => GuardError | null, attach: (d: SyncData) => void): Promise<GuardError | null> {
    const notFound: GuardError = { matchID, type: 'not-found', message: `match ${matchID} not found` };
    // Twice at most: a refresh that finds storage behind this memory replaces the match's entry.
    for (let attempt = 0; attempt < 2; attempt++) {
      const e = this.entries.get(matchID) ?? (await this.open(matchID));
      if (!e) return notFound;
      const out = await e.run(async (): Promise<GuardError | null | 'again'> => {
        await this.refresh(e);
        e.doubt = false;
        if (!this.holds(e)) return 'again';
        e.lastUsed = Date.now();
        const refusal = admit(e.metadata);
        if (refusal) return refusal;
        attach({ state: e.state, log: e.log.entries(), metadata: e.metadata, initialState: e.initialState.get(), chat: e.chat });
        this.emit(e, 'sync');
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

  /**
   * The match as it stands, for a Lobby read: the entry in memory — kept in step by the bus, and brought
   * up to `atLeast` (a stored head the caller just read) if it is behind — or the match loaded from
   * storage, then kept like any served match. Undefined if there is none.
   */
  async current(matchID: string, atLeast = -1): Promise<MatchView | undefined> {
    const e = this.entries.get(matchID) ?? (await this.open(matchID));
    if (!e) return undefined;
    e.lastUsed = Date.now();
    if (e.state._stateID < atLeast) await e.run(() => this.refresh(e));
    const now = this.entries.get(matchID) ?? e;
    return { matchID, reason: 'sync', state: now.state as State<WatergateState>, metadata: now.metadata };
  }

  /** The state in memory of a served match (tests, bots), or undefined. */
  peek(matchID: string): MatchView | undefined {
    const e = this.entries.get(matchID);
    return e && { matchID, reason: 'sync', state: e.state as State<WatergateState>, metadata: e.metadata };
  }

  /** Stops sweeping and waits for every match's queued work. */
  async drain(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.entries.values()].map((e) => e.idle()));
  }
}
