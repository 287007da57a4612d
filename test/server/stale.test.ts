/**
 * Stale matches (STALE_HOURS), with a limit of 1.8 s: an unfinished match nobody touched for that long
 * and where no person is connected is removed (a bot's seat does not count); a connected player keeps
 * it until their socket goes; a finished match and a match still being played are kept; a rated game in
 * play is never deleted but ended as abandoned by the seat it waits for (aborted before both sides
 * decided), and a running clock keeps a timed match for the clock to end; a bad STALE_HOURS stops the
 * server at start with a message naming it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import { configFromEnv } from '../../server/config';
import { startStaleSweeper } from '../../server/match/stale';
import type { MatchStore } from '../../server/storage/types';
import { freePort, startServerProcess } from '../../tools/cluster';
import { signUp } from './account-helpers';
import { api, createAndJoin, next, player, postgresAvailable, rawSocket, startTestServer, stored, until, type Backend, type TestServer } from './helpers';

const hasPg = await postgresAvailable();

const STALE_HOURS = 0.0005;
const STALE_MS = STALE_HOURS * 3_600_000; // 1.8 s; the sweeper looks every second

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded', { staleHours: STALE_HOURS });
});
afterAll(async () => t?.stop());

const exists = async (matchID: string) => (await t.store.head(matchID)) !== undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('stale matches', () => {
  it('removes idle unfinished matches nobody is connected to; keeps connected, finished and active ones', async () => {
    const t0 = Date.now();
    const nobody = (await api(t.url, '/games/watergate/create', {})).body.matchID as string;
    const botOnly = (await api(t.url, '/games/watergate/vs-computer', { botSeat: '1' })).body.matchID as string;

    const waiting = (await api(t.url, '/games/watergate/create', {})).body.matchID as string;
    const ann = (await api(t.url, `/games/watergate/${waiting}/join`, { playerID: '0', playerName: 'Ann' })).body.playerCredentials as string;
    const socket = await rawSocket(t.url);
    const synced = next(socket, 'sync');
    socket.emit('sync', waiting, '0', ann, 2);
    await synced;
    await until(async () => (await t.store.head(waiting))!.metadata.players[0].isConnected === true, 'Ann connected');

    const finished = await createAndJoin(t.url);
    expect(await t.server.move(finished.matchID, '1', 'resign', undefined)).toBeNull();

    const active = await createAndJoin(t.url);
    const playOne = async () => {
      const G = (await stored(t.store, active.matchID)).state.G as WatergateState;
      const p = G.prompt!.player as '0' | '1';
      const m = legalMoves(G, p)[0];
      expect(await t.server.move(active.matchID, p, m.move, m.args[0])).toBeNull();
    };
    // Moves every 400 ms keep `active` fresh for the whole test.
    let playing = true;
    const mover = (async () => {
      while (playing) {
        await playOne();
        await sleep(400);
      }
    })();

    try {
      await sleep(2 * STALE_MS + 1_200 - (Date.now() - t0));
      expect(await exists(nobody)).toBe(false);
      expect(await exists(botOnly)).toBe(false);
      expect(await exists(waiting)).toBe(true);
      expect(await exists(finished.matchID)).toBe(true);
      expect(await exists(active.matchID)).toBe(true);
      expect(await api(t.url, `/games/watergate/${nobody}`)).toMatchObject({ status: 404 });

      // Ann's page goes: her match is stale and nobody is there any more.
      socket.close();
      await until(async () => !(await exists(waiting)), 'the abandoned match removed', 10_000);
      expect(await exists(finished.matchID)).toBe(true);
      expect(await exists(active.matchID)).toBe(true);
    } finally {
      playing = false;
      await mover;
    }

    const removed = t.logs.filter((l) => l.includes('stale match removed'));
    expect(removed.some((l) => l.includes(nobody))).toBe(true);
    expect(removed.some((l) => l.includes(waiting))).toBe(true);
    expect(removed.some((l) => l.includes(active.matchID) || l.includes(finished.matchID))).toBe(false);
    expect(await t.server.metrics.registry.getSingleMetricAsString('wg_stale_matches_removed_total')).toMatch(/wg_stale_matches_removed_total 3\b/);
  }, 30_000);
});

describe('stale games that must end by their rules', () => {
  it('a rated game in play is ended, not deleted: the seat it waited for loses (or the game is aborted before both sides decided); a running clock keeps a timed game', async () => {
    const ed = await signUp(t.url, 'StaleEd');
    const nx = await signUp(t.url, 'StaleNx');
    const rated = async () => {
      const matchID = (await ed.call('/games/watergate/create', {})).body.matchID as string;
      const creds = { '0': (await ed.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials as string, '1': (await nx.call(`/games/watergate/${matchID}/join`, { playerID: '1' })).body.playerCredentials as string };
      return { matchID, creds };
    };
    const fresh = (await rated()).matchID;
    // Each side decides once in `played`, from its own board; then both boards close.
    const game = await rated();
    const played = game.matchID;
    const ps = { '0': player(t.url, played, '0', game.creds['0']), '1': player(t.url, played, '1', game.creds['1']) };
    await until(() => ps['0'].state() !== null && ps['1'].state() !== null, 'synced');
    const decided = new Set<string>();
    while (decided.size < 2) {
      const s = ps['0'].state()!;
      const p = s.G.prompt!.player as '0' | '1';
      const m = legalMoves(ps[p].state()!.G as unknown as WatergateState, p)[0];
      (ps[p].client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
      await until(() => ps['0'].state()!._stateID > s._stateID, 'the move landed');
      decided.add(p);
    }
    ps['0'].stop();
    ps['1'].stop();
    const waitingFor = ((await stored(t.store, played)).state.G as WatergateState).prompt!.player;
    const timed = (await createAndJoin(t.url, { clock: { initialSeconds: 3600, incrementSeconds: 0, onTimeout: 'lose' } })).matchID;
    await until(async () => (await stored(t.store, timed)).metadata.clock !== undefined, 'the clock started');
    await until(async () => (await t.store.head(played))!.metadata.gameover !== undefined && (await t.store.head(fresh))!.metadata.gameover !== undefined, 'both rated games ended by the sweep', 15_000);
    expect((await t.store.head(fresh))!.metadata.gameover).toEqual({ reason: 'aborted', aborted: '0' });
    expect((await t.store.head(played))!.metadata.gameover).toEqual({ winner: waitingFor === '0' ? '1' : '0', reason: 'abandoned' });
    const record = ((await api(t.url, '/players/StaleEd')).body.matches as { matchID: string; won: boolean; rated: boolean }[]).find((m) => m.matchID === played)!;
    expect(record).toMatchObject({ won: waitingFor === '1', rated: true });
    await sleep(STALE_MS + 1_200);
    expect(await exists(timed)).toBe(true);
    expect(await exists(played)).toBe(true);
  }, 30_000);
});

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`the sweep's transaction (${backend})`, () => {
    it('checks again before deleting: a join after the listing keeps the match; two sweepers at once remove a match once', async () => {
      // A server without a sweeper of its own (STALE_HOURS=0): only the sweepers made here run.
      const u = await startTestServer(backend, { staleHours: 0 });
      try {
        const here = async (id: string) => (await u.store.head(id)) !== undefined;
        const { matchID } = (await api(u.url, '/games/watergate/create', {})).body;
        const other = (await api(u.url, '/games/watergate/create', {})).body.matchID as string;
        await sleep(STALE_MS + 100);
        expect(await here(other)).toBe(true); // 0: never removed
        // A sweeper whose listing is followed at once by a join: the match it listed as stale is no longer.
        const joining = Object.create(u.store) as MatchStore;
        joining.listMatches = async (o) => {
          const ids = await u.store.listMatches(o);
          expect(ids).toContain(matchID);
          await api(u.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Late' });
          return ids.filter((id) => id === matchID);
        };
        const opts = { store: joining, service: u.server.service, log: u.server.log, staleMs: STALE_MS };
        const late = startStaleSweeper(opts);
        expect(await late.sweep()).toBe(0);
        await late.stop();
        expect(await here(matchID)).toBe(true);
        // Two sweepers (as two processes) on the same storage: one removes it, the other finds nothing to do.
        const [a, b] = [startStaleSweeper({ ...opts, store: u.store }), startStaleSweeper({ ...opts, store: u.store })];
        const counts = await Promise.all([a.sweep(), b.sweep()]);
        await Promise.all([a.stop(), b.stop()]);
        expect(counts[0] + counts[1]).toBe(1);
        expect(await here(other)).toBe(false);
        expect(await here(matchID)).toBe(true);
      } finally {
        await u.stop();
      }
    });
  });
}

describe('STALE_HOURS', () => {
  it('defaults to 24, takes fractions and 0 (never), and refuses anything else naming the variable', async () => {
    expect(configFromEnv({}).staleHours).toBe(24);
    expect(configFromEnv({ STALE_HOURS: '0.5' }).staleHours).toBe(0.5);
    expect(configFromEnv({ STALE_HOURS: '0' }).staleHours).toBe(0);
    for (const bad of ['soon', '-1', 'Infinity', '1e400', '2h']) expect(() => configFromEnv({ STALE_HOURS: bad }), bad).toThrow(/^STALE_HOURS must be a number of hours/);
    // At start: the server stops with the message, before listening.
    const dir = mkdtempSync(join(tmpdir(), 'wg-stale-'));
    const failed = await startServerProcess({ STALE_HOURS: 'soon', DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '' }, await freePort(), 30_000).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/"code":1/);
    expect(failed).toMatch(/STALE_HOURS must be a number of hours/);
    rmSync(dir, { recursive: true, force: true });
  });
});
