/**
 * A signed-in player's matches on every device (embedded and PostgreSQL): create, join, vs computer and
 * play again record the seat for the account; `GET /me/matches` gives each seat's credentials to that
 * account only; the public data shows the username and side rating, never credentials or the account's
 * id; a guest's seats become the account's with their credentials; a seat left is listed no more; the
 * account's webhook tells its seats' turns; a deleted account's seats are left or renamed "deleted player".
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_PLAYER } from '../../protocol/accounts';
import { api, player, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';
import { signUp, type Signed } from './account-helpers';

const hasPg = await postgresAvailable();

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`your matches (${backend})`, () => {
    let t: TestServer;
    let posts: { body: { content: string } }[];
    let hookUrl: string;
    let hook: ReturnType<typeof createServer>;
    beforeAll(async () => {
      posts = [];
      hook = createServer((req, res) => {
        let raw = '';
        req.on('data', (c) => (raw += c)).on('end', () => (posts.push({ body: JSON.parse(raw) }), res.end()));
      });
      await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
      hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/account-hook`;
      t = await startTestServer(backend, { webhooks: { allowLocal: true, retryDelayMs: 50, timeoutMs: 400 } });
    });
    afterAll(async () => {
      await t.stop();
      await new Promise((r) => hook.close(r));
    });

    const create = async (who: Signed | null, body: Record<string, unknown> = {}) => {
      const r = who ? await who.call('/games/watergate/create', body) : await api(t.url, '/games/watergate/create', body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.matchID as string;
    };
    const join = async (who: Signed | null, matchID: string, playerID: '0' | '1', playerName = 'Guest') => {
      const r = who ? await who.call(`/games/watergate/${matchID}/join`, { playerID }) : await api(t.url, `/games/watergate/${matchID}/join`, { playerID, playerName });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.playerCredentials as string;
    };
    const mine = async (who: Signed) => (await who.call('/me/matches')).body.matches as { matchID: string; playerID: string; playerCredentials: string; name: string }[];

    it('a seat taken while signed in is the account\'s: listed with its credentials for that account only, public as username and rating', async () => {
      const ann = await signUp(t.url, `Ann${backend}`);
      const bob = await signUp(t.url, `Bob${backend}`);
      const matchID = await create(ann);
      const annCreds = await join(ann, matchID, '0');
      const bobCreds = await join(bob, matchID, '1');
      expect(await mine(ann)).toEqual([{ matchID, playerID: '0', playerCredentials: annCreds, name: ann.username, over: false }]);
      expect(await mine(bob)).toEqual([{ matchID, playerID: '1', playerCredentials: bobCreds, name: bob.username, over: false }]);
      expect((await api(t.url, '/me/matches')).status).toBe(401);
      const pub = (await api(t.url, `/games/watergate/${matchID}`)).body;
      expect(pub.rated).toBe(true);
      expect(pub.players.map((p: { name: string; account?: unknown }) => [p.name, p.account])).toEqual([
        [ann.username, { username: ann.username, rating: 1500, provisional: true }],
        [bob.username, { username: bob.username, rating: 1500, provisional: true }],
      ]);
      const text = JSON.stringify(pub) + JSON.stringify((await api(t.url, '/games/watergate')).body);
      for (const secret of [annCreds, bobCreds, ann.cookie.split('=')[1], bob.cookie.split('=')[1]]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/"id":"[A-Za-z0-9_-]{16}"/); // no account id
      // A seat opened from "another device" with those credentials plays as the account's seat.
      const p = player(t.url, matchID, '0', (await mine(ann))[0].playerCredentials);
      await until(() => p.state() !== null, 'the seat synced');
      p.stop();
    });

    it('a guest\'s match is unrated, and "rated" needs a signed-in creator', async () => {
      const matchID = await create(null);
      expect((await api(t.url, `/games/watergate/${matchID}`)).body.rated).toBeUndefined();
      expect((await api(t.url, '/games/watergate/create', { rated: true })).status).toBe(400);
      const cy = await signUp(t.url, `Cy${backend}`);
      const unrated = await create(cy, { rated: false });
      expect((await api(t.url, `/games/watergate/${unrated}`)).body.rated).toBeUndefined();
    });

    it('vs computer and play again record the seat too; data.account comes from the server only', async () => {
      const dee = await signUp(t.url, `Dee${backend}`);
      const vs = await dee.call('/games/watergate/vs-computer', { botSeat: '1', level: 'easy' });
      const creds = await join(dee, vs.body.matchID, '0');
      expect((await mine(dee)).map((m) => m.matchID)).toContain(vs.body.matchID);
      expect((await api(t.url, `/games/watergate/${vs.body.matchID}`)).body.rated).toBeUndefined();
      // The seat's data cannot claim an account, and changing the data keeps the server's mark.
      expect((await api(t.url, `/games/watergate/${vs.body.matchID}/update`, { playerID: '0', credentials: creds, data: { account: { id: 'x', username: 'y' } } })).status).toBe(400);
      expect((await api(t.url, `/games/watergate/${vs.body.matchID}/update`, { playerID: '0', credentials: creds, data: { colour: 'blue' } })).status).toBe(200);
      expect((await api(t.url, `/games/watergate/${vs.body.matchID}`)).body.players[0].account.username).toBe(dee.username);
      const forged = await api(t.url, `/games/watergate/${await create(null)}/join`, { playerID: '0', playerName: 'Eve', data: { account: { id: 'x', username: 'y' } } });
      expect(forged.status).toBe(400);
      // Resign, then play again: the next match's seat is the account's as well.
      const s = player(t.url, vs.body.matchID, '0', creds);
      await until(() => s.state() !== null, 'synced');
      (s.client.moves as Record<string, () => void>).resign();
      await until(() => s.state()?.ctx.gameover !== undefined, 'resigned');
      s.stop();
      const again = await dee.call(`/games/watergate/${vs.body.matchID}/playAgain`, { playerID: '0', credentials: creds });
      expect(again.status).toBe(200);
      expect(await mine(dee)).toContainEqual(expect.objectContaining({ matchID: again.body.nextMatchID, playerID: again.body.playerID, playerCredentials: again.body.playerCredentials }));
    });

    it("a guest's seats become the account's with their credentials, never someone else's; a seat left is listed no more", async () => {
      const matchID = await create(null);
      const guest = await join(null, matchID, '1', 'Fay');
      const fay = await signUp(t.url, `Fay${backend}`);
      const gil = await signUp(t.url, `Gil${backend}`);
      expect((await gil.call('/me/claim', { seats: [{ matchID, playerID: '1', credentials: 'not the credentials' }] })).body).toEqual({ claimed: [] });
      expect((await fay.call('/me/claim', { seats: [{ matchID, playerID: '1', credentials: guest }] })).body).toEqual({ claimed: [matchID] });
      expect((await gil.call('/me/claim', { seats: [{ matchID, playerID: '1', credentials: guest }] })).body).toEqual({ claimed: [] });
      expect(await mine(fay)).toEqual([{ matchID, playerID: '1', playerCredentials: guest, name: fay.username, over: false }]);
      expect(await mine(gil)).toEqual([]);
      expect((await fay.call('/me/claim', { seats: 'all' })).status).toBe(400);
      expect((await fay.call('/me/claim', { seats: Array(51).fill({ matchID, playerID: '1', credentials: guest }) })).status).toBe(400);
      expect((await api(t.url, `/games/watergate/${matchID}/leave`, { playerID: '1', credentials: guest })).status).toBe(200);
      expect(await mine(fay)).toEqual([]);
    });

    it("the account's webhook tells its seat when a decision becomes its own", async () => {
      const hal = await signUp(t.url, `Hal${backend}`);
      expect((await hal.call('/me/settings', { webhook: 'ftp://nope' })).status).toBe(400);
      expect((await hal.call('/me/settings', { webhook: hookUrl })).body).toEqual({ webhook: hookUrl });
      expect((await hal.call('/auth/me')).body.webhook).toBe(hookUrl);
      const matchID = await create(hal);
      const guest = await join(null, matchID, '0', 'Ivy');
      await join(hal, matchID, '1');
      // Ivy (the Editor) plays; once a decision is Nixon's, Hal's account hook hears of it.
      const ivy = player(t.url, matchID, '0', guest);
      await until(() => ivy.state() !== null, 'synced');
      const { legalMoves } = await import('../../game/index');
      for (let i = 0; i < 40 && posts.length === 0; i++) {
        const s = ivy.state()!;
        if (s.G.prompt?.player !== '0') break;
        const m = legalMoves(s.G as never, '0').find((x) => x.move !== 'resign')!;
        (ivy.client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
        await until(() => ivy.state()!._stateID > s._stateID, 'moved');
      }
      await until(() => posts.length > 0, 'the account webhook posted', 10_000);
      expect(posts[0].body.content).toMatch(new RegExp(`your turn \\(Nixon\\) in match ${matchID}`));
      ivy.stop();
    });

    it('a deleted account leaves its unfinished seats and is "deleted player" in finished matches', async () => {
      const jo = await signUp(t.url, `Jo${backend}`, 'jo password here');
      const open = await create(jo);
      await join(jo, open, '0');
      const done = await create(jo);
      const joCreds = await join(jo, done, '0');
      await join(null, done, '1', 'Kim');
      const s = player(t.url, done, '0', joCreds);
      await until(() => s.state() !== null, 'synced');
      (s.client.moves as Record<string, () => void>).resign();
      await until(() => s.state()?.ctx.gameover !== undefined, 'resigned');
      s.stop();
      expect((await jo.call('/auth/delete', { password: 'jo password here' })).status).toBe(200);
      expect((await api(t.url, `/games/watergate/${open}`)).body.players[0].name).toBeUndefined();
      const finished = (await api(t.url, `/games/watergate/${done}`)).body.players[0];
      expect(finished.name).toBe(DELETED_PLAYER);
      expect(finished.account).toBeUndefined();
    });
  });
}
