/**
 * One person, two accounts (docs/RATINGS.md): accounts seen on one address or one device (accounts/seen.ts)
 * never get a rated game out of each other. Over real HTTP and sockets behind a trusted proxy, on both
 * storages: a rated challenge by name and a rated lobby join between them are refused (409, saying why)
 * while a casual one is not; a rated game whose players become seen together before it ends is recorded
 * unrated with the reason 'seen-together' (the one rule, read in the write that ends the game); two
 * accounts from different addresses and browsers still play rated; bot accounts among themselves are exempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, signUp, type Signed } from './account-helpers';
import { botAccount } from './challenge-helpers';
import { SEEN_TOGETHER, unratedBecause, type FinishedMatch } from '../../server/ratings/rules';
import { api, decideThenResign, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';

const hasPg = await postgresAvailable();

describe('the rule (ratings/rules.ts)', () => {
  const seat = (id: string, bot = false) => ({ name: id, account: { id, username: id, ...(bot ? { bot } : {}) }, bot: null, decisions: 3 });
  const game = (bots: boolean, seenTogether: boolean): FinishedMatch => ({ matchID: 'm', rated: true, winner: '0', reason: 'resigned', seats: { '0': seat('a', bots), '1': seat('b', bots) }, moves: 9, startedAt: 1, finishedAt: 2, pairRated: 0, seenTogether });
  it('two human accounts seen together: unrated, seen-together; two bot accounts seen together: rated; the pair limit is said first', () => {
    expect(unratedBecause(game(false, true))).toBe('seen-together');
    expect(unratedBecause(game(false, false))).toBeNull();
    expect(unratedBecause(game(true, true))).toBeNull();
    expect(unratedBecause({ ...game(false, true), pairRated: 3 })).toBe('pair-limit');
    expect(SEEN_TOGETHER.windowMs).toBe(30 * 24 * 3600 * 1000);
  });
});
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const deviceOf = (r: { headers: Headers }) => r.headers.getSetCookie().find((c) => c.startsWith('wg_device='))?.split(';')[0];

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`accounts seen together are not rated against each other (${backend})`, () => {
    let t: TestServer;
    let n = 0;
    beforeAll(async () => {
      t = await startTestServer(backend, { trustProxy: true });
    });
    afterAll(async () => t?.stop());

    /** A rated lobby match `a` made and sat in as the Editor; `b`'s join answer. */
    const ratedJoin = async (a: Signed, b: Signed) => {
      const matchID = (await a.call('/games/watergate/create', { rated: true })).body.matchID as string;
      const editor = await a.call(`/games/watergate/${matchID}/join`, { playerID: '0' });
      expect(editor.status).toBe(200);
      const nixon = await b.call(`/games/watergate/${matchID}/join`, { playerID: '1' });
      return { matchID, creds: { '0': editor.body.playerCredentials as string, '1': nixon.body.playerCredentials as string }, nixon };
    };
    /** One decision each, then Nixon resigns. */
    const playOut = (matchID: string, creds: Record<'0' | '1', string>) => decideThenResign(t.url, matchID, creds, 1);
    /** The player's latest recorded game, once `matchID`'s is recorded (the record is written with the game's end). */
    const recorded = async (username: string, matchID: string) => {
      let g: { matchID: string; rated: boolean; unratedReason: string | null } | undefined;
      await until(async () => (g = (await api(t.url, `/players/${username}`)).body.matches?.[0])?.matchID === matchID, 'recorded');
      return g!;
    };

    it('a rated challenge to an account signed up from the same address is refused saying why; a casual one is sent', async () => {
      const a = await signUp(t.url, `Haldeman${++n}`, undefined, from('203.0.113.10'));
      const b = await signUp(t.url, `Ehrlichman${n}`, undefined, from('203.0.113.10'));
      const rated = await a.call(`/api/challenge/${b.username}`, { rated: true });
      expect(rated.status).toBe(409);
      expect(rated.body.error).toMatch(/^seen-together: /);
      expect((await a.call(`/api/challenge/${b.username}`, { rated: false })).status).toBe(200);
    });

    it('one browser (its device cookie) makes two accounts one person even from two addresses: challenge and lobby join refused', async () => {
      const first = await api(t.url, '/auth/signup', { username: `Segretti${++n}`, password: 'correct horse battery' }, { origin: t.url, ...from('198.51.100.1') });
      const device = deviceOf(first)!;
      expect(device).toMatch(/^wg_device=/);
      const a = await logIn(t.url, first.body.username ?? `Segretti${n}`, undefined, { ...from('198.51.100.1'), cookie: device });
      const b = await signUp(t.url, `Chapin${n}`, undefined, { ...from('198.51.100.99'), cookie: device });
      expect((await b.call(`/api/challenge/${a.username}`, { rated: true })).status).toBe(409);
      const { nixon } = await ratedJoin(a, b);
      expect(nixon.status).toBe(409);
      expect(nixon.body.error).toMatch(/^seen-together: /);
    });

    it('two accounts from different addresses and browsers play rated; once seen together, their next game ends unrated (seen-together)', async () => {
      const c = await signUp(t.url, `Dean${++n}`, undefined, from('192.0.2.30'));
      const d = await signUp(t.url, `Magruder${n}`, undefined, from('192.0.2.31'));
      expect((await c.call(`/api/challenge/${d.username}`, { rated: true })).status).toBe(200);
      const first = await ratedJoin(c, d);
      expect(first.nixon.status).toBe(200);
      await playOut(first.matchID, first.creds);
      expect(await recorded(d.username, first.matchID)).toMatchObject({ rated: true, unratedReason: null });

      // Both seated in a new rated match; then Magruder signs in from Dean's address before the game ends.
      const second = await ratedJoin(c, d);
      expect(second.nixon.status).toBe(200);
      await logIn(t.url, d.username, undefined, from('192.0.2.30'));
      const before = (await api(t.url, `/players/${d.username}`)).body.ratings.nixon;
      await playOut(second.matchID, second.creds);
      expect(await recorded(d.username, second.matchID)).toMatchObject({ rated: false, unratedReason: 'seen-together' });
      const after = (await api(t.url, `/players/${d.username}`)).body.ratings.nixon;
      expect([after.rating, after.games]).toEqual([before.rating, before.games]); // no rating moved (its deviation only widens with time)
      // And from now on a rated challenge between them is refused.
      expect((await d.call(`/api/challenge/${c.username}`, { rated: true })).status).toBe(409);
    });

    it("the account's data export lists where it was seen: kinds, hashes and dates, never the address in clear", async () => {
      const a = await signUp(t.url, `Mitchell${++n}`, undefined, from('203.0.113.200'));
      const r = await a.call('/me/data');
      expect(r.status).toBe(200);
      expect(r.body.seen).toEqual(
        expect.arrayContaining([
          { kind: 'address', hash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), seenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
          { kind: 'device', hash: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), seenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
        ]),
      );
      expect(JSON.stringify(r.body)).not.toContain('203.0.113.200');
      expect(r.body.passkeys).toEqual([]);
    });

    it('bot accounts run from one machine may still challenge each other rated (bots are rated only among bots)', async () => {
      const x = await botAccount(t.url, `SimBot${++n}`);
      const y = await botAccount(t.url, `SimBot${n}b`);
      // Both send a rated challenge from one address: both are seen there, and neither is refused.
      const ask = (who: { token: string }, to: string) => api(t.url, `/api/challenge/${to}`, { rated: true }, { authorization: `Bearer ${who.token}`, ...from('203.0.113.77') });
      expect((await ask(y, x.username)).status).toBe(200);
      expect((await ask(x, y.username)).status).toBe(200);
    });
  });
}
