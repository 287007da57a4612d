/**
 * The public list over HTTP, in pages (limit, next/after, with boardgame.io's filters), and the purge of
 * finished matches after KEEP_FINISHED_DAYS with their moves, chat and states, on both backends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { startStaleSweeper } from '../../server/match/stale';
import { api, createAndJoin, postgresAvailable, startTestServer, type Backend, type TestServer } from './helpers';

const hasPg = await postgresAvailable();

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`the list and the purge (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend, { staleHours: 0 });
    });
    afterAll(async () => t?.stop());

    it('answers at most `limit` listed matches and a `next` to page on; unlisted ones never appear', async () => {
      const listed: string[] = [];
      for (let i = 0; i < 7; i++) listed.push((await api(t.url, '/games/watergate/create', {})).body.matchID);
      const hidden = [(await api(t.url, '/games/watergate/create', { unlisted: true })).body.matchID, (await api(t.url, '/games/watergate/vs-computer', {})).body.matchID];
      const seen: string[] = [];
      let path = '/games/watergate?limit=3';
      let pages = 0;
      for (;;) {
        const r = await api(t.url, path);
        expect(r.status).toBe(200);
        expect(r.body.matches.length).toBeLessThanOrEqual(3);
        seen.push(...r.body.matches.map((m: { matchID: string }) => m.matchID));
        pages++;
        if (!r.body.next) break;
        expect(typeof r.body.next).toBe('string');
        path = `/games/watergate?limit=3&after=${encodeURIComponent(r.body.next)}`;
      }
      expect(pages).toBe(3);
      expect([...seen].sort()).toEqual([...listed].sort());
      for (const h of hidden) expect(seen).not.toContain(h);
      // Without `limit`: the default page (here everything fits, so no next).
      const all = await api(t.url, '/games/watergate');
      expect(all.body.matches).toHaveLength(7);
      expect(all.body.next).toBeUndefined();
      // Past 50 (the default page), the first page stops at 50 and says there is more; 100 at most.
      for (let i = 0; i < 44; i++) listed.push((await api(t.url, '/games/watergate/create', {})).body.matchID);
      const first = await api(t.url, '/games/watergate');
      expect(first.body.matches).toHaveLength(50);
      expect(first.body.next).toEqual(expect.any(String));
      const rest = await api(t.url, `/games/watergate?after=${encodeURIComponent(first.body.next)}`);
      expect([...first.body.matches, ...rest.body.matches].map((m: { matchID: string }) => m.matchID).sort()).toEqual([...listed].sort());
      expect((await api(t.url, '/games/watergate?limit=100')).body.matches).toHaveLength(51);
      // The filters still apply: none of these is over.
      expect((await api(t.url, '/games/watergate?isGameover=true')).body.matches).toEqual([]);
      // What cannot be read is a 400 that says why, not an answer.
      for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'limit=1&limit=2', 'after=nonsense!', `after=${Buffer.from('x.y').toString('base64url')}`]) {
        const r = await api(t.url, `/games/watergate?${bad}`);
        expect(r.status, bad).toBe(400);
        expect(r.body.error, bad).toMatch(/^(limit must be a whole number from 1 to 100|limit must be given once|after must be the `next` of a previous page)$/);
      }
    });

    it('purges finished matches older than KEEP_FINISHED_DAYS with their moves, chat and states; keeps newer and unfinished ones', async () => {
      const old = await createAndJoin(t.url);
      const recent = await createAndJoin(t.url);
      const playing = await createAndJoin(t.url);
      await t.store.addChat(old.matchID, { id: 'c1', sender: '0', payload: 'good game', at: 1 });
      for (const m of [old, recent]) expect(await t.server.move(m.matchID, '1', 'resign', undefined)).toBeNull();
      expect((await t.store.movesAfter(old.matchID, -1)).length).toBeGreaterThan(0);
      // "Old": its last change three days ago (storage keeps what the service wrote; set it back).
      const days = 86_400_000;
      await t.store.updateMetadata(old.matchID, (m) => ({ ...m, updatedAt: Date.now() - 3 * days }));
      await t.store.updateMetadata(playing.matchID, (m) => ({ ...m, updatedAt: Date.now() - 3 * days }));
      const sweeper = startStaleSweeper({ store: t.store, service: t.server.service, log: t.server.log, staleMs: 0, keepFinishedMs: 2 * days });
      try {
        expect(await sweeper.sweep()).toBe(1);
      } finally {
        await sweeper.stop();
      }
      expect(await t.store.head(old.matchID)).toBeUndefined();
      expect(await t.store.movesAfter(old.matchID, -1)).toEqual([]);
      expect(await t.store.chat(old.matchID, 10)).toEqual([]);
      expect((await api(t.url, `/games/watergate/${old.matchID}`)).status).toBe(404);
      expect((await api(t.url, `/games/watergate/${old.matchID}/replay`)).status).toBe(404);
      // Finished more recently, or not finished (that is STALE_HOURS' business): kept.
      expect(await t.store.head(recent.matchID)).toBeDefined();
      expect(await t.store.head(playing.matchID)).toBeDefined();
    });
  });
}

describe('KEEP_FINISHED_DAYS', () => {
  it('defaults to 0 (kept forever), takes fractions, refuses anything else naming the variable', () => {
    expect(configFromEnv({}).keepFinishedDays).toBe(0);
    expect(configFromEnv({ KEEP_FINISHED_DAYS: '30' }).keepFinishedDays).toBe(30);
    expect(configFromEnv({ KEEP_FINISHED_DAYS: '0.5' }).keepFinishedDays).toBe(0.5);
    for (const bad of ['forever', '-1', '3d']) expect(() => configFromEnv({ KEEP_FINISHED_DAYS: bad }), bad).toThrow(/^KEEP_FINISHED_DAYS must be a number of days/);
  });
});
