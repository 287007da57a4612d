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
import type { MatchData, MatchStore, MetadataChange } from '../storage/types';
import { say } from './chat';
import { CommitDoor } from './commit';
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
  /** The one writer of a match (commit.ts): every change below goes through it. */
  private readonly door: CommitDoor;
  /** This process in presence leases: the seats whose sockets it holds name it. */
  readonly processID: string;
  /** The seats whose sockets this process holds, stored as a lease (match/presence.ts). */
  readonly presence: SeatPresence;

  constructor(private readonly o: ServiceOptions) {
    this.processID = o.processID ?? randomBytes(8).toString('hex');
    this.memory = new MatchMemory(o);
    this.door = new CommitDoor({ ...o, memory: this.memory, snapshotEvery: Math.max(1, o.snapshotEvery ?? 1), stopping: () => this.moves.stopped });
    this.moves = new MovePath({ ...o, memory: this.memory, door: this.door, refuse: (r) => this.refuse(r) });
    this.takeBacks = new TakeBacks({ ...o, memory: this.memory, door: this.door });
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
   * Changes the stored metadata under its lock (see MetadataChange: it may refuse by throwing, delete the
   * match with null, create a next match or link seats to accounts in the same transaction) and, if
   * anything was written, brings every process's memory and clients up to date. Returns what was written.
   */
  changeMetadata(matchID: string, change: MetadataChange): Promise<MatchData | null | undefined> {
    return this.door.metadata(matchID, change);
  }

  /** The metadata changed in storage without this process (news is heard through the bus): refresh memory. */
  metadataChanged(matchID: string): Promise<void> {
    return this.door.metadataChanged(matchID);
  }

  /**
   * A seat leaves its match or is found away past the abandon limit: the game ends as
   * ending.ts says (`{ ended: true }`), or goes on (`ended: false`: the caller frees the seat or hands it
   * to the computer); a refusal when the credentials are wrong or `still` says no. See MovePath.exit.
   */
  async exit(matchID: string, seat: PlayerID, exit: 'leave' | 'abandon' | 'absent', credentials: string | null, still?: (m: MatchData) => string | null): Promise<{ ended: boolean } | GuardError> {
    try {
      return await this.moves.exit(matchID, seat, exit, credentials, still);
    } catch (err) {
      if (!storageDown(err)) throw err;
      return this.refuse(unavailable(matchID));
    }
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
