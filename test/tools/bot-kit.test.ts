/**
 * The bot kit (`npm run bot`, tools/bot/) and the Python example (docs/examples/bot.py) against a real
 * server over HTTP: two bot accounts, a match made through the Lobby, each seat joined with its account's
 * token and played by a process of its own to the end of the game; and the kit as an account's process:
 * a challenge sent to it is accepted on its event stream and the game that starts is played by both kits;
 * a game stream cut mid-game (by a proxy) is opened again and the game finished; a challenge the kit's
 * account sent itself (which its event stream tells it of too) is never accepted, one sent to it is.
 */
import { execFile, spawn } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, stored, until, type TestServer } from '../server/helpers';
import { signUp } from '../server/account-helpers';
import { challengeOf, join, matchOf, playGame, runAccount } from '../../tools/bot/kit';
import { engine } from '../../bots/arena';

const hasPython = await promisify(execFile)('python3', ['--version']).then(
  () => true,
  () => false,
);

async function botToken(url: string, name: string): Promise<string> {
  const who = await signUp(url, name);
  const t = await who.call('/auth/tokens', { name: 'kit', scopes: ['bot'] });
  expect(t.status).toBe(200);
  expect((await api(url, '/api/bot/upgrade', {}, { authorization: `Bearer ${t.body.token}` })).status).toBe(200);
  return t.body.token as string;
}

/** Runs a command to its end: exit code and output (the test fails on a hang after `ms`). */
function run(cmd: string, args: string[], ms = 240_000): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd: process.cwd(), env: { ...process.env, NODE_ENV: 'production' } });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), ms);
    p.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
  });
}

const kit = (url: string, token: string, engine: string, matchID: string, seat: string) => run(process.execPath, ['--import', 'tsx', 'tools/bot/main.ts', '--server', url, '--token', token, '--engine', engine, '--match', matchID, '--seat', seat]);

describe('bot processes against a real server', () => {
  let ts: TestServer;
  let a: string;
  let b: string;
  beforeAll(async () => {
    ts = await startTestServer('embedded', { limits: { botMove: { points: 100_000, seconds: 60 }, botStream: { points: 1000, seconds: 60 }, token: { points: 1000, seconds: 60 } } });
    a = await botToken(ts.url, 'kit_alpha');
    b = await botToken(ts.url, 'kit_bravo');
  }, 60_000);
  afterAll(() => ts?.stop());

  /** The match's end as the server stored it, after a game of many moves (not one ended at once). */
  const finished = async (matchID: string) => {
    const { state } = await stored(ts.store, matchID);
    expect(state._stateID).toBeGreaterThan(20);
    expect(state.G.winner).toMatch(/^[01]$/);
    return state.ctx.gameover;
  };

  it('npm run bot -- --match: two kit processes (our bot and fair MCTS) play a whole game through the game streams', async () => {
    const matchID = (await api(ts.url, '/games/watergate/create', { numPlayers: 2 })).body.matchID as string;
    const [editor, nixon] = await Promise.all([kit(ts.url, a, 'watergate:easy', matchID, '0'), kit(ts.url, b, 'mcts:8:4', matchID, '1')]);
    expect(editor.code, editor.out).toBe(0);
    expect(nixon.code, nixon.out).toBe(0);
    expect(editor.out).toMatch(/over: winner/);
    expect(await finished(matchID)).toBeDefined();
    // The token is never printed.
    expect(editor.out + nixon.out).not.toContain(a);
    expect(editor.out + nixon.out).not.toContain(b);
  }, 300_000);

  it('npm run bot (no --match): the challenged bot accepts on its event stream and both kits play the game to its end', async () => {
    const procs = [a, b].map((token, i) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'tools/bot/main.ts', '--server', ts.url, '--token', token, '--engine', i ? 'random' : 'mcts:8:4'], { env: { ...process.env, NODE_ENV: 'production' } });
      const out = { text: '' };
      p.stdout.on('data', (d) => (out.text += d));
      p.stderr.on('data', (d) => (out.text += d));
      return { p, out };
    });
    try {
      await until(() => procs.every((x) => x.out.text.includes('bot: ')), 'both kits started', 60_000);
      await new Promise((r) => setTimeout(r, 1500)); // their event streams open
      const sent = await api(ts.url, '/api/challenge/kit_bravo', { side: 'editor' }, { authorization: `Bearer ${a}` });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      await until(() => /challenge \S+: accepted/.test(procs[1].out.text), 'the challenge accepted', 60_000);
      await until(() => procs.every((x) => /game \S+ over: winner/.test(x.out.text)), 'the game played to its end by both kits', 240_000);
      const matchID = /game (\S+) over/.exec(procs[1].out.text)![1];
      expect(await finished(matchID)).toBeDefined();
    } finally {
      for (const x of procs) x.p.kill('SIGTERM');
    }
  }, 360_000);

  it('a game stream that drops mid-game is opened again and the game played to its end', async () => {
    // A proxy in front of the server that cuts the first game stream after a few lines.
    let cut = 0;
    const proxy = http.createServer((req, res) => {
      const target = new URL(req.url!, ts.url);
      const up = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
        res.writeHead(r.statusCode!, r.headers);
        const stream = req.url!.startsWith('/api/bot/game/stream/');
        let chunks = 0;
        r.on('data', (d) => {
          res.write(d);
          if (stream && cut === 0 && ++chunks === 6) {
            cut++;
            res.destroy();
            r.destroy();
          }
        });
        r.on('end', () => res.end());
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const via = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      const matchID = (await api(ts.url, '/games/watergate/create', { numPlayers: 2 })).body.matchID as string;
      const logs: string[] = [];
      const x = { server: via, token: a, decide: await engine('random', 1), log: (l: string) => logs.push(l) };
      const y = { server: ts.url, token: b, decide: await engine('random', 2) };
      expect(await join(x, matchID, '0')).toBe(200);
      expect(await join(y, matchID, '1')).toBe(200);
      const [ex, ny] = await Promise.all([playGame(x, matchID), playGame(y, matchID)]);
      expect(cut).toBe(1);
      expect(logs.join('\n')).toMatch(/dropped: reconnecting/);
      expect(ex).toEqual(ny);
      expect(ex!.winner).toMatch(/^[01]$/);
      expect(await finished(matchID)).toBeDefined();
    } finally {
      proxy.close();
    }
  }, 240_000);

  it("the kit leaves the challenges its own account sent to their opponent, and accepts those sent to it", async () => {
    // A proxy in front of the server that records every request the kit makes.
    const asked: string[] = [];
    const proxy = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      const target = new URL(req.url!, ts.url);
      const up = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const via = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    const logs: string[] = [];
    const ac = new AbortController();
    const running = runAccount({ server: via, token: a, decide: await engine('random', 3), log: (l) => logs.push(l), signal: ac.signal });
    try {
      await until(() => asked.includes('GET /api/stream/event'), 'the event stream opened', 20_000);
      await new Promise((r) => setTimeout(r, 500)); // the server holds it
      // Two challenges from the kit's own account (the first teaches it its username, the second is read off the line).
      const mine = [];
      for (const side of ['editor', 'nixon']) {
        const sent = await api(ts.url, '/api/challenge/kit_bravo', { side }, { authorization: `Bearer ${a}` });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        mine.push(sent.body.id as string);
        await until(() => logs.some((l) => l.startsWith(`challenge ${sent.body.id}: sent by this account`)), 'the kit saw its own challenge', 20_000);
      }
      // One to it: accepted.
      const to = await api(ts.url, '/api/challenge/kit_alpha', { side: 'editor' }, { authorization: `Bearer ${b}` });
      expect(to.status, JSON.stringify(to.body)).toBe(200);
      await until(() => logs.includes(`challenge ${to.body.id}: accepted`), 'the challenge to it accepted', 20_000);
      // It never tried to accept its own: no such request, no 403; both still wait for kit_bravo.
      for (const id of mine) expect(asked).not.toContain(`POST /api/challenge/${id}/accept`);
      expect(asked).toContain(`POST /api/challenge/${to.body.id}/accept`);
      expect(logs.join('\n')).not.toMatch(/not accepted \(403\)/);
      expect(asked.filter((x) => x === 'GET /api/challenge')).toHaveLength(1);
      const pending = await api(ts.url, '/api/challenge', undefined, { authorization: `Bearer ${b}` });
      expect(pending.body.in.map((c: { id: string }) => c.id).sort()).toEqual([...mine].sort());
      for (const id of mine) await api(ts.url, `/api/challenge/${id}/cancel`, {}, { authorization: `Bearer ${a}` });
      // The accepted game ends: kit_bravo resigns it.
      const matchID = /game (\S+): playing/.exec(logs.join('\n'))![1];
      expect((await api(ts.url, `/api/bot/game/${matchID}/resign`, {}, { authorization: `Bearer ${b}` })).status).toBe(200);
    } finally {
      ac.abort();
      await running;
      proxy.close();
    }
  }, 120_000);

  it('refuses a bad engine name or a missing token before connecting', async () => {
    const bad = await run(process.execPath, ['--import', 'tsx', 'tools/bot/main.ts', '--server', ts.url, '--token', a, '--engine', 'watergate:godlike']);
    expect(bad.code).toBe(2);
    expect(bad.out).toMatch(/unknown level/);
    const none = await run(process.execPath, ['--import', 'tsx', 'tools/bot/main.ts', '--server', ts.url, '--engine', 'random'], 30_000);
    expect(none.code).toBe(2);
  }, 60_000);

  it.skipIf(!hasPython)('the Python example (standard library only) plays a whole game against itself', async () => {
    const matchID = (await api(ts.url, '/games/watergate/create', { numPlayers: 2 })).body.matchID as string;
    const [x, y] = await Promise.all([run('python3', ['docs/examples/bot.py', ts.url, a, matchID, '0']), run('python3', ['docs/examples/bot.py', ts.url, b, matchID, '1'])]);
    expect(x.code, x.out).toBe(0);
    expect(y.code, y.out).toBe(0);
    expect(x.out).toMatch(/game over: \{'winner'/);
    expect(await finished(matchID)).toBeDefined();
  }, 300_000);

  it('reads both shapes of event lines (gameStart with matchID or game.matchID; challenge with challenge.id)', () => {
    expect(matchOf({ matchID: 'm1' })).toBe('m1');
    expect(matchOf({ game: { matchID: 'm2' } })).toBe('m2');
    expect(matchOf({ game: { id: 'm3' } })).toBe('m3');
    expect(matchOf({})).toBeNull();
    expect(challengeOf({ id: 'c1', challenge: { id: 'c1' } })).toBe('c1');
    expect(challengeOf({ challenge: { id: 'c2' } })).toBe('c2');
    expect(challengeOf({ id: 'c3' })).toBe('c3');
  });
});
