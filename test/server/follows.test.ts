/**
 * Following players (server/social/follows.ts) on SQLite and PostgreSQL, over real HTTP and sockets:
 * follow and unfollow by name (no consent, nothing told to the one followed), the list is its owner's
 * alone, each followed player shows online with an open page or a connected socket, and the games they
 * play with a watch link unless the match is private; bounded per account; removed with the account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, player, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';
import { signUp, type Signed } from './account-helpers';

const hasPg = await postgresAvailable();

const unfollow = async (url: string, who: Signed, name: string) => {
  const r = await fetch(`${url}/api/follow/${encodeURIComponent(name)}`, { method: 'DELETE', headers: { cookie: who.cookie, origin: url } });
  return { status: r.status, body: await r.json() };
};

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`following (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend);
    });
    afterAll(async () => {
      await t?.stop();
    });
    const list = async (who: Signed) => (await who.call('/api/following')).body.players as { username: string; online: boolean; playing: number; watch: string[] }[];

    it('follows and unfollows by name; the list is private to its owner', async () => {
      const ann = await signUp(t.url, 'FolAnn');
      const bob = await signUp(t.url, 'FolBob');
      expect(await ann.call('/api/follow/folbob', {})).toMatchObject({ status: 200, body: { following: true, username: 'FolBob' } });
      // Again: no change, no error.
      expect((await ann.call('/api/follow/FOLBOB', {})).status).toBe(200);
      expect(await list(ann)).toEqual([{ username: 'FolBob', online: false, playing: 0, watch: [] }]);
      expect((await ann.call('/api/follow/FolAnn', {})).status).toBe(400);
      expect((await ann.call('/api/follow/nobody-here', {})).status).toBe(404);
      expect((await api(t.url, '/api/follow/FolBob', {}, { origin: t.url })).status).toBe(401);
      expect((await api(t.url, '/api/following')).status).toBe(401);
      // Bob is told nothing and sees no follower; his profile does not show it either.
      expect(await list(bob)).toEqual([]);
      expect(JSON.stringify((await api(t.url, '/players/FolBob')).body)).not.toContain('FolAnn');
      expect(await unfollow(t.url, ann, 'FolBob')).toEqual({ status: 200, body: { following: false, username: 'FolBob' } });
      expect(await list(ann)).toEqual([]);
    });

    it('shows who is online (a page open, or a socket in a match) and their games, linking only public ones', async () => {
      const cy = await signUp(t.url, 'FolCy');
      const dee = await signUp(t.url, 'FolDee');
      const eve = await signUp(t.url, 'FolEve');
      await cy.call('/api/follow/FolDee', {});
      await cy.call('/api/follow/FolEve', {});
      expect(await list(cy)).toEqual([
        { username: 'FolDee', online: false, playing: 0, watch: [] },
        { username: 'FolEve', online: false, playing: 0, watch: [] },
      ]);
      // Dee opens the lobby (her friends list asks the server): online.
      await dee.call('/api/following');
      expect((await list(cy))[0]).toMatchObject({ username: 'FolDee', online: true });

      // Eve sits down in a public match and a private one against guests; her board open in the public one.
      const pub = (await eve.call('/games/watergate/create', {})).body.matchID as string;
      const priv = (await eve.call('/games/watergate/create', { unlisted: true })).body.matchID as string;
      const creds = (await eve.call(`/games/watergate/${pub}/join`, { playerID: '0' })).body.playerCredentials as string;
      expect((await eve.call(`/games/watergate/${priv}/join`, { playerID: '0' })).status).toBe(200);
      // A match waiting for its opponent is not a game in play yet.
      expect((await list(cy))[1]).toEqual({ username: 'FolEve', online: false, playing: 0, watch: [] });
      for (const m of [pub, priv]) expect((await api(t.url, `/games/watergate/${m}/join`, { playerID: '1', playerName: 'Guest' })).status).toBe(200);
      expect((await list(cy))[1]).toEqual({ username: 'FolEve', online: false, playing: 2, watch: [pub] });
      const board = player(t.url, pub, '0', creds);
      await until(async () => (await list(cy))[1].online, 'Eve online by her socket');
      board.stop();
      await until(async () => !(await list(cy))[1].online, 'Eve away again');
      // A finished game is no longer listed.
      expect((await eve.call(`/games/watergate/${pub}/leave`, { playerID: '0', credentials: creds })).status).toBe(200);
      await until(async () => (await list(cy))[1].playing === 1, 'the left game gone');
      expect((await list(cy))[1].watch).toEqual([]);
    });

    it('is bounded per account, and a deleted account leaves every list', async () => {
      const fay = await signUp(t.url, 'FolFay');
      const gus = await signUp(t.url, 'FolGus');
      const ids = await Promise.all(['folfay', 'folgus', 'folann', 'folbob'].map(async (k) => (await t.store.accounts.byKey(k))!.id));
      // The bound, checked by the storage with a small maximum (the route's is FOLLOWS.max).
      expect(await t.store.follows.follow(ids[0], ids[2], Date.now(), 2)).toBe('added');
      expect(await t.store.follows.follow(ids[0], ids[3], Date.now(), 2)).toBe('added');
      expect(await t.store.follows.follow(ids[0], ids[1], Date.now(), 2)).toBe('full');
      expect(await t.store.follows.follow(ids[0], ids[3], Date.now(), 2)).toBe('already');
      expect((await fay.call('/api/follow/FolGus', {})).status).toBe(200);
      expect((await list(fay)).map((p) => p.username)).toEqual(['FolAnn', 'FolBob', 'FolGus']);
      const r = await gus.call('/auth/delete', { password: 'correct horse battery' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect((await list(fay)).map((p) => p.username)).toEqual(['FolAnn', 'FolBob']);
    });
  });
}
