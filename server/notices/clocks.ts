/**
 * "Your clock is about to run out" as a notice (server/notices/): a scan of the timed matches in storage
 * (the clocks' own list, `store.timedMatches`) every `scanMs` finds correspondence clocks — an initial
 * time of an hour or more — whose running seat is an account's, not connected, not played by the
 * computer, with at most `warnMs` left (default a fifth of the initial time, between 15 min and 6 h).
 * Each decision is warned of once, whichever process scans first (`once` on the match, seat and state).
 */
import { settingsFrom } from '../../game/index';
import { seatEntry } from '../../protocol/index';
import type { Logger } from '../log';
import { seatAccount } from '../storage/accounts';
import type { MatchStore } from '../storage/types';
import type { Notices } from './index';

/** A clock whose initial time is at least this is a correspondence clock. */
export const CORRESPONDENCE_SECONDS = 3600;
const warnFor = (initialSeconds: number) => Math.min(6 * 3_600_000, Math.max(15 * 60_000, initialSeconds * 200));

export class ClockWarnings {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly o: { store: MatchStore; notices: Notices; log: Logger; link: (matchID: string) => string; scanMs?: number; warnMs?: number }) {}

  start(): void {
    this.timer = setInterval(() => void this.scan(), this.o.scanMs ?? 60_000);
    this.timer.unref?.();
    void this.scan();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  scan(): Promise<void> {
    this.running ??= this.look()
      .catch((err: unknown) => this.o.log.warn({ err: (err as Error).message }, 'looking for clocks to warn of failed'))
      .finally(() => (this.running = null));
    return this.running;
  }

  private async look(): Promise<void> {
    const now = Date.now();
    for (const t of await this.o.store.timedMatches()) {
      const m = t.metadata;
      const c = m.clock;
      const setting = settingsFrom(m.setupData as never).clock;
      if (!c || !setting || c.running === null || c.deadline === null || m.gameover !== undefined || c.stateID !== t.stateID) continue;
      if (setting.initialSeconds < CORRESPONDENCE_SECONDS || m.standIns?.[c.running]) continue;
      const left = c.deadline - now;
      if (left <= 0 || left > (this.o.warnMs ?? warnFor(setting.initialSeconds))) continue;
      const p = seatEntry(m.players, c.running);
      const account = seatAccount(p);
      if (!account || p.isConnected === true) continue;
      if (!(await this.o.store.mail.once(`clock:${t.matchID}:${c.running}:${c.stateID}`, now, 7 * 86_400_000))) continue;
      this.o.notices.clock({ matchID: t.matchID, accountID: account.id, seat: c.running, leftMs: left, link: this.o.link(t.matchID) });
    }
  }
}
