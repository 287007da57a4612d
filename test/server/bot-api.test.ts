/**
 * The HTTP bot API over real HTTP (docs/BOT-API.md "The HTTP bot API"), on SQLite and PostgreSQL:
 * personal tokens from a session, the upgrade to a bot account, seats taken with a token through the
 * Lobby's join route, NDJSON game streams and move POSTs; an illegal move is refused with the engine's
 * reason; a revoked token is refused at once and its stream closed; moves and streams per token bounded.
 * Whole games (test/server/bot-api-kit.ts, with the privacy proof: every line's view is the seat's
 * playerView of the server's state, naming none of the other side's secrets): two bots, a stream dropped
 * and reopened, a human on a socket against a bot — on SQLite here; on PostgreSQL, a second seed and the
 * documentation's example bot in the long tier (test/server/bot-api-games.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';
import { signUp } from './account-helpers';
import { bearer, botAccount, join, move, newMatch, openStream, wholeGames } from './bot-api-kit';

const usePg = await postgresAvailable();
const backends: Backend[] = usePg ? ['embedded', 'postgres'] : ['embedded'];

wholeGames('embedded', [1], { dropped: true, human: true });

describe.each(backends)('the HTTP bot API (%s)', (backend) => {
  let ts: TestServer;
  let a: Awaited<ReturnType<typeof botAccount>>;
  let b: Awaited<ReturnType<typeof botAccount>>;
  beforeAll(async () => {
    ts = await startTestServer(backend, { limits: { botMove: { points: 100_000, seconds: 60 }, botStream: { points: 1000, seconds: 60 }, token: { points: 1000, seconds: 60 } } });
    a = await botAccount(ts.url, `alpha_${backend}`);
    b = await botAccount(ts.url, `bravo_${backend}`);
  }, 60_000);
  afterAll(() => ts?.stop());

  it('tokens: made from a session, listed without the token, unusable as a session, refused past 20', async () => {
    const c = await signUp(ts.url, `carol_${backend}`);
    const list = await c.call('/auth/tokens');
    expect(list.body.tokens).toEqual([]);
    const made = await c.call('/auth/tokens', { name: 'x', scopes: ['bot'] });
    expect(made.body.token).toMatch(/^wgb_/);
    const again = await c.call('/auth/tokens');
    expect(again.body.tokens).toEqual([{ id: made.body.id, name: 'x', scopes: ['bot'], createdAt: expect.any(Number), lastUsedAt: null }]);
    expect(JSON.stringify(again.body)).not.toContain(made.body.token);
    // A token is not a session, and a session is not a token.
    expect((await api(ts.url, '/me/matches', undefined, bearer(made.body.token))).status).toBe(401);
    expect((await api(ts.url, '/api/bot/upgrade', {}, { cookie: c.cookie, origin: ts.url })).status).toBe(401);
    // Without a session, no token is made; bad bodies name the field.
    expect((await api(ts.url, '/auth/tokens', { name: 'x', scopes: ['bot'] }, { origin: ts.url })).status).toBe(401);
    expect((await c.call('/auth/tokens', { name: 'x', scopes: ['admin'] })).body.error).toMatch(/scopes/);
    expect((await c.call('/auth/tokens', { name: 'x'.repeat(41), scopes: ['bot'] })).body.error).toMatch(/name/);
    expect((await c.call('/auth/tokens', { name: 'x', scopes: ['bot'], extra: 1 })).status).toBe(400);
    for (let i = 1; i < 20; i++) expect((await c.call('/auth/tokens', { name: `t${i}`, scopes: ['bot'] })).status).toBe(200);
    expect((await c.call('/auth/tokens', { name: 'one too many', scopes: ['bot'] })).status).toBe(409);
    // A bot route for an account that is not a bot.
    expect((await api(ts.url, `/api/bot/game/stream/nope`, undefined, bearer(made.body.token))).status).toBe(403);
    // Tokens never reach the logs.
    for (const line of ts.logs) expect(line).not.toContain(made.body.token);
    // Deleting the account removes its tokens.
    expect((await c.call('/auth/delete', { password: 'correct horse battery' })).status).toBe(200);
    expect((await api(ts.url, '/api/bot/upgrade', {}, bearer(made.body.token))).status).toBe(401);
  });

  it('an account that has played cannot become a bot account', async () => {
    const h = await signUp(ts.url, `human_${backend}`);
    const matchID = await newMatch(ts.url);
    expect((await h.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).status).toBe(200);
    const t = await h.call('/auth/tokens', { name: 'late', scopes: ['bot'] });
    expect((await api(ts.url, '/api/bot/upgrade', {}, bearer(t.body.token))).status).toBe(409);
    expect((await api(ts.url, `/players/${a.who.username}`)).body.bot).toBe(true);
    expect((await api(ts.url, `/players/${h.username}`)).body.bot).toBeUndefined();
  });

  it('an illegal move is refused with the engine\'s reason; malformed ones name the field', async () => {
    const matchID = await newMatch(ts.url);
    await join(ts.url, matchID, '0', a.token);
    // Before the second seat is taken: nothing is legal yet, and the line that says play began follows.
    const early = openStream(ts.url, matchID, a.token);
    await until(() => early.lines.length > 0, 'gameFull');
    expect(early.lines[0]).toMatchObject({ type: 'gameFull', started: false, legal: [] });
    await join(ts.url, matchID, '1', b.token);
    await until(() => early.lines.length > 1, 'the line saying play began');
    expect(early.lines[1]).toMatchObject({ type: 'gameState', started: true, stateID: early.lines[0].stateID });
    expect(early.lines[1].legal!.length).toBeGreaterThan(0);
    early.abort();
    const s = openStream(ts.url, matchID, b.token);
    await until(() => s.lines.length > 0, 'gameFull');
    const full = s.lines[0];
    expect(full.legal).toEqual([]); // the Editor plays first
    const r = await move(ts.url, b.token, matchID, { stateID: full.stateID, action: 1001 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'invalid-move', reason: expect.stringMatching(/\w/) });
    expect((await move(ts.url, b.token, matchID, { stateID: full.stateID, action: 999_999 })).body.error).toMatch(/^action/);
    expect((await move(ts.url, b.token, matchID, { action: 1001 })).body.error).toMatch(/^stateID/);
    expect((await move(ts.url, b.token, matchID, { stateID: 0, move: 'play', args: [1, 2] })).body.error).toMatch(/^args/);
    expect((await move(ts.url, b.token, matchID, { stateID: 0, action: 1, hack: 1 })).status).toBe(400);
    // A stale state id is a 409; a move by the seat to move with `move`/`args` passes.
    const sa = openStream(ts.url, matchID, a.token);
    await until(() => sa.lines.length > 0, 'gameFull');
    const m = sa.lines[0].legal![0];
    expect((await move(ts.url, a.token, matchID, { stateID: full.stateID + 5, action: m.id })).status).toBe(409);
    const ok = await move(ts.url, a.token, matchID, { stateID: full.stateID, move: m.move, args: m.args });
    expect(ok.status).toBe(200);
    expect(ok.body.stateID).toBeGreaterThan(full.stateID);
    // No token, a wrong token, a cookie: 401.
    expect((await move(ts.url, 'wgb_' + 'x'.repeat(43), matchID, { stateID: 1, action: 1 })).status).toBe(401);
    expect((await api(ts.url, `/api/bot/game/${matchID}/move`, { stateID: 1, action: 1 })).status).toBe(401);
    sa.abort();
    s.abort();
  });

  it('a revoked token is refused at once and its open stream closes', async () => {
    const c = await botAccount(ts.url, `charlie_${backend}`);
    const matchID = await newMatch(ts.url);
    await join(ts.url, matchID, '1', c.token);
    await join(ts.url, matchID, '0', a.token);
    const s = openStream(ts.url, matchID, c.token);
    await until(() => s.lines.length > 0, 'gameFull');
    const del = await api(ts.url, `/auth/tokens/${c.id}`, undefined, {}).catch(() => null);
    expect(del?.status).not.toBe(204); // a GET is no revocation
    const r = await fetch(`${ts.url}/auth/tokens/${c.id}`, { method: 'DELETE', headers: { cookie: c.who.cookie, origin: ts.url } });
    expect(r.status).toBe(204);
    await until(() => s.ended(), 'the stream closed', 2_000);
    expect((await api(ts.url, `/api/bot/game/${matchID}/resign`, {}, bearer(c.token))).status).toBe(401);
    expect((await c.who.call('/auth/tokens')).body.tokens).toEqual([]);
  });
});

describe('the bot API\'s limits per token', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer('embedded', { limits: { botMove: { points: 2, seconds: 60 } }, botKeepAliveMs: 300 });
  });
  afterAll(() => ts?.stop());

  it('moves per token, and open streams per token, are bounded', async () => {
    const a = await botAccount(ts.url, 'limited_a');
    const b = await botAccount(ts.url, 'limited_b');
    const matchID = await newMatch(ts.url);
    await join(ts.url, matchID, '0', a.token);
    await join(ts.url, matchID, '1', b.token);
    for (let i = 0; i < 2; i++) expect((await move(ts.url, b.token, matchID, { stateID: 0, action: 1001 })).status).toBe(400);
    const third = await move(ts.url, b.token, matchID, { stateID: 0, action: 1001 });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // The other token is counted apart.
    expect((await move(ts.url, a.token, matchID, { stateID: 0, action: 999_999 })).status).toBe(400);
    const streams = Array.from({ length: 8 }, () => openStream(ts.url, matchID, a.token));
    await until(() => streams.every((s) => s.lines.length > 0), 'eight streams open');
    const ninth = await api(ts.url, `/api/bot/game/stream/${matchID}`, undefined, bearer(a.token));
    expect(ninth.status).toBe(429);
    // A stream the client drops frees its place.
    streams[0].abort();
    await until(async () => {
      const s = openStream(ts.url, matchID, a.token);
      const ok = (await s.res).status === 200;
      s.abort();
      return ok;
    }, 'a place freed by a dropped stream', 5_000);
    for (const s of streams) s.abort();
  });

  it('a quiet stream gets a keep-alive newline, and closes once its token is gone from storage (revoked through another process)', async () => {
    const c = await botAccount(ts.url, 'quiet_c');
    const matchID = await newMatch(ts.url);
    await join(ts.url, matchID, '0', c.token);
    const r = await fetch(`${ts.url}/api/bot/game/stream/${matchID}`, { headers: bearer(c.token) });
    const reader = r.body!.getReader();
    const chunks: string[] = [];
    const dec = new TextDecoder();
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        chunks.push(dec.decode(value));
      }
    })();
    await until(() => chunks.join('').endsWith('}\n\n'), 'a keep-alive newline after gameFull', 5_000);
    const owner = await ts.store.accounts.byKey('quiet_c');
    expect(await ts.store.accounts.removeToken(owner!.id, c.id)).toBe(true);
    await Promise.race([reading, new Promise((_, no) => setTimeout(() => no(new Error('stream still open')), 3_000))]);
  });
});
