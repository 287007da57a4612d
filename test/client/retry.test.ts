/**
 * A busy server's refusal (`unavailable`, `rate-limited`) makes the page ask the same again after the
 * wait — the same move on the same state, or the sync it has not had — and say so; a new state, or any
 * other answer, ends it. (Fake timers: what is checked is what is sent when, not how fast.)
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryWhenBusy, type Busy } from '../../client/net/retry';
import { ERROR_EVENT } from '../../protocol/index';

function fake(stateID: number | null) {
  const socket = new EventEmitter() as EventEmitter & { emit: (e: string, ...a: unknown[]) => boolean };
  const sent: unknown[][] = [];
  const realEmit = socket.emit.bind(socket);
  // What "the server" hears: the page's emits (update, sync) are recorded, not delivered locally.
  socket.emit = (e: string, ...a: unknown[]) => (e === 'update' || e === 'sync' ? (sent.push([e, ...a]), true) : realEmit(e, ...a));
  let state = stateID === null ? null : { _stateID: stateID };
  const subs: (() => void)[] = [];
  const client = {
    getState: () => state,
    subscribe: (fn: () => void) => (subs.push(fn), () => undefined),
    transport: { socket },
  };
  const busy: (Busy | null)[] = [];
  const stop = retryWhenBusy(client, (b) => busy.push(b));
  return {
    socket,
    sent,
    busy,
    stop,
    refuse: (type: string, retryAfterSeconds?: number) => realEmit(ERROR_EVENT, { matchID: 'm', type, message: 'x', retryAfterSeconds }),
    newState(id: number) {
      state = { _stateID: id };
      for (const f of subs) f();
    },
  };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('retry when the server is busy', () => {
  it('sends the same move on the same state again, waiting longer each time, until a new state arrives', () => {
    const f = fake(5);
    const move = [{ type: 'MAKE_MOVE', payload: { type: 'play', args: [{ card: 'E01', as: 'action' }] } }, 5, 'm', '0'];
    f.socket.emit('update', ...move);
    f.refuse('unavailable');
    expect(f.busy.at(-1)).toEqual({ type: 'unavailable', seconds: 1 });
    vi.advanceTimersByTime(999);
    expect(f.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(f.sent).toEqual([['update', ...move], ['update', ...move]]);
    f.refuse('unavailable');
    expect(f.busy.at(-1)).toEqual({ type: 'unavailable', seconds: 2 });
    vi.advanceTimersByTime(2000);
    expect(f.sent).toHaveLength(3);
    f.refuse('unavailable');
    f.newState(6); // the server answered: the move was played
    expect(f.busy.at(-1)).toBeNull();
    vi.advanceTimersByTime(60_000);
    expect(f.sent).toHaveLength(3);
  });

  it('waits as long as a rate limit says, and shows that wait', () => {
    const f = fake(3);
    f.socket.emit('update', { type: 'MAKE_MOVE' }, 3, 'm', '1');
    f.refuse('rate-limited', 7);
    expect(f.busy.at(-1)).toEqual({ type: 'rate-limited', seconds: 7 });
    vi.advanceTimersByTime(6999);
    expect(f.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(f.sent).toHaveLength(2);
  });

  it('never sends a move again once the state has moved on, nor after another kind of answer', () => {
    const f = fake(8);
    f.socket.emit('update', { type: 'MAKE_MOVE' }, 8, 'm', '0');
    f.refuse('unavailable');
    f.newState(9); // another process's news, or the move saved after all
    vi.advanceTimersByTime(30_000);
    expect(f.sent).toHaveLength(1);

    f.socket.emit('update', { type: 'MAKE_MOVE' }, 9, 'm', '0');
    f.refuse('invalid-move');
    f.refuse('unavailable'); // e.g. a chat line: the refused move is not asked again
    vi.advanceTimersByTime(30_000);
    expect(f.sent).toHaveLength(2);
    expect(f.busy.at(-1)).toBeNull();
  });

  it('asks for the sync again when the page has no state yet', () => {
    const f = fake(null);
    f.socket.emit('sync', 'm', '0', 'creds', 2);
    f.refuse('unavailable');
    vi.advanceTimersByTime(1000);
    expect(f.sent).toEqual([['sync', 'm', '0', 'creds', 2], ['sync', 'm', '0', 'creds', 2]]);
    f.newState(0);
    expect(f.busy.at(-1)).toBeNull();
  });
});
