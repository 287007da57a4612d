/**
 * The match service: what sockets, Lobby routes and bots ask of the matches this process serves, put
 * together from its rooms — memory and queues (memory.ts), the move path (moves.ts), chat (chat.ts),
 * presence (presence.ts) — plus the metadata changes that every process must hear of.
 */
import { randomBytes } from 'node:crypto';
import type { PlayerID } from '../../game/index';
import { seatEntry, type GuardError, type TakeBackStatus } from '../../protocol/index';
import { authenticateCredentials } from '../auth';
import type { Bus } from '../bus/index';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import type { MatchData, MatchStore } from '../storage/types';
import { say } from './chat';
import { clockToStart } from './clock';
import { MatchMemory, storageDown, unavailable, type Delivery, type MatchView, type SyncData } from './memory';
import { MovePath, type MoveRequest } from './moves';
import { SeatPresence } from './presence';
import { TakeBacks, type UndoOutcome, type UndoRequest } from './undo';

export type { Delivery, MatchView, SyncData } from './memory';
export { botPlays, MAX_MOVE_ARG_CHARS, type MoveRequest } from './moves';
export { CHAT } from './chat';
export type { UndoOutcome, UndoRequest } from './undo';

export interface ServiceOptions {
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

export class MatchService {
  private readonly memory: MatchMemory;
  private readonly moves: MovePath;
  private readonly takeBacks: TakeBacks;
  /** This process in presence leases: the seats whose sockets it holds name it. */
  readonly processID: string;
  /** The seats whose sockets this process holds, stored as a lease (match/presence.ts). */
  readonly presence: SeatPresence;

  constructor(private readonly o: ServiceOptions) {
    this.processID = o.processID ?? randomBytes(8).toString('hex');
    this.memory = new MatchMemory(o);
    this.moves = new MovePath({ ...o, memory: this.memory, snapshotEvery: Math.max(1, o.snapshotEvery ?? 1), refuse: (r) => this.refuse(r) });
    this.takeBacks = new TakeBacks({ ...o, memory: this.memory });
    this.presence = new SeatPresence({ store: o.store, log: o.log, processID: this.processID, changeMetadata: (id, fn) => this.changeMetadata(id, fn) });
  }

  setDelivery(d: Delivery): void {
    this.memory.delivery = d;
  }
  /** After a match is loaded, a move is saved, news from another process is applied, or a client synced. */
  onState(fn: (m: MatchView) => void): void {
    this.memory.onState(fn);
  }
  onEvict(fn: (matchID: string) => void): void {
    this.memory.onEvict(fn);
  }
  get activeMatches(): number {
    return this.memory.size;
  }

  private refuse(r: GuardError): GuardError {
    this.o.metrics?.refusals.inc({ type: r.type });
    return r;
  }

  /** The match for a (re)connecting client, as `seat` with `credentials` (null: a spectator); see MatchMemory.sync. */
  async sync(matchID: string, seat: PlayerID | null, credentials: string | null, attach: (d: SyncData) => void): Promise<GuardError | null> {
    const admit = (m: MatchData): GuardError | null =>
      seat !== null && !authenticateCredentials(credentials, seatEntry(m.players, seat)) ? { matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${seat}` } : null;
    try {
      return await this.memory.sync(matchID, admit, attach);
    } catch (e) {
      if (!storageDown(e)) throw e;
      return this.refuse(unavailable(matchID));
    }
  }

  follow(matchID: string, delta: 1 | -1): void {
    this.memory.follow(matchID, delta);
  }

  move(req: MoveRequest): Promise<GuardError | null> {
    return this.moves.move(req);
  }

  /** A take-back asked for or answered (match/undo.ts). */
  undo(req: UndoRequest): Promise<UndoOutcome> {
    return this.takeBacks.ask(req);
  }

  /** What each seat of a served match may take back now (its status event), or undefined. */
  takeBackStatus(matchID: string): TakeBackStatus | undefined {
    return this.takeBacks.status(matchID);
  }

  chat(matchID: string, seat: PlayerID, credentials: string | null, message: { id?: unknown; payload?: unknown }): Promise<GuardError | null> {
    return say({ ...this.o, memory: this.memory, refuse: (r) => this.refuse(r) }, matchID, seat, credentials, message);
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

  /** The metadata changed in storage (a Lobby route, presence): refresh memory, tell the other processes. */
  async metadataChanged(matchID: string): Promise<void> {
    this.o.bus.publish({ t: 'meta', matchID });
    const e = this.memory.get(matchID);
    if (!e) {
      // A timed match whose seats just filled starts its clock in the memory of a process (clocks.ts).
      const head = await this.o.store.head(matchID);
      if (head && clockToStart(head.metadata)) await this.memory.open(matchID);
      return;
    }
    await e.run(async () => {
      const head = await this.o.store.head(matchID);
      if (!head) return this.memory.drop(matchID);
      await this.memory.refresh(e, head);
    });
  }

  current(matchID: string, atLeast = -1): Promise<MatchView | undefined> {
    return this.memory.current(matchID, atLeast);
  }

  peek(matchID: string): MatchView | undefined {
    return this.memory.peek(matchID);
  }

  /** Refuses new moves and waits for those in progress to be written. */
  async drain(): Promise<void> {
    this.moves.stop();
    await this.memory.drain();
  }
}
