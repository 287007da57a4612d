/**
 * Paired deals as a challenge option over real HTTP (SQLite and PostgreSQL): accepting makes the first
 * match on a server-chosen deal; only when it ends is the second made, on the same deal with sides
 * swapped, both accounts seated and told by their event streams; GET /api/challenge/:id shows the pair
 * and its 1 / ½ / 0 score; the pair is no listed event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, botAccount, lineOf, ndjson } from './challenge-helpers';
import { pairStatus, resign, seatOf } from './event-helpers';
import { postgresAvailable, startTestServer, stored, until, type Backend, type TestServer } from './helpers';

const hasPg = await postgresAvailable();

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`paired challenges (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend, { events: { tickMs: 150, noShowMs: 600_000 }, limits: { challenge: { points: 1000, seconds: 60 } } });
    });
    afterAll(async () => t?.stop());

    it('one deal played from both sides, the second made when the first ends, scored as a pair', async () => {
      const k = backend.slice(0, 2);
      const a = await botAccount(t.url, `pa${k}one`);
      const b = await botAccount(t.url, `pa${k}two`);
      const sa = ndjson(t.url, '/api/stream/event', bearer(a.token));
      const sb = ndjson(t.url, '/api/stream/event', bearer(b.token));
      try {
        expect((await a.who.call(`/api/challenge/${b.username}`, { paired: true, takeBacks: true })).status).toBe(400);
        const sent = await a.who.call(`/api/challenge/${b.username}`, { paired: true, side: 'editor', clock: 'none' });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        expect(sent.body.challenge.paired).toBe(true);
        const id = sent.body.id as string;
        const acc = await b.who.call(`/api/challenge/${id}/accept`, {});
        expect(acc.status, JSON.stringify(acc.body)).toBe(200);
        const first = acc.body.matchID as string;
        expect(acc.body.playerID).toBe('1'); // the challenger asked for the Editor in the first game
        // Both seated (their matches list it), both streams told.
        await lineOf(sa, 'gameStart', (l) => l.matchID === first);
        await lineOf(sb, 'gameStart', (l) => l.matchID === first);
        let view = (await a.who.call(`/api/challenge/${id}`)).body;
        expect(view.pair.games).toHaveLength(1);
        expect(view.pair.games[0]).toMatchObject({ matchID: first, editor: a.username, nixon: b.username, result: null });
        expect(view.pair.score).toBeNull();
        expect((await b.who.call(`/api/challenge/${id}`)).status).toBe(200);
        const c = await botAccount(t.url, `pa${k}three`);
        expect((await c.who.call(`/api/challenge/${id}`)).status).toBe(404); // only its two players see the pair
        // Hidden: not in the list of events, no event page.
        expect(((await a.who.call('/api/tournaments')).body.events as { id: string }[]).some((e) => e.id === id)).toBe(false);
        expect((await a.who.call(`/api/tournaments/${id}`)).status).toBe(404);
        // Still only one game a while later: the second deal is not made before the first ends.
        await new Promise((r) => setTimeout(r, 600));
        expect((await a.who.call(`/api/challenge/${id}`)).body.pair.games).toHaveLength(1);
        // The challenged (Nixon) resigns the first game: the Editor (the challenger) wins it.
        const s1 = await seatOf(b.who, first);
        await resign(t.url, first, s1.playerID, s1.playerCredentials);
        await until(async () => (await a.who.call(`/api/challenge/${id}`)).body.pair.games.length === 2, 'the second game of the pair');
        view = (await a.who.call(`/api/challenge/${id}`)).body;
        const second = view.pair.games[1];
        expect([second.editor, second.nixon]).toEqual([b.username, a.username]); // sides swapped
        expect(second.seed).toBe(view.pair.games[0].seed);
        // The view names the second game as soon as the pair's document does; its match follows in the runner's next step.
        await until(async () => (await stored(t.store, second.matchID)).initialState !== undefined, 'the second match made');
        const [g1, g2] = [await stored(t.store, first), await stored(t.store, second.matchID)];
        expect(g2.initialState.G).toEqual(g1.initialState.G);
        expect(g2.initialState.plugins.random.data.seed).toBe(g1.initialState.plugins.random.data.seed);
        // The boards say which game of the pair each is; the second names the first's winner, no event (it is hidden).
        expect(await pairStatus(t.url, first)).toEqual({ game: 1 });
        expect(await pairStatus(t.url, second.matchID)).toEqual({ game: 2, first: { matchID: first, winner: 'editor' } });
        await lineOf(sa, 'gameStart', (l) => l.matchID === second.matchID && l.seat === '1');
        await lineOf(sb, 'gameStart', (l) => l.matchID === second.matchID && l.seat === '0');
        // The challenger resigns the second as Nixon: one game each, the pair is drawn ½ – ½.
        const s2 = await seatOf(a.who, second.matchID);
        await resign(t.url, second.matchID, s2.playerID, s2.playerCredentials);
        await until(async () => (await a.who.call(`/api/challenge/${id}`)).body.pair.score !== null, 'the pair scored');
        view = (await b.who.call(`/api/challenge/${id}`)).body;
        expect(view.pair.games.map((g: { result: string }) => g.result)).toEqual(['editor', 'editor']);
        expect(view.pair.score).toEqual({ [a.username]: 0.5, [b.username]: 0.5 });
      } finally {
        sa.close();
        sb.close();
      }
    });
  });
}
