/**
 * Resigning over the socket: the player who is not to move gives up while the other decides; both
 * clients see the game end with the reason, the stored match says so, and nothing can be played after; a
 * resignation sent as the opponent's move lands is not lost as stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import type { GuardError } from '../../protocol/index';
import { createAndJoin, next, nextState, rawSocket, startTestServer, stored, type TestServer } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded');
});
afterAll(async () => t?.stop());

const action = (type: string, playerID: string, credentials: string, args: unknown[] = []) => ({ type: 'MAKE_MOVE', payload: { type, args, playerID, credentials } });

describe('resign over the socket', () => {
  it('the waiting player resigns: both sides see the end and why; the match is over for good', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const sockets = { '0': await rawSocket(t.url), '1': await rawSocket(t.url) };
    let stateID = 0;
    for (const seat of ['0', '1'] as const) {
      const synced = next<[string, { state: { _stateID: number; G: { prompt: { player: string } } } }]>(sockets[seat], 'sync');
      sockets[seat].emit('sync', matchID, seat, creds[seat], 2);
      const s = (await synced)[1].state;
      stateID = s._stateID;
      expect(s.G.prompt.player).toBe('0'); // the Editor is to move
    }
    // With an argument: refused, nothing changes.
    const refused = next<[GuardError]>(sockets['1'], 'watergate:error');
    sockets['1'].emit('update', action('resign', '1', creds['1'], ['now']), stateID, matchID, '1');
    expect((await refused)[0]).toMatchObject({ type: 'invalid-move', message: 'resign takes no argument' });

    const seen = [nextState(sockets['0']), nextState(sockets['1'])];
    sockets['1'].emit('update', action('resign', '1', creds['1']), stateID, matchID, '1');
    expect(await Promise.all(seen)).toEqual([stateID + 1, stateID + 1]);
    const { state, metadata } = await stored(t.store, matchID);
    expect(state.ctx.gameover).toEqual({ winner: '0', reason: 'resigned' });
    expect(metadata.gameover).toEqual({ winner: '0', reason: 'resigned' });
    expect(state.G.log.at(-1)).toMatchObject({ key: 'win.resigned', player: '0' });

    const after = next<[GuardError]>(sockets['0'], 'watergate:error');
    sockets['0'].emit('update', action('resign', '0', creds['0']), stateID + 1, matchID, '0');
    expect((await after)[0]).toMatchObject({ type: 'invalid-move', message: 'the game is over' });
    sockets['0'].close();
    sockets['1'].close();
  });

  it('a resignation sent on a state the opponent\'s move has just replaced still resigns (a decision would be refused as stale)', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const sockets = { '0': await rawSocket(t.url), '1': await rawSocket(t.url) };
    for (const seat of ['0', '1'] as const) {
      const synced = next(sockets[seat], 'sync');
      sockets[seat].emit('sync', matchID, seat, creds[seat], 2);
      await synced;
    }
    const { state } = await stored(t.store, matchID);
    const m = legalMoves(state.G as WatergateState, '0')[0];
    // The Editor decides; Nixon's board still shows the state before and resigns from it.
    const seen = nextState(sockets['1']);
    sockets['0'].emit('update', action(m.move, '0', creds['0'], m.args), state._stateID, matchID, '0');
    await seen;
    const over = nextState(sockets['1']);
    sockets['1'].emit('update', action('resign', '1', creds['1']), state._stateID, matchID, '1');
    await over;
    expect((await stored(t.store, matchID)).state.ctx.gameover).toEqual({ winner: '0', reason: 'resigned' });
    sockets['0'].close();
    sockets['1'].close();
  });
});
