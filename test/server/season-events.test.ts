/**
 * Events in the season score over HTTP (SQLite and PostgreSQL): the 1st, 2nd and 3rd of a finished rated
 * event of 8 players gain EVENT_BONUS.places on top of their rated games' points; a rated event of 4
 * players (below EVENT_BONUS.minPlayers: a few accounts of one person) and an unrated one add nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEvent, playToEnd, signUpPlayers } from './event-helpers';
import { api, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';
import { EVENT_BONUS, seasonAt } from '../../server/seasons/season';

const hasPg = await postgresAvailable();

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`events in the season score (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend, { events: { tickMs: 150, noShowMs: 600_000 } });
    });
    afterAll(async () => t?.stop());

    const table = async (): Promise<Map<string, number>> => {
      const r = await api(t.url, `/api/seasons/${seasonAt(Date.now()).id}`);
      expect(r.status).toBe(200);
      return new Map((r.body.table as { username: string; points: number }[]).map((s) => [s.username, s.points]));
    };
    const run = async (n: number, prefix: string, rated: boolean) => {
      const ep = await signUpPlayers(t.url, n, prefix);
      const [creator] = ep.players;
      const id = (await creator.call('/api/tournaments', { name: `Season ${prefix}`, rounds: 1, clock: 'none', rated })).body.id as string;
      for (const p of ep.players) expect((await p.call(`/api/tournaments/${id}/join`, {})).status).toBe(200);
      await creator.call(`/api/tournaments/${id}/start`, {});
      await until(async () => (await getEvent(creator, id)).round === 1, 'round 1 paired');
      return playToEnd(t.url, creator, ep, id);
    };

    it('a rated event of 8 gives its first three 6, 4 and 2 points; 4 players or unrated: nothing', { timeout: 120_000 }, async () => {
      const k = backend.slice(0, 2);
      const small = await run(4, `sm${k}`, true);
      const casual = await run(8, `ca${k}`, false);
      const big = await run(8, `bg${k}`, true);
      const after = await table();
      // Read once (the season table is cached 30 s). New accounts whose games were resigned before a first
      // decision (unrated: too few decisions) have no points but the bonus.
      const gain = (u: string) => after.get(u) ?? 0;
      expect(big.players.slice(0, 3).map((p) => gain(p.username))).toEqual([...EVENT_BONUS.places]);
      for (const p of big.players.slice(3)) expect(gain(p.username)).toBe(0);
      for (const p of [...small.players, ...casual.players]) expect(gain(p.username)).toBe(0);
    });
  });
}
