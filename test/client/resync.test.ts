/**
 * A client that missed an update (boardgame.io drops a patch made on a state it does not hold) asks for a
 * fresh sync as soon as a patch from ahead of its state arrives; a patch on its own state does not.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { resyncWhenBehind } from '../../client/net/resync';

function fakeClient(stateID: number) {
  const socket = new EventEmitter();
  const requestSync = vi.fn();
  const client = { getState: () => ({ _stateID: stateID }), transport: { socket, requestSync } };
  return { client, socket, requestSync };
}

describe('resync when behind', () => {
  it('asks for a sync when a patch starts from a later state than the one held, and only then', () => {
    const { client, socket, requestSync } = fakeClient(10);
    const stop = resyncWhenBehind(client);
    socket.emit('patch', 'm1', 10, 11, [], []);
    expect(requestSync).not.toHaveBeenCalled(); // boardgame.io applies this one itself
    socket.emit('patch', 'm1', 9, 10, [], []);
    expect(requestSync).not.toHaveBeenCalled(); // an old patch: nothing missed
    socket.emit('patch', 'm1', 12, 13, [], []);
    expect(requestSync).toHaveBeenCalledTimes(1); // 11 and 12 were missed
    stop();
    socket.emit('patch', 'm1', 14, 15, [], []);
    expect(requestSync).toHaveBeenCalledTimes(1);
  });
});
