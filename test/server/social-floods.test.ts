/**
 * Floods of the signed-in social routes over real HTTP: blocks, follows and challenges sent and cancelled
 * in a loop meet their per-account limits (429 with Retry-After, server/limits.ts) and the server keeps
 * answering everyone else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from './helpers';
import { signUp, type Signed } from './account-helpers';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer('embedded');
}, 60_000);
afterAll(() => ts?.stop());

/** Calls `send` until it answers 429 (at most `max` times): how many were accepted first. */
async function untilRefused(max: number, send: (i: number) => Promise<{ status: number; headers: Headers }>) {
  for (let i = 0; i < max; i++) {
    const r = await send(i);
    if (r.status === 429) return { accepted: i, retryAfter: r.headers.get('retry-after') };
    expect(r.status, `request ${i}`).toBeLessThan(400);
  }
  throw new Error(`no 429 after ${max} requests`);
}

const del = (who: Signed, path: string) => fetch(`${ts.url}${path}`, { method: 'DELETE', headers: { cookie: who.cookie, origin: ts.url } }).then((r) => ({ status: r.status, headers: r.headers }));

describe('floods of the social routes', () => {
  it('blocks, follows and challenges stop at their limits; other players are still served', async () => {
    const [flooder, target, bystander] = [await signUp(ts.url, 'flooder'), await signUp(ts.url, 'floodtarget'), await signUp(ts.url, 'bystander')];
    const blocks = await untilRefused(80, (i) => (i % 2 ? del(flooder, `/api/block/${target.username}`) : flooder.call(`/api/block/${target.username}`, {})));
    expect(blocks.accepted).toBe(60);
    expect(Number(blocks.retryAfter)).toBeGreaterThan(0);
    const follows = await untilRefused(80, (i) => (i % 2 ? del(flooder, `/api/follow/${target.username}`) : flooder.call(`/api/follow/${target.username}`, {})));
    expect(follows.accepted).toBe(60);
    const challenges = await untilRefused(40, async () => {
      const sent = await flooder.call(`/api/challenge/${target.username}`, { side: 'random' });
      if (sent.status === 200) await flooder.call(`/api/challenge/${sent.body.id}/cancel`, {});
      return sent;
    });
    expect(challenges.accepted).toBe(30);
    // The server is up, and another account is not slowed by the flooder's limits.
    expect((await bystander.call(`/api/follow/${target.username}`, {})).status).toBe(200);
    expect((await bystander.call(`/api/challenge/${target.username}`, { side: 'editor' })).status).toBe(200);
    expect((await api(ts.url, '/games/watergate')).status).toBe(200);
  }, 60_000);
});
