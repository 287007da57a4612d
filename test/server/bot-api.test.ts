/**
 * The HTTP bot API over real HTTP (docs/BOT-API.md "The HTTP bot API"), on SQLite and PostgreSQL:
 * personal tokens from a session, the upgrade to a bot account, seats taken with a token through the
 * Lobby's join route, NDJSON game streams and move POSTs. Two bots play whole games; a human (socket)
 * plays a bot; an illegal move is refused with the engine's reason; a revoked token is refused at once and
 * its stream closed; a stream dropped mid-game reopens at the current state. The privacy proof: every
 * line's view equals Watergate.playerView of the server's state at that state id for the seat, and
 * names none of the other side's secrets.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from 'boardgame.io';
import { Watergate, legalMoves, secretsOf, type WatergateState } from '../../game/index';
import { seeded } from './wire';
import { api, player, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';
import { signUp, type Signed } from './account-helpers';

const usePg = await postgresAvailable();
const backends: Backend[] = usePg ? ['embedded', 'postgres'] : ['embedded'];
type Seat = '0' | '1';
type Line = { type: string; seat?: Seat; stateID: number; view: any; legal?: { id: number; move: string; args: unknown[]; text: string }[]; status?: unknown };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function botAccount(url: string, name: string): Promise<{ who: Signed; token: string; id: string }> {
  const who = await signUp(url, name);
  const t = await who.call('/auth/tokens', { name: 'my bot', scopes: ['bot'] });
  expect(t.status).toBe(200);
  const up = await api(url, '/api/bot/upgrade', {}, bearer(t.body.token));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  return { who, token: t.body.token, id: t.body.id };
}

function openStream(url: string, matchID: string, token: string) {
  const ac = new AbortController();
  const lines: Line[] = [];
  let ended = false;
  const res = fetch(`${url}/api/bot/game/stream/${matchID}`, { headers: bearer(token), signal: ac.signal });
  const done = (async () => {
    const r = await res;
    if (r.status !== 200) return void (ended = true);
    const reader = r.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        buf += dec.decode(value, { stream: true });
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const l = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (l.trim()) lines.push(JSON.parse(l) as Line);
        }
      }
    } catch {
      /* aborted */
    }
    ended = true;
  })();
  return { res, lines, ended: () => ended, done, abort: () => ac.abort() };
}
type Stream = ReturnType<typeof openStream>;

const move = (url: string, token: string, matchID: string, body: unknown) => api(url, `/api/bot/game/${matchID}/move`, body, bearer(token));

/** Answers the stream's lines with random legal ids until the game ends (or `stopAt` lines): the last line seen. */
async function drive(url: string, token: string, matchID: string, s: Stream, rng: () => number, stopAt = Infinity): Promise<Line | undefined> {
  let i = 0;
  for (;;) {
    await until(() => s.lines.length > i || s.ended(), 'a stream line', 60_000);
    if (s.lines.length <= i) return s.lines.at(-1);
    const line = s.lines[i++];
    if (line.type === 'gameFinish' || i >= stopAt) return line;
    if (s.lines.length > i || !line.legal?.length) continue; // answer the newest line only
    const a = line.legal[Math.floor(rng() * line.legal.length)];
    const r = await move(url, token, matchID, { stateID: line.stateID, action: a.id });
    // 409: the state moved on meanwhile (not expected with one mover at a time, tolerated like a client does).
    expect([200, 409], `${a.text} at ${line.stateID}: ${JSON.stringify(r.body)}`).toContain(r.status);
  }
}

/** Every state of every match the server holds, by match and state id (the hooks see each state made). */
function recordStates(ts: TestServer) {
  const states = new Map<string, State<WatergateState>>();
  ts.server.service.onState((m) => states.set(`${m.matchID}:${m.state._stateID}`, m.state));
  return states;
}

/** The privacy proof for one line: the view is the seat's playerView of the server's state, and shows no secret of the other side. */
function checkPrivate(states: Map<string, State<WatergateState>>, matchID: string, seat: Seat, line: Line): void {
  if (line.view === undefined) return;
  const st = states.get(`${matchID}:${line.stateID}`);
  expect(st, `server state ${line.stateID}`).toBeDefined();
  const expected = Watergate.playerView!({ G: st!.G, ctx: st!.ctx, playerID: seat } as never);
  expect(line.view).toEqual(JSON.parse(JSON.stringify(expected)));
  const { log: _log, ...shown } = line.view as { log: unknown };
  const text = JSON.stringify(shown);
  const secrets = [...secretsOf(st!.G, seat)].filter((id) => !st!.G.bag.includes(id));
  for (const s of [...secrets, ...st!.G.bag]) expect(text, `${line.type} ${line.stateID} shows ${s}`).not.toContain(`"${s}"`);
}

async function newMatch(url: string): Promise<string> {
  const r = await api(url, '/games/watergate/create', { numPlayers: 2 });
  return r.body.matchID as string;
}
const join = (url: string, matchID: string, seat: Seat, token: string) => api(url, `/games/watergate/${matchID}/join`, { playerID: seat }, bearer(token));

describe.each(backends)('the HTTP bot API (%s)', (backend) => {
  let ts: TestServer;
  let states: Map<string, State<WatergateState>>;
  let a: Awaited<ReturnType<typeof botAccount>>;
  let b: Awaited<ReturnType<typeof botAccount>>;
  beforeAll(async () => {
    ts = await startTestServer(backend, { limits: { botMove: { points: 100_000, seconds: 60 }, botStream: { points: 1000, seconds: 60 }, token: { points: 1000, seconds: 60 } } });
    states = recordStates(ts);
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

  it('two bots play a whole game over streams and move POSTs, each line exactly its seat\'s view', async () => {
    for (const seed of [1, 2]) {
      const matchID = await newMatch(ts.url);
      expect((await join(ts.url, matchID, '0', a.token)).status).toBe(200);
      expect((await join(ts.url, matchID, '1', b.token)).status).toBe(200);
      const sa = openStream(ts.url, matchID, a.token);
      const sb = openStream(ts.url, matchID, b.token);
      expect((await sa.res).headers.get('content-type')).toMatch(/application\/x-ndjson/);
      const rng = seeded(seed).next;
      const [la, lb] = await Promise.all([drive(ts.url, a.token, matchID, sa, rng), drive(ts.url, b.token, matchID, sb, rng)]);
      expect(la?.type).toBe('gameFinish');
      expect(lb?.type).toBe('gameFinish');
      expect(sa.lines[0]).toMatchObject({ type: 'gameFull', seat: '0' });
      expect(sb.lines[0]).toMatchObject({ type: 'gameFull', seat: '1' });
      expect(sa.lines.length).toBeGreaterThan(20);
      for (const l of sa.lines) checkPrivate(states, matchID, '0', l);
      for (const l of sb.lines) checkPrivate(states, matchID, '1', l);
      // Every state of the game reached both streams, in order.
      const ids = sa.lines.filter((l) => l.type !== 'chatLine').map((l) => l.stateID);
      const last = ids.at(-1)!;
      expect(ids).toEqual(Array.from({ length: last - ids[0] + 1 }, (_, k) => ids[0] + k).concat(last)); // gameFinish repeats the last id
      expect(new Set(sb.lines.map((l) => l.stateID)).size).toBe(last - sb.lines[0].stateID + 1);
      await until(() => sa.ended() && sb.ended(), 'both streams closed at the end');
    }
  }, 240_000);

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

  it('a stream dropped mid-game reopens with gameFull at the current state and plays on', async () => {
    const matchID = await newMatch(ts.url);
    await join(ts.url, matchID, '0', a.token);
    await join(ts.url, matchID, '1', b.token);
    const rng = seeded(7).next;
    const sb = openStream(ts.url, matchID, b.token);
    const sa = openStream(ts.url, matchID, a.token);
    const bDone = drive(ts.url, b.token, matchID, sb, rng);
    await drive(ts.url, a.token, matchID, sa, rng, 15);
    sa.abort();
    await until(() => sa.ended(), 'dropped');
    const again = openStream(ts.url, matchID, a.token);
    await until(() => again.lines.length > 0, 'gameFull again');
    expect(again.lines[0].type).toBe('gameFull');
    // At the current state: no older than what the dropped stream saw, and any later state follows as gameState lines.
    expect(again.lines[0].stateID).toBeGreaterThanOrEqual(sa.lines.at(-1)!.stateID);
    expect(again.lines[0].stateID).toBeLessThanOrEqual(ts.server.service.peek(matchID)!.state._stateID);
    const last = await drive(ts.url, a.token, matchID, again, rng);
    expect(last?.type).toBe('gameFinish');
    expect((await bDone)?.type).toBe('gameFinish');
    for (const l of again.lines) checkPrivate(states, matchID, '0', l);
  }, 120_000);

  it('a human on a socket plays a bot to the end', async () => {
    const matchID = await newMatch(ts.url);
    const h = await api(ts.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Woodward' });
    expect((await join(ts.url, matchID, '1', b.token)).status).toBe(200);
    const human = player(ts.url, matchID, '0', h.body.playerCredentials);
    const s = openStream(ts.url, matchID, b.token);
    await until(() => s.lines.length > 0 && human.state() !== null, 'both synced');
    // The players' chat, both ways.
    human.client.sendChatMessage('hello bot');
    await until(() => s.lines.some((l) => l.type === 'chatLine'), 'the chat line on the stream');
    expect(s.lines.find((l) => l.type === 'chatLine')).toMatchObject({ type: 'chatLine', seat: '0', text: 'hello bot' });
    expect((await api(ts.url, `/api/bot/game/${matchID}/chat`, { text: 'good luck' }, bearer(b.token))).status).toBe(200);
    await until(() => human.client.chatMessages.some((m) => m.payload === 'good luck' && m.sender === '1'), 'the bot\'s line at the human');
    s.lines.splice(0, s.lines.length, ...s.lines.filter((l) => l.type !== 'chatLine'));
    const botDone = drive(ts.url, b.token, matchID, s, seeded(3).next);
    const rng = seeded(4).next;
    for (let n = 0; n < 2000; n++) {
      await until(() => human.state() !== null, 'synced');
      const st = human.state()!;
      if (st.ctx.gameover) break;
      if (st.G.prompt?.player !== '0') {
        await until(() => human.state()!._stateID !== st._stateID, 'the bot moved', 20_000);
        continue;
      }
      const options = legalMoves(st.G as unknown as WatergateState, '0');
      const m = options[Math.floor(rng() * options.length)];
      (human.client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
      await until(() => human.state()!._stateID !== st._stateID, 'the human\'s move', 5_000).catch(() => undefined);
    }
    expect(human.state()!.ctx.gameover).toBeDefined();
    expect((await botDone)?.type).toBe('gameFinish');
    for (const l of s.lines) checkPrivate(states, matchID, '1', l);
    human.stop();
  }, 180_000);
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

describe('docs/BOT-API.md', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer('embedded', { limits: { botMove: { points: 100_000, seconds: 60 } } });
  });
  afterAll(() => ts?.stop());

  it('the HTTP bot API\'s TypeScript example plays a whole game against itself', async () => {
    const doc = readFileSync('docs/BOT-API.md', 'utf8');
    const section = doc.slice(doc.indexOf('## The HTTP bot API'));
    const code = /```ts\n([\s\S]*?)```/.exec(section.slice(section.indexOf('### Example')))![1];
    const dir = mkdtempSync(joinPath(tmpdir(), 'wg-bot-example-'));
    const file = joinPath(dir, 'bot.mts');
    writeFileSync(file, code);
    const a = await botAccount(ts.url, 'example_a');
    const b = await botAccount(ts.url, 'example_b');
    const matchID = await newMatch(ts.url);
    const run = (token: string) => promisify(execFile)(process.execPath, ['--import', 'tsx', file, ts.url, token, matchID], { timeout: 120_000 });
    try {
      const outs = await Promise.all([run(a.token), run(b.token)]);
      for (const o of outs) expect(o.stdout).toMatch(/^over: /m);
      expect(ts.server.service.peek(matchID)?.state.ctx.gameover).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
