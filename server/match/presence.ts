/**
 * Presence as a lease. A seat is connected while some live server process holds a socket of it: its
 * metadata names those processes (`holders`), and each process renews one heartbeat row every third of
 * the lease — not a write per seat. A process killed with -9 stops beating; once its lease has run out
 * any process's sweep takes it out of every seat it held, and a seat no live process holds is marked
 * away since the dead process's last heartbeat (the opponent then sees it, turn notices go out, an
 * abandoned seat may be handed to the computer). On embedded storage the file has one process: at start
 * every other process named there is dead at once.
 */
import type { PlayerID } from '../../game/index';
import { seatEntry } from '../../protocol/index';
import type { Logger } from '../log';
import { StorageUnavailableError } from '../storage/errors';
import type { MatchData, MatchStore } from '../storage/types';

type Seat = '0' | '1';

export const DEFAULT_PRESENCE_LEASE_MS = 60_000;

/**
 * Presence writes at most this many a turn of the event loop. Each is a locked metadata change, the
 * match brought up to date and its sockets told (about 0.5 ms); when every socket closes at once (a
 * proxy restarting, a network blip, 10,000 players' Wi-Fi) the loop would otherwise stop for all of them
 * in one turn — 0.8–1 s per 1,000 matches, every other match's moves waiting (docs/LOAD.md "A mass
 * disconnect in slices"). In slices, the moves of the other matches go on between them.
 */
export const PRESENCE_WRITES_PER_TURN = 32;

/** Lets at most `perTurn` pieces of work start a turn of the event loop; the rest wait, in order, for the next turns. */
export class TurnSlices {
  private left: number;
  private readonly waiting: (() => void)[] = [];
  private head = 0;
  private scheduled = false;

  constructor(private readonly perTurn: number) {
    this.left = perTurn;
  }

  /** Resolves when the caller may do one piece of work (at once while this turn's share lasts). */
  take(): Promise<void> | undefined {
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.nextTurn);
    }
    if (this.left > 0 && this.head === this.waiting.length) {
      this.left--;
      return undefined;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private readonly nextTurn = (): void => {
    this.left = this.perTurn;
    while (this.left > 0 && this.head < this.waiting.length) {
      this.left--;
      this.waiting[this.head++]();
    }
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
      this.scheduled = false;
    } else setImmediate(this.nextTurn);
  };
}

/** The metadata after `proc` gained (connected) or lost a socket of `seat` at `now`; `m` itself if nothing changes. */
export function holdSeat(m: MatchData, seat: Seat, proc: string, connected: boolean, now: number): MatchData {
  const p = seatEntry(m.players, seat);
  if (!p) return m;
  const before = m.holders?.[seat] ?? [];
  const held = connected ? [...new Set([...before, proc])] : before.filter((x) => x !== proc);
  const isConnected = held.length > 0;
  if (isConnected === p.isConnected && held.length === before.length) return m;
  const holders = { ...m.holders, [seat]: held };
  if (!isConnected) delete holders[seat];
  const away = { ...m.away };
  if (isConnected) delete away[seat];
  else if (p.isConnected !== false || away[seat] === undefined) away[seat] = now;
  return { ...m, players: { ...m.players, [seat]: { ...p, isConnected } }, holders, away };
}

/** The presence records without `seat`'s (a seat emptied or taken afresh: nobody holds it yet). */
export function seatPresenceCleared(m: MatchData, seat: Seat): Pick<MatchData, 'away' | 'holders'> {
  const away = { ...m.away };
  const holders = { ...m.holders };
  delete away[seat];
  delete holders[seat];
  return { away, holders };
}

/** The metadata without dead process `proc` among any seat's holders; a seat it alone held is away since `since`. */
export function releaseProc(m: MatchData, proc: string, since: number): MatchData {
  let out = m;
  for (const seat of ['0', '1'] as const) if (out.holders?.[seat]?.includes(proc)) out = holdSeat(out, seat, proc, false, since);
  return out;
}

/** What a process's seats need of the match service: the locked metadata change that tells everyone. */
export interface SeatPresenceOptions {
  store: MatchStore;
  log: Logger;
  processID: string;
  changeMetadata(matchID: string, change: (m: MatchData) => MatchData): Promise<unknown>;
}

/** The seats whose sockets this process holds, kept in storage under its name. */
export class SeatPresence {
  /** The seats ("matchID#seat") held here, to claim again after a lapsed lease. */
  private readonly held = new Set<string>();
  /** Presence changes storage could not take (it was away): written on the lease's next beat. */
  private readonly owed = new Map<string, boolean>();
  private readonly slices = new TurnSlices(PRESENCE_WRITES_PER_TURN);

  constructor(private readonly o: SeatPresenceOptions) {}

  /**
   * A seat's sockets in this process came (true) or all went (false): stored under this process's name
   * and told to everyone, with since when the seat has been away (an away seat may be handed to the
   * computer). Storage away: logged, and written on the next heartbeat. At most
   * PRESENCE_WRITES_PER_TURN a turn of the event loop; the rest in the next turns, in order.
   */
  async connection(matchID: string, seat: PlayerID, connected: boolean): Promise<void> {
    // Away since the socket went, not since its slice came.
    const at = Date.now();
    await this.slices.take();
    const key = `${matchID}#${seat}`;
    if (connected) this.held.add(key);
    else this.held.delete(key);
    this.owed.delete(key);
    const me = this.o.processID;
    try {
      // The index first, so a sweep never misses a seat this process is named in.
      if (connected) await this.o.store.hold(me, matchID);
      let stillHeld = connected;
      await this.o.changeMetadata(matchID, (m) => {
        const out = holdSeat(m, seat as Seat, me, connected, at);
        stillHeld = Object.values(out.holders ?? {}).some((h) => h?.includes(me));
        return out;
      });
      if (!stillHeld) await this.o.store.unhold(me, matchID);
    } catch (err) {
      if (!(err instanceof StorageUnavailableError)) throw err;
      this.owed.set(key, connected);
      this.o.log.warn({ matchID, seat, connected }, err.busy ? 'presence not stored: storage busy' : 'presence not stored: storage unavailable');
    }
  }

  /**
   * Writes the presence changes storage missed while away; `all`: after this process's lease lapsed
   * (others may have swept its seats), every seat it holds is claimed again.
   */
  async storeOwed(all = false): Promise<void> {
    const owed = new Map(this.owed);
    if (all) for (const key of this.held) owed.set(key, true);
    for (const [key, connected] of owed) {
      const [matchID, seat] = key.split('#');
      await this.connection(matchID, seat as PlayerID, connected);
    }
  }
}

export interface PresenceOptions {
  store: MatchStore;
  /** The match service of this process (only what the leases use of it: no import back up to it). */
  service: { readonly processID: string; readonly presence: SeatPresence; changeMetadata(matchID: string, change: (m: MatchData) => MatchData): Promise<unknown> };
  log: Logger;
  /** A process that has not renewed its heartbeat for this long is dead (PRESENCE_LEASE_SECONDS). */
  leaseMs?: number;
}

export class PresenceLeases {
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastBeat = 0;
  private readonly leaseMs: number;
  private running: Promise<void> | null = null;

  constructor(private readonly o: PresenceOptions) {
    this.leaseMs = o.leaseMs ?? DEFAULT_PRESENCE_LEASE_MS;
  }

  async start(): Promise<void> {
    await this.beat();
    // One process per embedded file: whoever is named there besides this process died.
    if (!this.o.store.shared) await this.sweep(Number.MAX_SAFE_INTEGER);
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.running ?? Promise.resolve();
  }

  private tick(): Promise<void> {
    this.running ??= (async () => {
      try {
        await this.beat();
        await this.sweep(Date.now() - this.leaseMs);
      } catch (err) {
        this.o.log.warn({ err: (err as Error).message }, 'presence lease renewal or sweep failed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async beat(): Promise<void> {
    const now = Date.now();
    await this.o.store.beat(this.o.service.processID, now);
    // Unheard of for longer than a lease (storage away): others may have swept this process's seats.
    const lapsed = this.lastBeat > 0 && now - this.lastBeat > this.leaseMs;
    this.lastBeat = now;
    await this.o.service.presence.storeOwed(lapsed);
  }

  /** Takes processes unheard of since `before` out of every seat they held. */
  async sweep(before: number): Promise<void> {
    const self = this.o.service.processID;
    for (const h of await this.o.store.deadHolds(self, before)) {
      await this.o.service.changeMetadata(h.matchID, (m) => releaseProc(m, h.proc, h.beatAt ?? Date.now()));
      await this.o.store.unhold(h.proc, h.matchID);
      this.o.log.info({ matchID: h.matchID, proc: h.proc }, 'seats of a dead server process marked away');
    }
    await this.o.store.forgetDead(Math.min(before, Date.now() - this.leaseMs));
  }
}
