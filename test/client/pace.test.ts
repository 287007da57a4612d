/**
 * The computer at a person's pace (client/net/pace.ts): its decisions, however quickly they arrive, are
 * shown one at a time, each held for the pause; the player's own moves and other news show at once, and
 * bring every state queued before them; "instant" holds nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { computerStep, Pacer } from '../../client/net/pace';

type S = { G: { log: { player: string | null }[]; prompt: { player: string } | null }; n: number };
let n = 0;
/** A state whose prompt is `next`'s and whose record has `lines` lines. */
const state = (lines: number, next: string): S => ({ G: { log: Array.from({ length: lines }, () => ({ player: null })), prompt: { player: next } }, n: n++ });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the pacer', () => {
  it('a decision of the computer is a state after its own prompt that adds to the record', () => {
    expect(computerStep(state(3, '1'), state(4, '0'), '1')).toBe(true);
    expect(computerStep(state(3, '0'), state(4, '1'), '1')).toBe(false); // the player's move
    expect(computerStep(state(3, '1'), state(3, '1'), '1')).toBe(false); // nothing recorded (presence, a resync)
    expect(computerStep(null, state(3, '1'), '1')).toBe(false); // the first state
  });

  it('holds each of the computer\'s decisions for the pause, one at a time', () => {
    const shows: number[] = [];
    const p = new Pacer<S>(() => '1', () => 900, () => shows.push(p.shown!.n));
    const start = state(2, '0');
    p.push(start);
    p.drawn();
    const mine = state(3, '1');
    p.push(mine); // the player's move: at once
    p.drawn();
    const a = state(4, '1');
    const b = state(5, '0');
    p.push(a);
    p.push(b); // two decisions of the computer, arriving together
    expect(shows).toEqual([start.n, mine.n]);
    vi.advanceTimersByTime(899);
    expect(shows).toEqual([start.n, mine.n]);
    vi.advanceTimersByTime(1);
    expect(shows).toEqual([start.n, mine.n, a.n]);
    p.drawn();
    vi.advanceTimersByTime(899);
    expect(p.shown).toBe(a);
    vi.advanceTimersByTime(1);
    expect(p.shown).toBe(b);
  });

  it('news that is not the computer\'s decision shows at once, with everything queued before it; instant holds nothing', () => {
    const p = new Pacer<S>(() => '1', () => 900, () => undefined);
    p.push(state(3, '1'));
    p.drawn();
    const a = state(4, '1');
    p.push(a);
    expect(p.shown).not.toBe(a);
    const resync = state(2, '0'); // an older record: a reload or resync, not a decision
    p.push(resync);
    expect(p.shown).toBe(resync);
    const instant = new Pacer<S>(() => '1', () => 0, () => undefined);
    instant.push(state(3, '1'));
    const c = state(4, '1');
    const d = state(5, '0');
    instant.push(c);
    instant.push(d);
    expect(instant.shown).toBe(d);
  });
});
