/**
 * The computer at a person's pace: its decisions reach the page at the speed of a server or a worker
 * (tens of milliseconds apart), so a turn of several decisions would flash by. The page shows them one at
 * a time instead, each held on screen for the chosen pause before the next (instant, normal, slow;
 * remembered in this browser). Only the showing waits: the bot thinks where it always does. A state that
 * is not the computer's decision (the player's own move, a resync) is shown at once, with all before it.
 */
import { useEffect, useState } from 'react';
import type { LogEntry } from '../../game';

export const PACES = { instant: 0, normal: 900, slow: 1800 } as const;
export type Pace = keyof typeof PACES;
const KEY = 'watergate.pace';
const CHANGED = 'watergate-pace';

export function paceNow(): Pace {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  return v === 'instant' || v === 'slow' ? v : 'normal';
}

export function setPace(p: Pace): void {
  localStorage.setItem(KEY, p);
  window.dispatchEvent(new Event(CHANGED));
}

/** The chosen pace, kept current when it is changed (here or in another part of the page). */
export function usePace(): Pace {
  const [pace, set] = useState(paceNow);
  useEffect(() => {
    const changed = () => set(paceNow());
    window.addEventListener(CHANGED, changed);
    return () => window.removeEventListener(CHANGED, changed);
  }, []);
  return pace;
}

interface Shown {
  G: unknown;
}
type Public = { log?: readonly LogEntry[]; prompt?: { player?: string } | null };
const gOf = (s: Shown | null): Public => (s?.G as Public | undefined) ?? {};

/**
 * Whether `next` is `prev` after a decision of `seat`: the public prompt was its own, and the record grew
 * (what follows from the decision, the other side's card resolving, is part of it).
 */
export function computerStep(prev: Shown | null, next: Shown, seat: string): boolean {
  const before = gOf(prev);
  return before.prompt?.player === seat && (gOf(next).log?.length ?? 0) > (before.log?.length ?? 0);
}

/**
 * A queue of states between the client and the board: `push` every state the client reports; `shown` is
 * the one to draw; `onShow` is called whenever it changes.
 */
export class Pacer<S extends Shown> {
  shown: S | null = null;
  private queue: S[] = [];
  private at = 0;
  private fresh = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly seat: () => string | null,
    private readonly pause: () => number,
    private readonly onShow: () => void,
  ) {}

  push(state: S | null): void {
    if (state === null) return;
    this.queue.push(state);
    // Looked at again: news behind a held decision lets everything through.
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pump();
  }

  private pump(): void {
    let changed = false;
    while (this.queue.length > 0) {
      const next = this.queue[0];
      const seat = this.seat();
      const paced = seat !== null && computerStep(this.shown, next, seat) && this.queue.every((s, i) => i === 0 || computerStep(this.queue[i - 1], s, seat));
      const wait = paced ? this.pause() - (performance.now() - this.at) : 0;
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait);
        break;
      }
      this.queue.shift();
      this.shown = next;
      this.at = performance.now();
      this.fresh = true;
      changed = true;
    }
    if (changed) this.onShow();
  }

  /** The board has drawn the state shown: its time on screen counts from now (a render takes a while). */
  drawn(): void {
    if (!this.fresh) return;
    this.fresh = false;
    this.at = performance.now();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }
}
