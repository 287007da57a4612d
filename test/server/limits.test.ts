/**
 * Per-address limits over HTTP, on one process: a client flooding creates, joins and reads gets 429
 * with Retry-After and a message saying what and how long, while a client at another address
 * (127.0.0.2) creates, joins and plays at normal behaviour. X-Forwarded-For is believed only behind a
 * trusted proxy, and only its last address (the one the proxy added).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { api, apiFrom, play, player, startTestServer, type TestServer } from './helpers';

const LIMITS = { create: { points: 5, seconds: 600 }, join: { points: 8, seconds: 600 }, api: { points: 80, seconds: 600 } };
const FLOODER = '127.0.0.1';
const OTHER = '127.0.0.2';

const refusedWell = (r: { status: number; headers: Record<string, unknown>; body: any }, what: RegExp) => {
  expect(r.status).toBe(429);
  const after = Number(r.headers['retry-after']);
  expect(Number.isInteger(after) && after >= 1 && after <= 600).toBe(true);
  expect(r.body.error).toMatch(what);
  expect(r.body.error).toContain(`try again in ${after} second`);
  // The wait in the body too, for pages that only see the body (boardgame.io's LobbyClient).
  expect(r.body.retryAfter).toBe(after);
};

describe('HTTP limits per address (one process)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { limits: LIMITS });
  });
  afterAll(async () => t?.stop());

  it('a flood of creates and joins is refused with 429 while another address creates, joins and plays', async () => {
    const creates = await Promise.all(Array.from({ length: 30 }, (_, i) => apiFrom(FLOODER, t.url, i % 3 === 0 ? '/games/watergate/vs-computer' : '/games/watergate/create', {})));
    const made = creates.filter((r) => r.status === 200);
    expect(made).toHaveLength(LIMITS.create.points);
    for (const r of creates.filter((r) => r.status !== 200)) refusedWell(r, /^too many new matches from your address/);
    // The refused ones made nothing: only the allowed matches exist.
    expect(await t.store.listMatches()).toHaveLength(LIMITS.create.points);
    // Writing another address into X-Forwarded-For does not help without a trusted proxy.
    refusedWell(await apiFrom(FLOODER, t.url, '/games/watergate/create', {}, { 'x-forwarded-for': '203.0.113.9' }), /^too many new matches/);

    const target = made.find((r) => r.body.botSeat === undefined)!.body.matchID as string;
    const joins = await Promise.all(Array.from({ length: 20 }, () => apiFrom(FLOODER, t.url, `/games/watergate/${target}/join`, { playerName: 'Flood' })));
    expect(joins.filter((r) => r.status === 200)).toHaveLength(2);
    expect(joins.filter((r) => r.status === 409)).toHaveLength(LIMITS.join.points - 2);
    for (const r of joins.filter((r) => r.status === 429)) refusedWell(r, /^too many seats taken from your address/);
    expect(joins.filter((r) => r.status === 429)).toHaveLength(20 - LIMITS.join.points);

    // Meanwhile another address is a new client: its match, its seats, its moves.
    const { status, body } = await apiFrom(OTHER, t.url, '/games/watergate/create', {});
    expect(status).toBe(200);
    const matchID = body.matchID as string;
    const a = await apiFrom(OTHER, t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Woodward' });
    const b = await apiFrom(OTHER, t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Nixon' });
    expect([a.status, b.status]).toEqual([200, 200]);
    const players = {
      '0': player(t.url, matchID, '0', a.body.playerCredentials, { localAddress: OTHER }),
      '1': player(t.url, matchID, '1', b.body.playerCredentials, { localAddress: OTHER }),
    };
    try {
      await play(players, 12);
      expect(players['0'].state()!._stateID).toBeGreaterThanOrEqual(12);
    } finally {
      players['0'].stop();
      players['1'].stop();
    }
    // Its "play again" is a new match too, counted against its own address only.
    const again = await apiFrom(OTHER, t.url, `/games/watergate/${matchID}/playAgain`, { playerID: '0', credentials: a.body.playerCredentials });
    expect(again.status).toBe(200);
    expect(again.body.nextMatchID).toEqual(expect.any(String));
  });

  it('every API request counts: a reader flooding the list is refused, others still read it', async () => {
    let last = await apiFrom(FLOODER, t.url, '/games/watergate');
    for (let i = 0; i < LIMITS.api.points && last.status === 200; i++) last = await apiFrom(FLOODER, t.url, '/games/watergate');
    refusedWell(last, /^too many requests from your address/);
    // A page of an allowed origin can read the refusal and its wait (CORS headers on the 429).
    const page = await apiFrom(FLOODER, t.url, '/games/watergate', undefined, { origin: t.url });
    refusedWell(page, /^too many requests/);
    expect(page.headers['access-control-allow-origin']).toBe(t.url);
    expect(String(page.headers['access-control-expose-headers'])).toMatch(/Retry-After/i);
    // Also the routes behind it (one match, a create) answer 429 before doing anything.
    refusedWell(await apiFrom(FLOODER, t.url, '/games/watergate/nosuchmatch'), /^too many requests/);
    const other = await apiFrom(OTHER, t.url, '/games/watergate');
    expect(other.status).toBe(200);
    expect(other.body.matches.length).toBeGreaterThan(0);
    // What is not the Lobby API (health checks, the page) is not counted.
    expect((await apiFrom(FLOODER, t.url, '/healthz')).status).toBe(200);
  });
});

describe('X-Forwarded-For behind a trusted proxy', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { limits: { create: { points: 2, seconds: 600 } }, trustProxy: true });
  });
  afterAll(async () => t?.stop());

  it('counts the address the proxy added (the last), not what the client wrote before it', async () => {
    const from = (xff: string) => api(t.url, '/games/watergate/create', {}, { 'x-forwarded-for': xff });
    expect((await from('198.51.100.1')).status).toBe(200);
    expect((await from('203.0.113.5, 198.51.100.1')).status).toBe(200);
    // The client forging a first address does not make it a new client.
    const third = await from('203.0.113.6, 198.51.100.1');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^[0-9]+$/);
    // Another client behind the same proxy is counted apart.
    expect((await from('198.51.100.2')).status).toBe(200);
  });
});

describe('configuration', () => {
  it('TRUST_PROXY is 1 or 0; LIMITS replaces named limits and refuses what it cannot read, naming the variable', () => {
    expect(configFromEnv({}).trustProxy).toBe(false);
    expect(configFromEnv({ TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(() => configFromEnv({ TRUST_PROXY: 'yes' })).toThrow(/^TRUST_PROXY must be 1 or 0/);
    expect(configFromEnv({}).limits).toEqual({});
    expect(configFromEnv({ LIMITS: 'create=50/600, api=1200/60' }).limits).toEqual({ create: { points: 50, seconds: 600 }, api: { points: 1200, seconds: 60 } });
    for (const bad of ['create=50', 'nosuch=1/1', 'create=0/60', 'create=5/-1', 'create=a/b'])
      expect(() => configFromEnv({ LIMITS: bad }), bad).toThrow(/^LIMITS must be name=points\/seconds/);
  });
});


