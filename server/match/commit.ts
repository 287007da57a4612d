/**
 * The commit door (docs/ARCHITECTURE.md "The commit door"): every change of a match — a move, a
 * take-back, the server's moves that end a game (time, a forfeit, an abort), a seat taken, left or handed
 * to the computer, presence, a clock started, a request kept — is written here and nowhere else, like
 * Lichess's single save path. One door, one order: the conditional write (storage refuses it if the head
 * or the seats moved on; a game's end writes the players' records and ratings in the same transaction,
 * storage/accounts.ts), then memory, then delivery to this process's sockets (the state and its status
 * in one frame), the news to the other processes (ids only: they read storage), and the watchers (bots,
 * clocks, notices). One failure path: a refused write rereads the stored head; any other failure leaves
 * the match in doubt until storage is read again, and the caller words the refusal.
 * test/architecture.test.ts holds that no other file writes a match.
 */
import type { LogEntry, State } from 'boardgame.io';
import type { MatchClock } from '../../protocol/index';
import type { Bus } from '../bus/index';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { StaleStateError } from '../storage/errors';
import type { MoveAction } from '../../game/index';
import type { MatchData, MatchStore, MetadataChange } from '../storage/types';
import { clockToStart } from './clock';
import type { Entry, MatchMemory } from './memory';

export interface CommitOptions {
  memory: MatchMemory;
  store: MatchStore;
  bus: Bus;
  log: Logger;
  metrics?: Metrics;
  /** Store a whole snapshot every this many moves (and at the end); 1 = every move. */
  snapshotEvery: number;
  /** Whether the door is closing (shutdown): a match left in doubt is not read again then. */
  stopping(): boolean;
}

/** A new state of a served match, made from its current one (`prev`, the entry's state). */
export interface StateChange {
  prev: State;
  next: State;
  action: MoveAction;
  log: LogEntry[];
  /** The server's own move for the seat (the computer, a stand-in, the clock, an exit): no decision of its player. */
  auto: boolean;
  /** Store the whole state now (a take-back always: a load never replays one). */
  snapshot?: boolean;
  /** The match's clock after the change (timed matches whose clock runs). */
  clock?: MatchClock;
}

export class CommitDoor {
  constructor(private readonly o: CommitOptions) {}

  /**
   * Writes a new state of `e` (inside its queue) and passes it on. 'stale': storage refused the write
   * (another process moved, or the seats changed) and memory now holds the stored head. Throws when
   * storage failed otherwise; the match is then in doubt (see `doubt`).
   */
  async state(e: Entry, c: StateChange): Promise<'done' | 'stale'> {
    const { matchID } = e;
    const gameover = c.next.ctx.gameover;
    const snapshot = c.snapshot === true || gameover !== undefined || e.sinceSnapshot + 1 >= this.o.snapshotEvery;
    const updatedAt = Date.now();
    const tc = performance.now();
    try {
      await this.o.store.commitMove(matchID, { prevStateID: c.prev._stateID, seatsVersion: e.seatsVersion, state: c.next, action: c.action, log: c.log, updatedAt, gameover, snapshot, clock: c.clock, auto: c.auto });
    } catch (err) {
      if (!(err instanceof StaleStateError)) {
        // Saved or not, nothing is applied here: the stored head says which, before anything else.
        this.doubt(e);
        throw err;
      }
      this.o.log.warn({ matchID, stored: err.stored, attempted: err.attempted }, 'stale write refused');
      this.o.metrics?.staleWrites.inc();
      await this.o.memory.refresh(e);
      return 'stale';
    }
    this.o.metrics?.movePhase.observe({ phase: 'commit' }, (performance.now() - tc) / 1000);
    // Memory: the one place a served match's state moves on besides reading storage (memory.refresh).
    e.state = c.next;
    e.line.push(c.next, { action: c.action, auto: c.auto, clock: e.metadata.clock ?? null });
    e.log.push(c.log);
    e.sinceSnapshot = snapshot ? 0 : e.sinceSnapshot + 1;
    e.metadata = { ...e.metadata, updatedAt, ...(gameover !== undefined ? { gameover } : {}), ...(c.clock ? { clock: c.clock } : {}) };
    // Deliver (with the status in the same frame), publish, notify.
    const td = performance.now();
    this.o.memory.delivery?.update(matchID, c.next, c.log, c.prev, e.metadata);
    this.o.metrics?.movePhase.observe({ phase: 'delivery' }, (performance.now() - td) / 1000);
    this.o.bus.publish({ t: 'move', matchID, stateID: c.next._stateID });
    this.o.memory.emit(e, 'move');
    return 'done';
  }

  /**
   * Changes the stored metadata under its lock (see MetadataChange: the change may refuse by throwing,
   * delete the match with null, create a next match or link seats to accounts in the same transaction)
   * and, if anything was written, brings every process's memory and clients up to date. `held`: the
   * caller runs inside that match's queue (its entry is refreshed in place, not queued behind itself).
   * Returns what was written, null if deleted, undefined if there is no such match.
   */
  async metadata(matchID: string, change: MetadataChange, held?: Entry): Promise<MatchData | null | undefined> {
    let changed = false;
    const written = await this.o.store.updateMetadata(matchID, (m) => {
      const out = change(m);
      changed = out !== m;
      return out;
    });
    if (!changed) return written;
    if (held && this.o.memory.holds(held)) {
      this.o.bus.publish({ t: 'meta', matchID });
      await this.o.memory.refresh(held);
    } else await this.metadataChanged(matchID);
    return written;
  }

  /** The metadata changed in storage: refresh memory, tell the other processes. */
  async metadataChanged(matchID: string): Promise<void> {
    this.o.bus.publish({ t: 'meta', matchID });
    const e = this.o.memory.get(matchID);
    if (!e) {
      // A timed match whose seats just filled starts its clock in the memory of a process (clocks.ts).
      const head = await this.o.store.head(matchID);
      if (head && clockToStart(head.metadata)) await this.o.memory.open(matchID);
      return;
    }
    await e.run(async () => {
      const head = await this.o.store.head(matchID);
      if (!head) return this.o.memory.drop(matchID);
      await this.o.memory.refresh(e, head);
    });
  }

  /**
   * A write failed without saying whether it was saved (a timeout after the statement was sent): this
   * memory may be one change behind storage. The next operation, or the settling timer, rereads the stored
   * head first (refresh delivers the change if it was saved; the stored head check refuses a second copy).
   */
  private doubt(e: Entry): void {
    if (e.doubt) return;
    e.doubt = true;
    const settle = () => {
      if (!e.doubt || this.o.stopping() || !this.o.memory.holds(e)) return;
      void e
        .run(async () => {
          if (!e.doubt) return;
          await this.o.memory.refresh(e);
          e.doubt = false;
        })
        .catch(() => setTimeout(settle, 1000).unref());
    };
    setTimeout(settle, 1000).unref();
  }
}
