/**
 * Refused requests (socket and HTTP) are logged one by one at debug only, and summed up at info once a
 * minute (counts by kind), so a flood of junk costs a line a minute in an operator's log, not a line a
 * packet — while debug still shows each one when someone is looking.
 */
import type { Logger } from './log';

export class RefusalLog {
  private counts = new Map<string, number>();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly log: Logger,
    everyMs = 60_000,
  ) {
    this.timer = setInterval(() => this.flush(), everyMs);
    this.timer.unref();
  }

  /** One refusal: `kind` names the door (socket, http, upgrade), `type` why (a RefusalType or a status). */
  note(kind: string, type: string, detail: Record<string, unknown> = {}): void {
    const key = `${kind}:${type}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.log.debug({ ...detail, kind, type }, 'request refused');
  }

  /** The summary of what was refused since the last one (nothing when nothing was). */
  flush(): void {
    if (this.counts.size === 0) return;
    const refused = Object.fromEntries(this.counts);
    this.counts = new Map();
    this.log.info({ refused }, 'requests refused in the last minute');
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
