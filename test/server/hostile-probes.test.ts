/**
 * Hostile input over real HTTP to the challenge, block and event routes and to the bot API's own
 * (/auth/tokens, /auth/passkeys/:id, /api/bot/…): huge bodies, wrong types, `__proto__` keys, malformed
 * JSON, unknown and oversized names and ids. Every answer is a 4xx — never a 500 — and none echoes what
 * was sent (a marker in every probe is looked for in every answer and in the server's log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';
import { signUp, type Signed } from './account-helpers';
import { botAccount } from './challenge-helpers';

const MARK = 'Zq9Mark';
const BODIES: (string | undefined)[] = [
  `{"side":"${MARK}${'a'.repeat(1_000_000)}"}`,
  `[1,2,"${MARK}"]`,
  `"${MARK}"`,
  '12345',
  'null',
  `{"side":${JSON.stringify(MARK)},"__proto__":{"rated":true}}`,
  `{"__proto__":{"admin":true},"name":"${MARK}"}`,
  `{"constructor":{"prototype":{"x":"${MARK}"}}}`,
  `{"side":{"__proto__":"${MARK}"},"rated":"${MARK}","clock":[{}],"takeBacks":{"x":1}}`,
  `{"stateID":"${MARK}","action":{"${MARK}":1},"move":"${MARK}","args":"${MARK}","text":{"a":"${MARK}"}}`,
  `{"name":${JSON.stringify(MARK.repeat(100))},"scopes":["${MARK}"]}`,
  `{"side":"${MARK}`,
  // A short plain field name is named back ('unknown field "colour"': for developers); nothing longer or odder is.
  `{"<b>${MARK}</b>":1}`,
  `{"${MARK}${'k'.repeat(100)}":1}`,
  undefined,
];
const NAMES = [MARK, `${MARK}${'n'.repeat(5000)}`, `${MARK}%00`, `${MARK}%2F..%2F`, encodeURIComponent(`<script>${MARK}</script>`), `${MARK}${'é'.repeat(300)}`];

describe('hostile input to the challenge, block, event and bot routes', () => {
  let ts: TestServer;
  let me: Signed;
  let bot: Awaited<ReturnType<typeof botAccount>>;
  beforeAll(async () => {
    ts = await startTestServer('embedded', { limits: { challenge: { points: 100_000, seconds: 60 }, challengeAnswer: { points: 100_000, seconds: 60 }, block: { points: 100_000, seconds: 60 }, token: { points: 100_000, seconds: 60 }, botMove: { points: 100_000, seconds: 1 }, botChat: { points: 100_000, seconds: 1 }, eventStream: { points: 100_000, seconds: 60 } } });
    me = await signUp(ts.url, 'prober');
    bot = await botAccount(ts.url, 'probebot');
  }, 60_000);
  afterAll(() => ts?.stop());

  it('answers every probe with a 4xx that does not repeat it', async () => {
    const paths: [string, string][] = [];
    for (const n of NAMES) {
      paths.push(['POST', `/api/challenge/${n}`], ['POST', `/api/block/${n}`], ['DELETE', `/api/block/${n}`]);
      for (const a of ['accept', 'decline', 'cancel']) paths.push(['POST', `/api/challenge/${n}/${a}`]);
      paths.push(['DELETE', `/auth/tokens/${n}`], ['DELETE', `/auth/passkeys/${n}`], ['POST', `/auth/passkeys/${n}/delete`]);
      for (const a of ['move', 'resign', 'chat']) paths.push(['POST', `/api/bot/game/${n}/${a}`]);
      paths.push(['GET', `/api/bot/game/stream/${n}`]);
    }
    // Real targets too, with bad bodies (an empty one is a good ask there).
    paths.push(['POST', '/api/challenge/probebot'], ['POST', '/auth/tokens']);
    const real = new Set(['/api/challenge/probebot', '/auth/tokens']);
    const statuses = new Map<number, number>();
    for (const [method, path] of paths)
      for (const body of method === 'GET' ? [undefined] : BODIES.filter((b) => b !== undefined || !real.has(path)))
        for (const headers of [{ cookie: me.cookie, origin: ts.url }, { authorization: `Bearer ${bot.token}` }] as Record<string, string>[]) {
          const r = await fetch(ts.url + path, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body });
          const text = await r.text();
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          expect(r.status, `${method} ${path.slice(0, 80)} ${String(body).slice(0, 60)}: ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(r.status, `${method} ${path.slice(0, 80)} ${String(body).slice(0, 60)}: ${text.slice(0, 200)}`).toBeLessThan(500);
          expect(text, `${method} ${path.slice(0, 80)} ${String(body).slice(0, 60)}`).not.toContain(MARK);
        }
    // The probes met more than one kind of refusal (not one blanket answer).
    expect([...statuses.keys()].length).toBeGreaterThan(3);
    // The log names a refused request's path (its access line, at debug), never a body.
    const beyondPath = ts.logs.filter((l) => {
      const { path: _p, ...rest } = JSON.parse(l) as { path?: string };
      return JSON.stringify(rest).includes(MARK);
    });
    expect(beyondPath).toEqual([]);
    expect(ts.logs.some((l) => /"level":(50|60)/.test(l))).toBe(false);
  }, 240_000);
});
