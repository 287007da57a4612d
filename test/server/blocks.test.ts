/**
 * Blocking over real HTTP, on SQLite and PostgreSQL: the routes with a session or a bot token, bounds and
 * refusals; quick pairing ("Play now") never seats two accounts one of which blocked the other, and
 * pairs them again once unblocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, postgresAvailable, startTestServer, type Backend, type TestServer } from './helpers';
import { signUp } from './account-helpers';
import { bearer, botAccount } from './challenge-helpers';

const usePg = await postgresAvailable();
const backends: Backend[] = usePg ? ['embedded', 'postgres'] : ['embedded'];
let lastAddress = 10;
/** Each player from an address of its own (behind the trusted proxy): two accounts from one address are never paired. */
const from = () => ({ 'x-forwarded-for': `198.51.100.${lastAddress++}` });

describe.each(backends)('blocks (%s)', (backend) => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer(backend, { trustProxy: true });
  }, 60_000);
  afterAll(() => ts?.stop());

  it('quick pairing never pairs two accounts when one blocked the other', async () => {
    const [annAt, benAt] = [from(), from()];
    const ann = await signUp(ts.url, `ann_${backend}`, undefined, annAt);
    const ben = await signUp(ts.url, `ben_${backend}`, undefined, benAt);
    expect((await ben.call(`/api/block/${ann.username}`, {}, benAt)).status).toBe(200);
    const ask = { side: 'either', clock: 'none', rated: false };
    const first = await ann.call('/pair', ask, annAt);
    expect(first.body.status).toBe('waiting');
    const second = await ben.call('/pair', ask, benAt);
    expect(second.body.status).toBe('waiting');
    expect((await ann.call('/pair/poll', { ticket: first.body.ticket }, annAt)).body.status).toBe('waiting');
    // Unblocked, the same two asks pair at once.
    const del = await fetch(`${ts.url}/api/block/${ann.username}`, { method: 'DELETE', headers: { cookie: ben.cookie, origin: ts.url, ...benAt } });
    expect(del.status).toBe(204);
    const polled = await ann.call('/pair/poll', { ticket: first.body.ticket }, annAt);
    expect(polled.body.status).toBe('paired');
  });

  it('a bot blocks with its token; blocks are listed to their owner only; refusals name the problem', async () => {
    const bot = await botAccount(ts.url, `blockbot_${backend}`);
    const cy = await signUp(ts.url, `cy_${backend}`);
    expect((await api(ts.url, `/api/block/${cy.username}`, {}, bearer(bot.token))).status).toBe(200);
    // Blocking twice is one block.
    expect((await api(ts.url, `/api/block/${cy.username}`, {}, bearer(bot.token))).status).toBe(200);
    expect((await api(ts.url, '/api/block', undefined, bearer(bot.token))).body.blocks).toEqual([{ username: cy.username, createdAt: expect.any(Number) }]);
    expect((await cy.call('/api/block')).body.blocks).toEqual([]);
    expect((await api(ts.url, `/api/challenge/${bot.username}`, {}, { cookie: cy.cookie, origin: ts.url })).status).toBe(403);
    expect((await cy.call(`/api/block/${cy.username}`, {})).status).toBe(400);
    expect((await cy.call('/api/block/nobody_at_all', {})).status).toBe(404);
    expect((await api(ts.url, `/api/block/${bot.username}`, {})).status).toBe(401);
    // A session's change needs the page's Origin (no cross-site blocking).
    expect((await api(ts.url, `/api/block/${bot.username}`, {}, { cookie: cy.cookie })).status).toBe(403);
    const del = await fetch(`${ts.url}/api/block/${cy.username}`, { method: 'DELETE', headers: bearer(bot.token) });
    expect(del.status).toBe(204);
    expect((await api(ts.url, '/api/block', undefined, bearer(bot.token))).body.blocks).toEqual([]);
  });
  it("a blocked player cannot join an open match the other holds (so they never share a chat); unblocked, they can", async () => {
    const [annAt, benAt] = [from(), from()];
    const ann = await signUp(ts.url, `dee_${backend}`, undefined, annAt);
    const ben = await signUp(ts.url, `eli_${backend}`, undefined, benAt);
    const made = await ann.call('/games/watergate/create', { numPlayers: 2 }, annAt);
    expect(made.status).toBe(200);
    const matchID = made.body.matchID as string;
    expect((await ann.call(`/games/watergate/${matchID}/join`, { playerID: '0' }, annAt)).status).toBe(200);
    expect((await ann.call(`/api/block/${ben.username}`, {}, annAt)).status).toBe(200);
    const refused = await ben.call(`/games/watergate/${matchID}/join`, { playerID: '1' }, benAt);
    expect(refused.status).toBe(403);
    // The refusal does not say who blocked whom.
    expect(JSON.stringify(refused.body)).not.toMatch(/block/i);
    const del = await fetch(`${ts.url}/api/block/${ben.username}`, { method: 'DELETE', headers: { cookie: ann.cookie, origin: ts.url, ...annAt } });
    expect(del.status).toBe(204);
    expect((await ben.call(`/games/watergate/${matchID}/join`, { playerID: '1' }, benAt)).status).toBe(200);
  });
});
