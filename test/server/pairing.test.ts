/**
 * Quick pairing ("Play now"): two compatible players are paired into one match with both seated (sides as
 * asked, rated when asked, their seats their accounts'); incompatible asks wait; the rating window decides
 * and widens with the wait; a ticket nobody polls is paired no more; bodies are checked; and with two
 * server processes on PostgreSQL polling the same tickets at once, no ticket is ever paired twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowAfter, PAIRING } from '../../server/accounts/pairing';
import type { Ticket } from '../../server/storage/accounts';
import { api, player, postgresAvailable, startTestServer, until, type TestServer } from './helpers';
import { logIn, signUp, twoProcesses } from './account-helpers';

const hasPg = await postgresAvailable();

/** Each player from an address of its own (behind the trusted proxy): two accounts from one address are never paired. */
let lastAddress = 10;
const from = () => ({ 'x-forwarded-for': `198.51.100.${lastAddress++}` });

describe('pairing on one process', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { trustProxy: true });
  });
  afterAll(() => t.stop());

  it('pairs two signed-in players asking for opposite sides (or either) into one rated match, both seated', async () => {
    const [annAt, bobAt] = [from(), from()];
    const ann = await signUp(t.url, 'PairAnn', undefined, annAt);
    const bob = await signUp(t.url, 'PairBob', undefined, bobAt);
    const first = await ann.call('/pair', { side: '0', clock: 'none', rated: true }, annAt);
    expect(first.body).toMatchObject({ status: 'waiting', suggestedLevel: 'normal' });
    expect(first.body.ticket).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const second = await bob.call('/pair', { side: 'either', clock: 'none', rated: true }, bobAt);
    expect(second.body).toMatchObject({ status: 'paired', playerID: '1' });
    const polled = await ann.call('/pair/poll', { ticket: first.body.ticket });
    expect(polled.body).toMatchObject({ status: 'paired', playerID: '0', matchID: second.body.matchID });
    const m = (await api(t.url, `/games/watergate/${second.body.matchID}`)).body;
    expect(m).toMatchObject({ rated: true, unlisted: true });
    expect(m.players.map((p: { name: string; account: { username: string } }) => [p.name, p.account.username])).toEqual([['PairAnn', 'PairAnn'], ['PairBob', 'PairBob']]);
    expect((await ann.call('/me/matches')).body.matches).toEqual([expect.objectContaining({ matchID: m.matchID, playerID: '0', playerCredentials: polled.body.playerCredentials })]);
    // The credentials each got open their seats, and the game is on (both seats taken).
    const p = player(t.url, m.matchID, '1', second.body.playerCredentials);
    await until(() => p.state() !== null, 'synced');
    expect(p.state()!.G.prompt).not.toBeNull();
    p.stop();
    // Too late to cancel: the answer says where the match is.
    expect((await ann.call('/pair/cancel', { ticket: first.body.ticket })).body).toMatchObject({ status: 'paired', matchID: m.matchID });
  });

  it('keeps apart the same side twice, other clocks, rated with unrated, one account with itself; guests play unrated', async () => {
    const at = [from(), from(), from()];
    const cy = await signUp(t.url, 'PairCy', undefined, at[0]);
    const dee = await signUp(t.url, 'PairDee', undefined, at[1]);
    const eve = await signUp(t.url, 'PairEve', undefined, at[2]);
    const asks: [typeof cy, object][] = [
      [cy, { side: '1', clock: 'live', rated: true }],
      [cy, { side: '0', clock: 'live', rated: true }], // the same account on the other side
      [dee, { side: '1', clock: 'relaxed', rated: true }], // another clock
      [dee, { side: '0', clock: 'live', rated: false }], // unrated against rated
      [eve, { side: '1', clock: 'relaxed', rated: true }], // the same side as Dee's
    ];
    const where = new Map([cy, dee, eve].map((x, i) => [x, at[i]]));
    for (const [who, body] of asks) expect((await who.call('/pair', body, where.get(who))).body.status, JSON.stringify(body)).toBe('waiting');
    expect((await api(t.url, '/pair', { side: '0', clock: 'live', rated: true, name: 'Guest' }, { origin: t.url })).status).toBe(400);
    const g1 = await api(t.url, '/pair', { side: 'either', clock: 'none', rated: false, name: 'Gus' }, { origin: t.url });
    const g2 = await api(t.url, '/pair', { side: 'either', clock: 'none', rated: false, name: 'Gwen' }, { origin: t.url });
    expect([g1.body.status, g2.body.status]).toEqual(['waiting', 'paired']);
    expect((await api(t.url, `/games/watergate/${g2.body.matchID}`)).body.rated).toBeUndefined();
  });

  it('refuses bad asks with a 400 naming the field, an unknown ticket with a 404', async () => {
    for (const [body, why] of [
      [{ side: 'both', clock: 'none', rated: false, name: 'X' }, /side must be/],
      [{ side: '0', clock: 'blitz', rated: false, name: 'X' }, /clock must be/],
      [{ side: '0', clock: 'none', rated: 'yes', name: 'X' }, /rated must be/],
      [{ side: '0', clock: 'none', rated: false }, /name is required/],
      [{ side: '0', clock: 'none', rated: false, name: 'X', extra: 1 }, /unknown field/],
    ] as [object, RegExp][]) {
      const r = await api(t.url, '/pair', body, { origin: t.url });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatch(why);
    }
    expect((await api(t.url, '/pair/poll', { ticket: 'A'.repeat(32) })).status).toBe(404);
    expect((await api(t.url, '/pair/poll', { ticket: 'short' })).status).toBe(400);
  });

  it('pairs within the rating window only, widening with the wait; a ticket nobody polls is left out', async () => {
    expect(windowAfter(0)).toBe(PAIRING.window);
    expect(windowAfter(20_000)).toBe(PAIRING.window + 20 * PAIRING.widenPerSecond);
    expect(windowAfter(3_600_000)).toBe(PAIRING.maxWindow);
    const a = t.store.accounts;
    const now = Date.now();
    const ticket = (id: string, rating: number, seenAt = now): Ticket => ({ id, accountID: null, name: id, rating, side: 'either', clock: 'none', rated: false, createdAt: now, seenAt, matchID: null, seat: null, credentials: null, mark: null });
    await a.putTicket(ticket('strong', 1800));
    await a.putTicket(ticket('gone', 1500, now - PAIRING.liveMs - 1));
    await a.putTicket(ticket('me', 1500));
    const { pairedMatch } = await import('../../server/accounts/pairing');
    const { Watergate } = await import('../../game/index');
    const make = (x: Ticket, y: Ticket) => pairedMatch(Watergate, x, y);
    expect((await a.pair('me', now, { window: 100, liveMs: PAIRING.liveMs, make }))!.matchID).toBeNull();
    const later = await a.pair('me', now, { window: windowAfter(30_000), liveMs: PAIRING.liveMs, make });
    expect(later!.matchID).not.toBeNull();
    expect((await a.ticket('strong', now))!.matchID).toBe(later!.matchID);
    expect((await a.ticket('gone', now))!.matchID).toBeNull();
  });
});

for (const backend of ['embedded', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`one person, two accounts: never paired by Play now (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend, { trustProxy: true });
    });
    afterAll(() => t.stop());
    const device = (r: { headers: Headers }) => r.headers.getSetCookie().find((c) => c.startsWith('wg_device='));
    const ask = { side: 'either', clock: 'none', rated: true };

    it('two accounts asking from one address wait (each would pair with a stranger), whichever browser', async () => {
      // Signed up from three addresses: the asks are what they share.
      const [a, b, c] = [await signUp(t.url, `SameAddrA${backend[0]}`, undefined, from()), await signUp(t.url, `SameAddrB${backend[0]}`, undefined, from()), await signUp(t.url, `OtherAddrC${backend[0]}`, undefined, from())];
      const here = { 'x-forwarded-for': '203.0.113.7' };
      const first = await a.call('/pair', ask, here);
      expect(first.body.status).toBe('waiting');
      // A new browser (its own device cookie), the same address: still one person as far as pairing goes.
      const second = await b.call('/pair', ask, here);
      expect(second.body.status).toBe('waiting');
      expect((await a.call('/pair/poll', { ticket: first.body.ticket }, here)).body.status).toBe('waiting');
      // A player elsewhere pairs with the first who asked.
      const third = await c.call('/pair', ask, { 'x-forwarded-for': '192.0.2.44' });
      expect(third.body.status).toBe('paired');
      expect((await a.call('/pair/poll', { ticket: first.body.ticket }, here)).body).toMatchObject({ status: 'paired', matchID: third.body.matchID });
      expect((await b.call('/pair/poll', { ticket: second.body.ticket }, here)).body.status).toBe('waiting');
      await b.call('/pair/cancel', { ticket: second.body.ticket }, here);
    });

    it('two accounts asking from one browser (its device cookie) wait even from two addresses; the cookie is HttpOnly and checked', async () => {
      const [a, b] = [await signUp(t.url, `OneDevA${backend[0]}`, undefined, from()), await signUp(t.url, `OneDevB${backend[0]}`, undefined, from())];
      const first = await a.call('/pair', ask, { 'x-forwarded-for': '203.0.113.20' });
      const set = device(first)!;
      expect(set).toMatch(/^wg_device=[A-Za-z0-9_-]{32}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
      const id = set.split(';')[0];
      const second = await b.call('/pair', ask, { 'x-forwarded-for': '203.0.113.21', cookie: `${b.cookie}; ${id}` });
      expect(second.body.status).toBe('waiting');
      expect(device(second)).toBeUndefined(); // its cookie was kept
      // A forged cookie is not a device id: a new one is set.
      const forged = await b.call('/pair', ask, { 'x-forwarded-for': '203.0.113.21', cookie: `${b.cookie}; wg_device=../../etc` });
      expect(device(forged)).toMatch(/^wg_device=[A-Za-z0-9_-]{32};/);
      // Both were seen on the shared device: a ticket from fresh addresses and browsers still waits.
      const again = await b.call('/pair', ask, { 'x-forwarded-for': '203.0.113.99' });
      expect(again.body.status).toBe('waiting');
      expect((await a.call('/pair/poll', { ticket: first.body.ticket })).body.status).toBe('waiting');
    });

    it('two accounts signed in from one address wait, whatever addresses they then ask from', async () => {
      const shared = { 'x-forwarded-for': '203.0.113.50' };
      const a = await signUp(t.url, `SignedA${backend[0]}`, undefined, from());
      const b = await signUp(t.url, `SignedB${backend[0]}`, undefined, from());
      expect((await logIn(t.url, b.username, undefined, shared)).username).toBe(b.username);
      expect((await logIn(t.url, a.username, undefined, shared)).username).toBe(a.username);
      const first = await a.call('/pair', { ...ask, clock: 'relaxed' }, from());
      expect(first.body.status).toBe('waiting');
      expect((await b.call('/pair', { ...ask, clock: 'relaxed' }, from())).body.status).toBe('waiting');
      await a.call('/pair/cancel', { ticket: first.body.ticket });
    });
  });
}

const start = twoProcesses();

describe.skipIf(!hasPg)('pairing with two processes on PostgreSQL', () => {
  it('never pairs one ticket twice while both processes poll every ticket at once', async () => {
    const urls = (await start()).map((p) => p.url);
    const n = 16;
    const asked = await Promise.all(Array.from({ length: n }, (_, i) => api(urls[i % 2], '/pair', { side: 'either', clock: 'none', rated: false, name: `P${i}` }, { origin: urls[i % 2] })));
    const tickets = asked.map((r) => r.body.ticket as string);
    const last = new Map<string, { matchID?: string; playerID?: string }>();
    // Polled in rounds until every ticket has its match (a ticket paired by the other process late in a
    // round sees it in the next one): at least 6 rounds, 30 at most.
    for (let round = 0; round < 30 && (round < 6 || last.size < n); round++) {
      const polls = await Promise.all(tickets.flatMap((ticket) => urls.map((u) => api(u, '/pair/poll', { ticket }).then((r) => [ticket, r.body] as const))));
      const before = new Map(last);
      for (const [ticket, body] of polls) {
        const seen = before.get(ticket) ?? last.get(ticket);
        // Paired in an earlier round, a ticket's answer never changes, whichever process answers; within a
        // round, two concurrent polls may answer before and after the pairing, but never two matches.
        if (seen?.matchID && (before.has(ticket) || body.matchID)) expect(body).toMatchObject({ matchID: seen.matchID, playerID: seen.playerID });
        if (body.matchID) last.set(ticket, { matchID: body.matchID, playerID: body.playerID });
      }
    }
    for (const r of asked) if (r.body.matchID) expect(last.get(r.body.ticket)).toMatchObject({ matchID: r.body.matchID });
    const byMatch = new Map<string, string[]>();
    for (const [ticket, s] of last) byMatch.set(s.matchID!, [...(byMatch.get(s.matchID!) ?? []), `${ticket}:${s.playerID}`]);
    expect(last.size).toBe(n);
    expect([...byMatch.values()].every((pair) => pair.length === 2 && new Set(pair.map((x) => x.split(':')[1])).size === 2)).toBe(true);
    expect(byMatch.size).toBe(n / 2);
    for (const matchID of byMatch.keys()) {
      const names = (await api(urls[0], `/games/watergate/${matchID}`)).body.players.map((p: { name: string }) => p.name);
      expect(names.every((x: string) => /^P\d+$/.test(x))).toBe(true);
    }
  }, 120_000);
});
