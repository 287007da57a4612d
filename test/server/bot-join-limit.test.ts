/**
 * Seats taken with a bot API token are counted per token (LIMITS.botJoin, docs/SECURITY.md "Limits"),
 * over real HTTP: past the token's limit the Lobby's join route answers 429 with Retry-After and the seat
 * stays free, while another bot's token and a guest from the same address still sit down — the limit is
 * the token's, not the address's (whose `join` limit is raised out of the way here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from './helpers';
import { bearer, botAccount } from './challenge-helpers';

describe('seats taken with a bot token are limited per token', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer('embedded', { limits: { botJoin: { points: 3, seconds: 600 } } });
  }, 60_000);
  afterAll(() => ts?.stop());

  const create = async () => {
    const r = await api(ts.url, '/games/watergate/create', { numPlayers: 2 });
    expect(r.status).toBe(200);
    return r.body.matchID as string;
  };
  const join = (matchID: string, headers: Record<string, string> = {}, body: Record<string, unknown> = { playerID: '1' }) => api(ts.url, `/games/watergate/${matchID}/join`, body, headers);

  it('the token\'s fourth join in the window is a 429 with Retry-After; the seat stays free; other tokens and guests sit down', async () => {
    const a = await botAccount(ts.url, 'joiner_a');
    const b = await botAccount(ts.url, 'joiner_b');
    for (let i = 0; i < 3; i++) expect((await join(await create(), bearer(a.token))).status).toBe(200);
    const matchID = await create();
    const over = await join(matchID, bearer(a.token));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.stringify(over.body)).toMatch(/seats taken with this token/);
    // Nobody sat down: the match's seat 1 is still free.
    const match = await api(ts.url, `/games/watergate/${matchID}`);
    expect(match.body.players.find((p: { id: number }) => p.id === 1).name).toBeUndefined();
    // Another bot's token from the same address, and a guest, take seats.
    expect((await join(matchID, bearer(b.token))).status).toBe(200);
    expect((await join(matchID, {}, { playerID: '0', playerName: 'Guest' })).status).toBe(200);
  });
});
