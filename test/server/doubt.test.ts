/**
 * A move's write whose outcome is unknown (storage saved it, then the answer was lost: a timeout after
 * the statement was sent) is not applied in memory and is answered `unavailable`; the stored head is read
 * again before anything else, so the saved move reaches both players, the mover's copy sent again is
 * refused as stale, and storage holds the move once. A write refused outright changes nothing anywhere.
 * The embedded file full (SQLite's max_page_count reached) is the same clear "try again": 503 / unavailable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { legalMoves, type PlayerID, type WatergateState } from '../../game/index';
import type { GuardError } from '../../protocol/index';
import { StorageUnavailableError } from '../../server/storage/errors';
import type { MoveCommit } from '../../server/storage/types';
import { api, createAndJoin, next, nextState, rawSocket, startTestServer, stored, type TestServer } from './helpers';

let t: TestServer;
let mode: 'ok' | 'refused' | 'saved-then-lost' = 'ok';
beforeAll(async () => {
  t = await startTestServer('embedded');
  const commit = t.store.commitMove.bind(t.store);
  t.store.commitMove = async (matchID: string, c: MoveCommit) => {
    if (mode === 'refused') throw new StorageUnavailableError(new Error('connection refused'));
    await commit(matchID, c);
    if (mode === 'saved-then-lost') throw new StorageUnavailableError(new Error('Query read timeout'));
  };
});
afterAll(async () => t?.stop());

describe('a move write with an unknown outcome', () => {
  it('is applied once, from storage: delivered to both, the copy sent again refused as stale', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const sockets = {} as Record<PlayerID, Socket>;
    for (const seat of ['0', '1'] as const) {
      sockets[seat] = await rawSocket(t.url);
      const got = next(sockets[seat], 'sync');
      sockets[seat].emit('sync', matchID, seat, creds[seat], 2);
      await got;
    }
    const memory = () => t.server.service.peek(matchID)!.state as { G: WatergateState; _stateID: number };
    const send = (stateID: number) => {
      const G = memory().G;
      const seat = G.prompt!.player as PlayerID;
      const m = legalMoves(G, seat)[0];
      const action = { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: seat, credentials: creds[seat] } };
      return { seat, again: () => sockets[seat].emit('update', action, stateID, matchID, seat), first: sockets[seat].emit('update', action, stateID, matchID, seat) };
    };

    // Refused outright: nothing saved, nothing applied, and the same move goes through afterwards.
    const s0 = memory()._stateID;
    mode = 'refused';
    let refusal = next<[GuardError]>(sockets[memory().G.prompt!.player as PlayerID], 'watergate:error');
    let sent = send(s0);
    expect((await refusal)[0]).toMatchObject({ type: 'unavailable', retryAfterSeconds: 1 });
    expect(memory()._stateID).toBe(s0);
    expect(await t.store.movesAfter(matchID, s0)).toEqual([]);
    mode = 'ok';
    let delivered = nextState(sockets[sent.seat === '0' ? '1' : '0']);
    sent.again();
    expect(await delivered).toBe(s0 + 1);

    // Saved, but the answer lost.
    const s1 = memory()._stateID;
    mode = 'saved-then-lost';
    const mover = memory().G.prompt!.player as PlayerID;
    const opponent = mover === '0' ? '1' : '0';
    refusal = next<[GuardError]>(sockets[mover], 'watergate:error');
    delivered = nextState(sockets[opponent]);
    sent = send(s1);
    expect((await refusal)[0].type).toBe('unavailable');
    expect(memory()._stateID).toBe(s1); // not applied from memory
    mode = 'ok';
    // The board sends the same move again: the stored head is read first, the saved move delivered.
    const stale = next<[GuardError]>(sockets[mover], 'watergate:error');
    sent.again();
    expect(await delivered).toBe(s1 + 1);
    expect((await stale)[0].type).toBe('stale');
    expect(memory()._stateID).toBe(s1 + 1);

    const rows = await t.store.movesAfter(matchID, 0);
    expect(rows.map((r) => r.stateID)).toEqual([s0 + 1, s1 + 1]);
    expect(JSON.stringify((await stored(t.store, matchID)).state.G)).toBe(JSON.stringify(memory().G));
    for (const s of Object.values(sockets)) s.close();
  });

  it('a full embedded file answers 503, and serves again once there is room', async () => {
    const db = (t.store as unknown as { db: { pragma(s: string, o?: { simple: boolean }): unknown } }).db;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    try {
      // Each new match needs pages (its initial state): some create soon finds none left.
      const answers: Awaited<ReturnType<typeof api>>[] = [];
      for (let i = 0; i < 20 && !answers.some((r) => r.status !== 200); i++) answers.push(await api(t.url, '/games/watergate/create', { numPlayers: 2 }));
      const full = answers.at(-1)!;
      expect(full.status).toBe(503);
      expect(full.body).toEqual({ error: 'storage unavailable: try again in a moment', retryAfter: 1 });
      expect(full.headers.get('retry-after')).toBe('1');
    } finally {
      db.pragma('max_page_count = 1073741823');
    }
    expect((await api(t.url, '/games/watergate/create', { numPlayers: 2 })).status).toBe(200);
  });
});
