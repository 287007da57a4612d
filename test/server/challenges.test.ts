/**
 * Challenges by name over real HTTP (docs/BOT-API.md "Challenges"), on SQLite and PostgreSQL: people with
 * their session cookie, bots with their tokens. A challenge becomes a match with both accounts seated
 * (found on GET /me/matches as every account seat is); decline, cancel and expiry close it; a human
 * against a bot is casual; two bots play a whole rated game over the bot API and are rated; a blocked
 * player's challenge is refused without saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, postgresAvailable, startTestServer, TEST_PASSWORD_COST, until, type Backend, type TestServer } from './helpers';
import { as, signUp, type Signed } from './account-helpers';
import { startServer } from '../../server/app';
import { openStore } from '../../server/storage/index';
import { bearer, botAccount, playOut } from './challenge-helpers';
import { seeded } from './wire';
import { CHALLENGES } from '../../server/challenges/index';
import { unratedBecause } from '../../server/ratings/rules';

const usePg = await postgresAvailable();
const backends: Backend[] = usePg ? ['embedded', 'postgres'] : ['embedded'];

describe.each(backends)('challenges by name (%s)', (backend) => {
  let ts: TestServer;
  let alice: Signed;
  let bob: Signed;
  let carol: Signed;
  beforeAll(async () => {
    ts = await startTestServer(backend, { limits: { botMove: { points: 100_000, seconds: 60 }, botStream: { points: 1000, seconds: 60 }, challenge: { points: 1000, seconds: 60 } } });
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((n) => signUp(ts.url, `${n}_${backend}`)));
  }, 60_000);
  afterAll(() => ts?.stop());

  it('a person challenges another by name; accepted, it is a listed match with both accounts seated', async () => {
    const sent = await alice.call(`/api/challenge/${bob.username}`, { side: 'editor', clock: 'relaxed', rated: true });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.id as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const inbox = await bob.call('/api/challenge');
    expect(inbox.body.out).toEqual([]);
    expect(inbox.body.in).toEqual([expect.objectContaining({ id, from: alice.username, to: bob.username, side: 'editor', clock: 'relaxed', rated: true, takeBacks: false, status: 'pending' })]);
    // A relaxed (correspondence) challenge waits a day.
    expect(inbox.body.in[0].expiresAt - inbox.body.in[0].createdAt).toBe(CHALLENGES.correspondenceMs);
    expect((await alice.call('/api/challenge')).body.out.map((c: { id: string }) => c.id)).toEqual([id]);
    // Only the challenged player accepts; nobody else even sees it.
    expect((await alice.call(`/api/challenge/${id}/accept`, {})).status).toBe(403);
    expect((await carol.call(`/api/challenge/${id}/accept`, {})).status).toBe(404);
    const ok = await bob.call(`/api/challenge/${id}/accept`, {});
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const { matchID } = ok.body;
    expect(ok.body).toMatchObject({ matchID, playerID: '1', playerCredentials: expect.any(String) });
    // Each finds the seat with its credentials where every account seat is.
    const mine = (await alice.call('/me/matches')).body.matches.find((m: { matchID: string }) => m.matchID === matchID);
    expect(mine).toMatchObject({ playerID: '0', playerCredentials: expect.any(String) });
    const theirs = (await bob.call('/me/matches')).body.matches.find((m: { matchID: string }) => m.matchID === matchID);
    expect(theirs).toMatchObject({ playerID: '1', playerCredentials: ok.body.playerCredentials });
    const pub = await api(ts.url, `/games/watergate/${matchID}`);
    expect(pub.body.players.map((p: { name: string }) => p.name)).toEqual([alice.username, bob.username]);
    expect(pub.body.players[0].account).toMatchObject({ username: alice.username });
    expect(JSON.stringify(pub.body)).not.toContain(ok.body.playerCredentials);
    expect(pub.body.rated).toBe(true);
    // Listed: anyone can find it and watch.
    const list = await api(ts.url, '/games/watergate');
    expect(list.body.matches.map((m: { matchID: string }) => m.matchID)).toContain(matchID);
    // Accepted once.
    expect((await bob.call(`/api/challenge/${id}/accept`, {})).status).toBe(409);
    expect((await bob.call('/api/challenge')).body.in).toEqual([]);
  });

  it('two accepts at once make one match', async () => {
    const id = (await alice.call(`/api/challenge/${carol.username}`, {})).body.id;
    const answers = await Promise.all([carol.call(`/api/challenge/${id}/accept`, {}), carol.call(`/api/challenge/${id}/accept`, {}), carol.call(`/api/challenge/${id}/accept`, {})]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const mine = (await carol.call('/me/matches')).body.matches.filter((m: { matchID: string }) => m.matchID === answers.find((a) => a.status === 200)!.body.matchID);
    expect(mine).toHaveLength(1);
  });

  it('declined or canceled, a challenge is closed; only its own players may do either', async () => {
    const a = (await alice.call(`/api/challenge/${bob.username}`, { side: 'random' })).body.id;
    expect((await alice.call(`/api/challenge/${a}/decline`, {})).status).toBe(403);
    expect((await bob.call(`/api/challenge/${a}/decline`, {})).status).toBe(200);
    expect((await bob.call(`/api/challenge/${a}/accept`, {})).body.error).toMatch(/declined/);
    expect((await alice.call('/api/challenge')).body.out).toEqual([]);
    const b = (await alice.call(`/api/challenge/${bob.username}`, {})).body.id;
    expect((await bob.call(`/api/challenge/${b}/cancel`, {})).status).toBe(403);
    expect((await carol.call(`/api/challenge/${b}/cancel`, {})).status).toBe(404);
    expect((await alice.call(`/api/challenge/${b}/cancel`, {})).status).toBe(200);
    expect((await bob.call(`/api/challenge/${b}/accept`, {})).status).toBe(409);
    expect((await bob.call('/api/challenge')).body.in).toEqual([]);
  });

  it('a live challenge expires: not listed, and accepting it is refused', async () => {
    const kept = CHALLENGES.liveMs;
    CHALLENGES.liveMs = 1500;
    try {
      const sent = await alice.call(`/api/challenge/${carol.username}`, { clock: 'live' });
      expect(sent.body.challenge.expiresAt - sent.body.challenge.createdAt).toBe(1500);
      expect((await carol.call('/api/challenge')).body.in).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 1700));
      expect((await carol.call('/api/challenge')).body.in).toEqual([]);
      expect((await carol.call(`/api/challenge/${sent.body.id}/accept`, {})).status).toBe(410);
    } finally {
      CHALLENGES.liveMs = kept;
    }
  });

  it('a blocked player cannot challenge (either way), and is told no more than that', async () => {
    const dave = await signUp(ts.url, `dave_${backend}`);
    expect((await carol.call(`/api/block/${dave.username}`, {})).status).toBe(200);
    const refused = await dave.call(`/api/challenge/${carol.username}`, { side: 'nixon' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'this player is not accepting challenges from you' });
    expect((await carol.call(`/api/challenge/${dave.username}`, {})).status).toBe(403);
    expect((await carol.call('/api/block')).body.blocks).toEqual([{ username: dave.username, createdAt: expect.any(Number) }]);
    expect((await dave.call('/api/block')).body.blocks).toEqual([]);
    expect((await carol.call('/api/challenge')).body.in).toEqual([]);
    // Unblocked, it works; blocked again after it was sent, accepting is refused.
    const del = await fetch(`${ts.url}/api/block/${dave.username}`, { method: 'DELETE', headers: { cookie: carol.cookie, origin: ts.url } });
    expect(del.status).toBe(204);
    const sent = await dave.call(`/api/challenge/${carol.username}`, {});
    expect(sent.status).toBe(200);
    expect((await dave.call(`/api/block/${carol.username}`, {})).status).toBe(200);
    expect((await carol.call(`/api/challenge/${sent.body.id}/accept`, {})).status).toBe(403);
  });

  it('refuses what cannot be: yourself, unknown players, bad fields, a rated game against a bot, too many pending', async () => {
    expect((await alice.call(`/api/challenge/${alice.username}`, {})).status).toBe(400);
    expect((await alice.call('/api/challenge/nobody_here', {})).status).toBe(404);
    expect((await alice.call(`/api/challenge/${bob.username}`, { side: 'white' })).body.error).toMatch(/side/);
    expect((await alice.call(`/api/challenge/${bob.username}`, { clock: 'blitz' })).body.error).toMatch(/clock/);
    expect((await alice.call(`/api/challenge/${bob.username}`, { rated: 'yes' })).body.error).toMatch(/rated/);
    expect((await alice.call(`/api/challenge/${bob.username}`, { rated: true, takeBacks: true })).body.error).toMatch(/takeBacks/);
    expect((await api(ts.url, `/api/challenge/${bob.username}`, {}, { origin: ts.url })).status).toBe(401);
    const robo = await botAccount(ts.url, `robo_${backend}`);
    const r = await alice.call(`/api/challenge/${robo.username}`, { rated: true });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/always casual/);
    expect((await api(ts.url, `/api/challenge/${alice.username}`, { rated: true }, bearer(robo.token))).status).toBe(400);
    // A bot account does not ask for quick pairing.
    expect((await api(ts.url, '/pair', { side: 'either', clock: 'none', rated: false }, { cookie: robo.who.cookie, origin: ts.url })).status).toBe(403);
    const ids: string[] = [];
    for (let i = 0; i < CHALLENGES.maxPendingOut; i++) ids.push((await carol.call(`/api/challenge/${bob.username}`, {})).body.id);
    const over = await carol.call(`/api/challenge/${bob.username}`, {});
    expect(over.status).toBe(409);
    for (const id of ids) await carol.call(`/api/challenge/${id}/cancel`, {});
  });

  it('a human challenges a bot: the bot accepts with its token and the game is casual', async () => {
    const robo = await botAccount(ts.url, `rob_${backend}`);
    const sent = await alice.call(`/api/challenge/${robo.username}`, { side: 'nixon', takeBacks: true });
    const inbox = await api(ts.url, '/api/challenge', undefined, bearer(robo.token));
    expect(inbox.body.in).toEqual([expect.objectContaining({ id: sent.body.id, from: alice.username, toBot: true, takeBacks: true })]);
    const ok = await api(ts.url, `/api/challenge/${sent.body.id}/accept`, {}, bearer(robo.token));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.playerID).toBe('0');
    const pub = await api(ts.url, `/games/watergate/${ok.body.matchID}`);
    expect(pub.body.rated).toBeFalsy();
    expect(pub.body.setupData.takeBacks).toBe('consent');
    // The bot's seat says so in the lobby.
    expect(pub.body.players[0].account).toMatchObject({ username: robo.username, bot: true });
    expect(pub.body.players[1].account.bot).toBeUndefined();
  });

  it('two bots play a whole rated game over the bot API, and are rated among bots, by side', async () => {
    const [x, y] = [await botAccount(ts.url, `xbot_${backend}`), await botAccount(ts.url, `ybot_${backend}`)];
    const sent = await api(ts.url, `/api/challenge/${y.username}`, { side: 'editor', rated: true }, bearer(x.token));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const ok = await api(ts.url, `/api/challenge/${sent.body.id}/accept`, {}, bearer(y.token));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const { matchID } = ok.body;
    const [fx, fy] = await Promise.all([playOut(ts.url, x.token, matchID, seeded(11).next), playOut(ts.url, y.token, matchID, seeded(12).next)]);
    expect(fx.type).toBe('gameFinish');
    expect(fy.type).toBe('gameFinish');
    await until(async () => (await api(ts.url, `/games/watergate/${matchID}/result`)).body.seats.length === 2, 'the result recorded');
    const result = (await api(ts.url, `/games/watergate/${matchID}/result`)).body;
    expect(result.seats.map((s: { side: string; username: string }) => [s.side, s.username])).toEqual([['0', x.username], ['1', y.username]]);
    for (const s of result.seats) {
      expect(s.rated, JSON.stringify(s)).toBe(true);
      expect(s.ratingAfter).not.toBe(s.ratingBefore);
    }
    // Rated by side: x's Editor rating moved, its Nixon rating did not (and the other way round for y).
    const px = (await api(ts.url, `/players/${x.username}`)).body;
    expect(px.bot).toBe(true);
    expect(px.ratings.editor).toMatchObject({ rating: result.seats[0].ratingAfter, games: 1 });
    expect(px.ratings.nixon.games).toBe(0);
    const py = (await api(ts.url, `/players/${y.username}`)).body;
    expect(py.ratings.nixon).toMatchObject({ rating: result.seats[1].ratingAfter, games: 1 });
    expect(py.ratings.editor.games).toBe(0);
  }, 240_000);
});

describe('challenges survive a restart', () => {
  it('a challenge sent before the server stopped is listed and accepted after it starts again on the same storage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-challenge-'));
    const boot = async () => startServer({ store: await openStore({ dataDir: dir }), port: 0, host: '127.0.0.1', passwordCost: TEST_PASSWORD_COST });
    try {
      let s = await boot();
      const [ann, ben] = [await signUp(s.url, 'ann_restart'), await signUp(s.url, 'ben_restart')];
      const id = (await ann.call(`/api/challenge/${ben.username}`, { side: 'nixon' })).body.id;
      await s.close();
      s = await boot();
      const ben2 = as(s.url, ben.username, ben.cookie);
      expect((await ben2.call('/api/challenge')).body.in.map((c: { id: string }) => c.id)).toEqual([id]);
      const ok = await ben2.call(`/api/challenge/${id}/accept`, {});
      expect(ok.body.playerID).toBe('0');
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the rating rules (server/ratings/rules.ts)', () => {
  const seat = (id: string, bot?: boolean) => ({ name: id, account: { id, username: id, ...(bot ? { bot: true } : {}) }, bot: null, decisions: 5 });
  const match = (a: ReturnType<typeof seat>, b: ReturnType<typeof seat>) => ({ matchID: 'm', rated: true, winner: '0' as const, reason: 'x', seats: { '0': a, '1': b }, moves: 10, startedAt: 0, finishedAt: 1 });
  it('a human against a bot account is never rated, whatever the match said; two bots are', () => {
    expect(unratedBecause(match(seat('h'), seat('b', true)))).toBe('computer');
    expect(unratedBecause(match(seat('b', true), seat('h')))).toBe('computer');
    expect(unratedBecause(match(seat('a', true), seat('b', true)))).toBeNull();
    expect(unratedBecause(match(seat('a'), seat('b')))).toBeNull();
  });
});
