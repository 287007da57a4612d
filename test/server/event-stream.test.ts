/**
 * The account's event stream over real HTTP (docs/BOT-API.md "The event stream"), on SQLite and
 * PostgreSQL, and across two processes (PostgreSQL and Redis): `challenge`, `challengeDeclined`,
 * `challengeCanceled`, `gameStart`, `gameFinish` lines as they happen; on reconnecting, the pending
 * challenges and the games in progress; keep-alive empty lines; bounded streams; a revoked token's stream ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';
import { signUp, twoProcesses, type Signed } from './account-helpers';
import { bearer, botAccount, lineOf, ndjson } from './challenge-helpers';
import { EVENTS } from '../../server/challenges/index';

const usePg = await postgresAvailable();
const backends: Backend[] = usePg ? ['embedded', 'postgres'] : ['embedded'];
const events = (url: string, headers: Record<string, string>) => ndjson(url, '/api/stream/event', headers);

describe.each(backends)('the event stream (%s)', (backend) => {
  let ts: TestServer;
  let alice: Signed;
  let bob: Signed;
  let bot: Awaited<ReturnType<typeof botAccount>>;
  beforeAll(async () => {
    ts = await startTestServer(backend, { botKeepAliveMs: 300, limits: { challenge: { points: 1000, seconds: 60 }, eventStream: { points: 1000, seconds: 60 } } });
    alice = await signUp(ts.url, `alice_${backend}`);
    bob = await signUp(ts.url, `bob_${backend}`);
    bot = await botAccount(ts.url, `kitbot_${backend}`);
  }, 60_000);
  afterAll(() => ts?.stop());

  it('delivers a challenge, then gameStart, then gameFinish, to both players; declines and cancels too', async () => {
    const a = events(ts.url, { cookie: alice.cookie });
    const b = events(ts.url, { cookie: bob.cookie });
    const k = events(ts.url, bearer(bot.token));
    try {
      // Open (its headers come once the server holds it): what happens from now on reaches it.
      await until(() => [a, b, k].every((s) => s.status() === 200), 'the streams open');
      const sent = await alice.call(`/api/challenge/${bot.username}`, { side: 'editor' });
      const c = await lineOf(k, 'challenge', (l) => l.id === sent.body.id);
      expect(c.challenge).toMatchObject({ id: sent.body.id, from: alice.username, to: bot.username, side: 'editor', rated: false, clock: 'none' });
      expect(JSON.stringify(c)).not.toMatch(/account|credentials|password/i);
      const ok = await api(ts.url, `/api/challenge/${sent.body.id}/accept`, {}, bearer(bot.token));
      expect(ok.status).toBe(200);
      const { matchID } = ok.body;
      expect(await lineOf(k, 'gameStart', (l) => l.matchID === matchID)).toEqual({ type: 'gameStart', matchID, seat: '1' });
      expect(await lineOf(a, 'gameStart', (l) => l.matchID === matchID)).toEqual({ type: 'gameStart', matchID, seat: '0' });
      expect((await api(ts.url, `/api/bot/game/${matchID}/resign`, {}, bearer(bot.token))).status).toBe(200);
      expect(await lineOf(k, 'gameFinish', (l) => l.matchID === matchID)).toEqual({ type: 'gameFinish', matchID, seat: '1', winner: '0', reason: expect.any(String) });
      expect(await lineOf(a, 'gameFinish', (l) => l.matchID === matchID)).toMatchObject({ seat: '0', winner: '0' });
      // Declined: the challenger hears it; canceled: the challenged does.
      const d = (await alice.call(`/api/challenge/${bob.username}`, {})).body.id;
      await lineOf(b, 'challenge', (l) => l.id === d);
      await bob.call(`/api/challenge/${d}/decline`, {});
      expect(await lineOf(a, 'challengeDeclined', (l) => l.id === d)).toMatchObject({ challenge: { status: 'declined' } });
      const x = (await alice.call(`/api/challenge/${bob.username}`, {})).body.id;
      await lineOf(b, 'challenge', (l) => l.id === x);
      await alice.call(`/api/challenge/${x}/cancel`, {});
      expect(await lineOf(b, 'challengeCanceled', (l) => l.id === x)).toMatchObject({ challenge: { status: 'canceled' } });
      // Nobody else's news: bob heard nothing of alice's game with the bot.
      expect(b.lines.filter((l) => l.matchID === matchID)).toEqual([]);
      // Keep-alive empty lines.
      await until(() => k.blanks() >= 2, 'keep-alive lines', 10_000);
    } finally {
      for (const s of [a, b, k]) s.close();
    }
  });

  it('a match completed through the Lobby\'s join route (a person\'s match a bot joins) starts with gameStart too', async () => {
    const k = events(ts.url, bearer(bot.token));
    try {
      await until(() => k.status() === 200, 'the stream open');
      const created = await bob.call('/games/watergate/create', { numPlayers: 2, rated: false });
      expect((await bob.call(`/games/watergate/${created.body.matchID}/join`, { playerID: '0' })).status).toBe(200);
      const joined = await api(ts.url, `/games/watergate/${created.body.matchID}/join`, { playerID: '1' }, bearer(bot.token));
      expect(joined.status).toBe(200);
      expect(await lineOf(k, 'gameStart', (l) => l.matchID === created.body.matchID)).toEqual({ type: 'gameStart', matchID: created.body.matchID, seat: '1' });
      expect((await api(ts.url, `/api/bot/game/${created.body.matchID}/resign`, {}, bearer(bot.token))).status).toBe(200);
    } finally {
      k.close();
    }
  });

  it('reconnecting, a bot is told the pending challenges and the games it is in', async () => {
    const sent = await alice.call(`/api/challenge/${bot.username}`, { side: 'nixon' });
    const ok = await api(ts.url, `/api/challenge/${sent.body.id}/accept`, {}, bearer(bot.token));
    const waiting = await alice.call(`/api/challenge/${bot.username}`, {});
    const k = events(ts.url, bearer(bot.token));
    try {
      await lineOf(k, 'gameStart', (l) => l.matchID === ok.body.matchID);
      expect(k.lines.filter((l) => l.type === 'challenge').map((l) => l.id)).toEqual([waiting.body.id]);
      expect(k.lines.find((l) => l.matchID === ok.body.matchID)).toEqual({ type: 'gameStart', matchID: ok.body.matchID, seat: '0' });
    } finally {
      k.close();
      await alice.call(`/api/challenge/${waiting.body.id}/cancel`, {});
    }
  });

  it('streams are bounded per account, need a sign-in, and end when their token is revoked', async () => {
    expect((await api(ts.url, '/api/stream/event')).status).toBe(401);
    expect((await api(ts.url, '/api/stream/event', undefined, bearer('wgb_' + 'x'.repeat(43)))).status).toBe(401);
    const own = await botAccount(ts.url, `own_${backend}`);
    const open = Array.from({ length: EVENTS.perAccount }, () => events(ts.url, bearer(own.token)));
    try {
      await until(() => open.every((s) => s.status() === 200), 'the streams open');
      const over = events(ts.url, bearer(own.token));
      await over.done;
      expect(over.status()).toBe(429);
      const id = (await own.who.call('/auth/tokens')).body.tokens[0].id;
      const del = await fetch(`${ts.url}/auth/tokens/${id}`, { method: 'DELETE', headers: { cookie: own.who.cookie, origin: ts.url } });
      expect(del.status).toBe(204);
      await until(() => open.every((s) => s.ended()), 'the revoked token\'s streams end', 10_000);
    } finally {
      for (const s of open) s.close();
    }
  });
});

const start = twoProcesses();
describe.skipIf(!usePg)('the event stream across two processes (PostgreSQL and Redis)', () => {
  it('a challenge made on one process reaches the stream held by the other, and so does its gameStart', async () => {
    const [p, q] = (await start()).map((x) => x.url);
    const alice = await signUp(p, 'alice_two');
    const bot = await botAccount(q, 'bot_two');
    const k = events(q, bearer(bot.token));
    try {
      await until(() => k.status() === 200, 'the stream open');
      await new Promise((r) => setTimeout(r, 300)); // its subscription on the bus
      const sent = await alice.call(`/api/challenge/${bot.username}`, { side: 'editor' });
      expect((await lineOf(k, 'challenge', (l) => l.id === sent.body.id)).challenge.from).toBe('alice_two');
      // Accepted through the other process: the match is made there, the line heard here.
      const ok = await api(p, `/api/challenge/${sent.body.id}/accept`, {}, bearer(bot.token));
      expect(ok.status).toBe(200);
      await lineOf(k, 'gameStart', (l) => l.matchID === ok.body.matchID);
      expect((await api(q, `/api/bot/game/${ok.body.matchID}/resign`, {}, bearer(bot.token))).status).toBe(200);
      expect(await lineOf(k, 'gameFinish', (l) => l.matchID === ok.body.matchID)).toMatchObject({ winner: '0', seat: '1' });
    } finally {
      k.close();
    }
  }, 120_000);
});
