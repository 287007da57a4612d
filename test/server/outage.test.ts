/**
 * Outages end in clear answers, not hangs: mid-game, the test's own PostgreSQL is (a) stopped and (b)
 * frozen with SIGSTOP (a database that hangs instead of refusing). Meanwhile /healthz, a Lobby call and
 * every move are answered within seconds (503 / `unavailable`), nothing is applied in memory; once the
 * database is back the same move, sent again as a waiting board does, is played, and the stored moves
 * have every move once: none lost, none doubled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { legalMoves, type PlayerID, type WatergateState } from '../../game/index';
import type { GuardError } from '../../protocol/index';
import { startServer, type RunningServer } from '../../server/app';
import { openStore } from '../../server/storage/index';
import { api, createAndJoin, logCapture, next, nextState, rawSocket, stored, until } from './helpers';
import { canRunOwnPostgres, startPgInstance, type PgInstance } from './pg-instance';

const enabled = canRunOwnPostgres();
if (!enabled) console.warn('no PostgreSQL binaries or not root: the outage tests are SKIPPED');

let pg: PgInstance;
let server: RunningServer;
beforeAll(async () => {
  if (!enabled) return;
  pg = await startPgInstance();
  const store = await openStore({ databaseUrl: pg.url, databaseSchema: 'outage', dataDir: '', databaseTimeoutMs: 1000 });
  server = await startServer({ store, port: 0, host: '127.0.0.1', log: logCapture().log, snapshotEvery: 3 });
}, 120_000);
afterAll(async () => {
  pg?.thaw();
  await server?.close().catch(() => undefined);
  pg?.destroy();
});

/** How long something took, in ms, with its result. */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; out: T }> {
  const t0 = Date.now();
  const out = await fn();
  return { ms: Date.now() - t0, out };
}

describe.skipIf(!enabled)('storage outages', () => {
  it('stopped, then frozen: answers within seconds, nothing applied, then the game resumes with every move stored once', async () => {
    const { matchID, creds } = await createAndJoin(server.url);
    const sockets = {} as Record<PlayerID, Socket>;
    for (const seat of ['0', '1'] as const) {
      sockets[seat] = await rawSocket(server.url);
      const got = next(sockets[seat], 'sync');
      sockets[seat].emit('sync', matchID, seat, creds[seat], 2);
      await got;
    }
    const memory = () => server.service.peek(matchID)!.state as { G: WatergateState; _stateID: number };
    let accepted = 0;

    /** The next move (the first option of whoever decides), sent once: played, or the server's refusal. */
    const send = async (stateID = memory()._stateID, option = nextOption()) => {
      const s = sockets[option.seat];
      const refused = next<[GuardError]>(s, 'watergate:error', 20_000).then(([e]) => e, () => 'no answer' as const);
      const played = (async () => {
        while ((await nextState(s, 20_000)) <= stateID); // a delivery of an earlier move is not this one
        return null;
      })().catch(() => 'no answer' as const);
      s.emit('update', { type: 'MAKE_MOVE', payload: { type: option.move, args: option.args, playerID: option.seat, credentials: creds[option.seat] } }, stateID, matchID, option.seat);
      const out = await Promise.race([refused, played]);
      if (out === 'no answer') throw new Error(`no answer to a move on state ${stateID}`);
      if (out === null) accepted++;
      return out;
    };
    const nextOption = () => {
      const G = memory().G;
      const seat = G.prompt!.player as PlayerID;
      return { seat, ...legalMoves(G, seat)[0] };
    };
    /** A board waiting on "server busy": the same move on the same state, again after a moment, until answered. */
    const resend = async (stateID: number, option: ReturnType<typeof nextOption>) => {
      for (let i = 0; i < 60; i++) {
        const out = await send(stateID, option);
        if (out === null) return 'played';
        if (out.type === 'stale') return 'stale';
        expect(out.type).toBe('unavailable');
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error('the move was never played after the outage');
    };

    for (let i = 0; i < 4; i++) expect(await send()).toBeNull();

    for (const outage of ['stopped', 'frozen'] as const) {
      if (outage === 'stopped') pg.stop();
      else pg.freeze();
      const before = memory()._stateID;
      const option = nextOption();
      for (let i = 0; i < 2; i++) {
        const move = await timed(() => send(before, option));
        expect(move.out, outage).toMatchObject({ type: 'unavailable', message: expect.stringContaining('storage') });
        expect(move.ms, `${outage}: move answered in ${move.ms} ms`).toBeLessThan(5000);
        expect(memory()._stateID).toBe(before);
      }
      const health = await timed(() => api(server.url, '/healthz'));
      expect(health.out.status).toBe(503);
      expect(health.out.body).toMatchObject({ status: 'unavailable', storage: 'postgres', reason: expect.stringContaining('storage unavailable') });
      expect(health.ms, `${outage}: /healthz answered in ${health.ms} ms`).toBeLessThan(5000);
      const create = await timed(() => api(server.url, '/games/watergate/create', { numPlayers: 2 }));
      expect(create.out.status).toBe(503);
      expect(create.out.body).toEqual({ error: 'storage unavailable: try again in a moment', retryAfter: 1 });
      expect(create.out.headers.get('retry-after')).toBe('1');
      expect(create.ms, `${outage}: create answered in ${create.ms} ms`).toBeLessThan(5000);
      const read = await timed(() => api(server.url, `/games/watergate/${matchID}`));
      expect(read.out.status, `${outage}: one match`).toBe(503);
      expect(read.ms).toBeLessThan(5000);
      // A page (re)connecting meanwhile is told the same, not left waiting for its sync.
      const watcher = await rawSocket(server.url);
      const sync = await timed(async () => {
        const e = next<[GuardError]>(watcher, 'watergate:error', 20_000);
        watcher.emit('sync', matchID, null, undefined, 2);
        return (await e)[0];
      });
      expect(sync.out.type, `${outage}: sync`).toBe('unavailable');
      expect(sync.ms).toBeLessThan(5000);
      watcher.close();

      if (outage === 'stopped') pg.start();
      else pg.thaw();
      // A frozen commit may land once thawed: then the same move is stale (already played), never twice.
      const outcome = await resend(before, option);
      if (outcome === 'stale') accepted++;
      await until(() => memory()._stateID === before + 1, 'the move after the outage');
      await until(async () => (await api(server.url, '/healthz')).status === 200, 'healthy again', 20_000);
      for (let i = 0; i < 3; i++) expect(await send()).toBeNull();
    }

    // Every move played is stored once, in order, and storage replays to what the players were shown.
    const rows = await server.store.movesAfter(matchID, 0);
    expect(rows.map((r) => r.stateID)).toEqual(Array.from({ length: accepted }, (_, i) => i + 1));
    expect((await stored(server.store, matchID)).state._stateID).toBe(memory()._stateID);
    expect(JSON.stringify((await stored(server.store, matchID)).state.G)).toBe(JSON.stringify(memory().G));
    for (const s of Object.values(sockets)) s.close();
  }, 180_000);
});
