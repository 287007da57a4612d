/**
 * The clocks of timed matches, kept running by the server (docs/ARCHITECTURE.md "Clocks and stand-ins"). The clock is
 * stored with the match (clock.ts computes it; every move rewrites it in the same write), so this module
 * keeps no truth of its own: it starts a clock when both seats are taken, arms one timer per match for
 * the running seat's deadline, and when the time is up either makes the server's `timeout` move (the
 * other side wins, `reason: "time"`) or hands the seat to the computer (`onTimeout: "bot"`).
 *
 * Several processes may arm a timer for the same match (each one that serves it, and the scan of every
 * process): the timeout move carries the state it was armed for, so the write's state check lets exactly
 * one through; a stand-in is set by a metadata change that checks the clock under the match's lock.
 * A scan at start and every `scanMs` finds deadlines of matches no process has in memory (after a
 * restart, or a turn-based game nobody is looking at).
 */
import type { PlayerID, WatergateState } from '../../game/index';
import { settingsFrom } from '../../game/index';
import type { Logger } from '../log';
import type { MatchData, MatchStore } from '../storage/types';
import { clockToStart, expired, startClock } from './clock';
import type { MatchService, MatchView } from './service';

/** setTimeout's longest wait (about 24.8 days): a later deadline is looked at again then. */
const MAX_WAIT = 2 ** 31 - 1;

export class ClockKeeper {
  private readonly timers = new Map<string, { at: number; stateID: number; timer: ReturnType<typeof setTimeout> }>();
  private scanner: ReturnType<typeof setInterval> | null = null;
  private stopped = false;

  constructor(private readonly o: { service: MatchService; store: MatchStore; log: Logger; scanMs?: number }) {
    o.service.onState((m) => this.look(m));
    o.service.onEvict((matchID) => this.disarm(matchID));
  }

  /** Looks for deadlines now and every scanMs. */
  start(): void {
    void this.scan();
    this.scanner = setInterval(() => void this.scan(), this.o.scanMs ?? 30_000);
    this.scanner.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.scanner) clearInterval(this.scanner);
    for (const id of [...this.timers.keys()]) this.disarm(id);
  }

  /** The seat whose time runs and can run out (not one the computer already plays for its owner). */
  private deadline(m: MatchData, stateID: number): { at: number; stateID: number } | null {
    const c = m.clock;
    if (!c || c.running === null || c.deadline === null || m.gameover !== undefined || c.stateID !== stateID) return null;
    if (m.standIns?.[c.running]) return null;
    return { at: c.deadline, stateID };
  }

  private look(m: MatchView): void {
    if (this.stopped || !settingsFrom(m.metadata.setupData as never).clock) return;
    if (clockToStart(m.metadata)) return void this.begin(m.matchID).catch((err: unknown) => this.o.log.error({ err, matchID: m.matchID }, 'starting the clock failed'));
    const d = this.deadline(m.metadata, m.state._stateID);
    if (d) this.arm(m.matchID, d.at, d.stateID);
    else this.disarm(m.matchID);
  }

  /** Starts the clock of a match whose seats are both taken: the first decider's time runs from now. */
  private async begin(matchID: string): Promise<void> {
    const m = await this.o.service.current(matchID);
    if (!m) return;
    const decider = (m.state.G as WatergateState).prompt?.player ?? null;
    const stateID = m.state._stateID;
    await this.o.service.changeMetadata(matchID, (meta) => {
      const setting = settingsFrom(meta.setupData as never).clock;
      if (!setting || !clockToStart(meta)) return meta; // started meanwhile (another process), or a seat left
      return { ...meta, clock: startClock(setting, decider as PlayerID | null, stateID, Date.now()) };
    });
  }

  private arm(matchID: string, at: number, stateID: number): void {
    const t = this.timers.get(matchID);
    if (t && t.at === at && t.stateID === stateID) return;
    this.disarm(matchID);
    const wait = Math.min(MAX_WAIT, Math.max(0, at - Date.now()));
    const timer = setTimeout(() => {
      this.timers.delete(matchID);
      void this.timeUp(matchID, stateID).catch((err: unknown) => this.o.log.error({ err, matchID }, 'running out of time failed'));
    }, wait);
    timer.unref?.();
    this.timers.set(matchID, { at, stateID, timer });
  }

  private disarm(matchID: string): void {
    const t = this.timers.get(matchID);
    if (t) clearTimeout(t.timer);
    this.timers.delete(matchID);
  }

  /** The armed deadline passed: if the stored clock agrees, the game ends on time or the computer plays. */
  async timeUp(matchID: string, stateID: number): Promise<void> {
    if (this.stopped) return;
    const m = await this.o.service.current(matchID);
    if (!m) return;
    const c = m.metadata.clock;
    if (m.state._stateID !== stateID || !expired(c, stateID, Date.now())) {
      // Early (setTimeout's cap) or the game moved on: look again at what is current.
      return this.look(m);
    }
    const setting = settingsFrom(m.metadata.setupData as never).clock!;
    const seat = c.running;
    // A rated game is never played on by the computer: time lost is the game lost (match/ending.ts).
    if (setting.onTimeout === 'lose' || m.metadata.rated) {
      const refusal = await this.o.service.move({ matchID, playerID: seat, credentials: null, type: 'timeout', arg: undefined, stateID });
      if (refusal && refusal.type !== 'stale') this.o.log.warn({ matchID, seat, refusal }, 'timeout refused');
      if (!refusal) this.o.log.info({ matchID, seat }, 'clock ran out: game over');
      return;
    }
    await this.o.service.changeMetadata(matchID, (meta) => {
      if (!expired(meta.clock, stateID, Date.now()) || meta.standIns?.[seat]) return meta;
      return { ...meta, standIns: { ...meta.standIns, [seat]: { level: 'normal', reason: 'time', since: Date.now() } } };
    });
    this.o.log.info({ matchID, seat }, 'clock ran out: the computer plays the seat');
  }

  /** Deadlines of timed matches in storage (and clocks to start), whether or not this memory has them. */
  private async scan(): Promise<void> {
    if (this.stopped) return;
    try {
      const horizon = Date.now() + (this.o.scanMs ?? 30_000);
      for (const t of await this.o.store.timedMatches()) {
        if (clockToStart(t.metadata)) await this.begin(t.matchID);
        const d = this.deadline(t.metadata, t.stateID);
        if (d && d.at <= horizon) this.arm(t.matchID, d.at, d.stateID);
      }
    } catch (err) {
      this.o.log.error({ err }, 'looking for clock deadlines failed');
    }
  }
}
