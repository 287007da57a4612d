/**
 * Accounts over HTTP on a real server (embedded and PostgreSQL): sign-up, the session cookie and what
 * it opens, one answer for an unknown name and a wrong password (and about one time), sign-out here and
 * everywhere, a new password ending the other sessions, CSRF (a signed-in change without Origin, or from
 * a foreign one), deleting an account, and bodies checked field by field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_COST } from '../../server/accounts/password';
import { GUESS_WAIT, LIMITS } from '../../server/limits';
import { api, apiFrom, postgresAvailable, startTestServer, TEST_PASSWORD_COST, type Backend, type TestServer } from './helpers';
import { as, logIn, sessionCookie, signUp } from './account-helpers';

const hasPg = await postgresAvailable();

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`accounts (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend);
    });
    afterAll(() => t.stop());

    it('sign-up answers the username with an HttpOnly, SameSite=Lax session cookie that opens /auth/me', async () => {
      const r = await api(t.url, '/auth/signup', { username: 'Woodward', password: 'deep throat 1972' }, { origin: t.url });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ username: 'Woodward' });
      const set = r.headers.getSetCookie().find((c) => c.startsWith('wg_session='))!;
      expect(set).toMatch(/; HttpOnly/);
      expect(set).toMatch(/; SameSite=Lax/);
      expect(set).not.toMatch(/Secure/); // plain http here: PUBLIC_URL is not https
      const me = await api(t.url, '/auth/me', undefined, { cookie: sessionCookie(r.headers)! });
      expect(me).toMatchObject({ status: 200, body: { username: 'Woodward', hasPassword: true, passkeys: 0, webhook: null } });
      expect((await api(t.url, '/auth/me')).status).toBe(401);
      expect((await api(t.url, '/auth/me', undefined, { cookie: 'wg_session=' + 'A'.repeat(43) })).status).toBe(401);
    });

    it('a taken name is a 409, whatever its case or width', async () => {
      await signUp(t.url, 'Bernstein');
      for (const name of ['Bernstein', 'bernstein', 'ＢＥＲＮＳＴＥＩＮ']) {
        const r = await api(t.url, '/auth/signup', { username: name, password: 'another password' }, { origin: t.url });
        expect(r.status, name).toBe(409);
      }
    });

    it('an unknown name and a wrong password get the same 401, in about the same time; the right one signs in', async () => {
      // At the shipped cost, where a hash takes far longer than an answer without one.
      const shipped = await startTestServer(backend, { passwordCost: PASSWORD_COST.default });
      try {
        await signUp(shipped.url, 'Sirica', 'maximum john');
        const wrong = await api(shipped.url, '/auth/login', { username: 'Sirica', password: 'minimum john' }, { origin: shipped.url });
        const unknown = await api(shipped.url, '/auth/login', { username: 'Nobody', password: 'minimum john' }, { origin: shipped.url });
        expect(wrong.status).toBe(401);
        expect(unknown.status).toBe(401);
        expect(unknown.body).toEqual(wrong.body);
        expect(sessionCookie(wrong.headers)).toBeNull();
        // Both pay for a hash: the unknown name is not answered at once (medians of interleaved tries).
        const time = async (username: string) => {
          const t0 = performance.now();
          await api(shipped.url, '/auth/login', { username, password: 'minimum john' }, { origin: shipped.url });
          return performance.now() - t0;
        };
        const [w, u]: number[][] = [[], []];
        for (let i = 0; i < 5; i++) (w.push(await time('Sirica')), u.push(await time('Nobody')));
        const median = (xs: number[]) => xs.sort((a, b) => a - b)[2];
        expect(median(u) / median(w)).toBeGreaterThan(0.4);
        expect(median(u) / median(w)).toBeLessThan(2.5);
        const ok = await api(shipped.url, '/auth/login', { username: 'sirica', password: 'maximum john' }, { origin: shipped.url });
        expect(ok).toMatchObject({ status: 200, body: { username: 'Sirica' } });
        // The hash stored was made at that cost; the other servers of this file make theirs at the tests' cost.
        expect((await shipped.store.accounts.byKey('sirica'))?.password?.split('$').slice(0, 4)).toEqual(['scrypt', String(2 ** PASSWORD_COST.default), '8', '3']);
      } finally {
        await shipped.stop();
      }
    });

    it('a server hashes new passwords at its own cost (PASSWORD_COST)', async () => {
      await signUp(t.url, 'Sirica', 'maximum john');
      expect((await t.store.accounts.byKey('sirica'))?.password?.split('$').slice(0, 2)).toEqual(['scrypt', String(2 ** TEST_PASSWORD_COST)]);
    });

    it('sign-out ends this session; sign-out everywhere ends every one', async () => {
      const a = await signUp(t.url, 'Haldeman');
      const b = await logIn(t.url, 'Haldeman');
      const c = await logIn(t.url, 'Haldeman');
      expect((await a.call('/auth/logout', {})).status).toBe(200);
      expect((await a.call('/auth/me')).status).toBe(401);
      expect((await b.call('/auth/me')).status).toBe(200);
      expect((await b.call('/auth/logout-all', {})).status).toBe(200);
      expect((await b.call('/auth/me')).status).toBe(401);
      expect((await c.call('/auth/me')).status).toBe(401);
    });

    it('a new password needs the current one and ends every other session', async () => {
      const a = await signUp(t.url, 'Ehrlichman', 'first password');
      const other = await logIn(t.url, 'Ehrlichman', 'first password');
      expect((await a.call('/auth/password', { password: 'not it at all', newPassword: 'second password' })).status).toBe(403);
      expect((await a.call('/auth/password', { password: 'first password', newPassword: 'short' })).status).toBe(400);
      expect((await a.call('/auth/password', { password: 'first password', newPassword: 'second password' })).status).toBe(200);
      expect((await a.call('/auth/me')).status).toBe(200);
      expect((await other.call('/auth/me')).status).toBe(401);
      expect((await api(t.url, '/auth/login', { username: 'Ehrlichman', password: 'first password' }, { origin: t.url })).status).toBe(401);
      await logIn(t.url, 'Ehrlichman', 'second password');
    });

    it('a signed-in change without Origin, or from a foreign one, is refused (CSRF) and changes nothing', async () => {
      const a = await signUp(t.url, 'Dean');
      const bare = await api(t.url, '/auth/logout-all', {}, { cookie: a.cookie });
      expect(bare.status).toBe(403);
      const foreign = await api(t.url, '/auth/logout-all', {}, { cookie: a.cookie, origin: 'http://evil.example' });
      expect(foreign.status).toBe(403);
      const create = await api(t.url, '/games/watergate/create', { numPlayers: 2 }, { cookie: a.cookie });
      expect(create.status).toBe(403);
      expect((await a.call('/auth/me')).status).toBe(200);
      // A read needs no Origin; a change from the page's own origin passes.
      expect((await api(t.url, '/auth/me', undefined, { cookie: a.cookie })).status).toBe(200);
      expect((await a.call('/games/watergate/create', { numPlayers: 2 })).status).toBe(200);
    });

    it('deleting an account needs its password; afterwards it signs in no more and its name is free', async () => {
      const a = await signUp(t.url, 'Mitchell', 'martha says hi');
      expect((await a.call('/auth/delete', { password: 'wrong one here' })).status).toBe(403);
      expect((await a.call('/auth/delete', { password: 'martha says hi' })).status).toBe(200);
      expect((await a.call('/auth/me')).status).toBe(401);
      expect((await api(t.url, '/auth/login', { username: 'Mitchell', password: 'martha says hi' }, { origin: t.url })).status).toBe(401);
      await signUp(t.url, 'Mitchell', 'a new person here');
    });

    it('bodies are checked field by field (400 naming the field)', async () => {
      const bad: [unknown, RegExp][] = [
        [{ username: 'ab', password: 'long enough' }, /username must be 3 to 24/],
        [{ username: 'has space', password: 'long enough' }, /username must be/],
        [{ username: 'Computer', password: 'long enough' }, /username is the computer's name/],
        [{ username: 'okname', password: 'short' }, /password must be 8 to 200/],
        [{ username: 'okname', password: 'x'.repeat(201) }, /password must be 8 to 200/],
        [{ username: 'okname', password: 'long enough', admin: true }, /unknown field "admin"/],
        [{ username: 42, password: 'long enough' }, /username is required/],
        ['[1,2]', /JSON object/],
      ];
      for (const [body, why] of bad) {
        const r = await api(t.url, '/auth/signup', body, { origin: t.url });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error).toMatch(why);
      }
      expect((await api(t.url, '/auth/login', { username: ['x'], password: 'long enough' }, { origin: t.url })).status).toBe(400);
      expect((await api(t.url, '/auth/login', { username: 'x', password: 'y'.repeat(300) }, { origin: t.url })).status).toBe(400);
    });
  });
}

describe('behind https (PUBLIC_URL)', () => {
  it('the session cookie is Secure, under the __Host- prefix, and opens /auth/me', async () => {
    const t = await startTestServer('embedded', { publicUrl: 'https://play.example' });
    try {
      const r = await api(t.url, '/auth/signup', { username: 'Secure1', password: 'over tls only' }, { origin: 'https://play.example' });
      expect(r.status).toBe(200);
      const set = r.headers.getSetCookie()[0];
      expect(set).toMatch(/^__Host-wg_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
      expect((await api(t.url, '/auth/me', undefined, { cookie: sessionCookie(r.headers)! })).body.username).toBe('Secure1');
      // The plain-http name is not read there.
      expect((await api(t.url, '/auth/me', undefined, { cookie: sessionCookie(r.headers)!.replace('__Host-', '') })).status).toBe(401);
    } finally {
      await t.stop();
    }
  });
});

describe('sign-in limits as shipped', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { limits: { login: LIMITS.login, loginGuess: LIMITS.loginGuess, loginName: LIMITS.loginName } });
  });
  afterAll(() => t.stop());

  it('wrong passwords from one address slow that address down, doubling each time; the owner elsewhere signs in; other names still sign in', async () => {
    await signUp(t.url, 'Liddy', 'the right one');
    await signUp(t.url, 'Hunt', 'another right one');
    const guess = () => api(t.url, '/auth/login', { username: 'Liddy', password: 'a wrong guess' }, { origin: t.url });
    const free = LIMITS.loginGuess.points;
    const codes: number[] = [];
    for (let i = 0; i <= free; i++) codes.push((await guess()).status);
    expect(codes).toEqual(Array(free + 1).fill(401));
    // Past the free ones, a wait: the right password too, from this address.
    const right = await api(t.url, '/auth/login', { username: 'Liddy', password: 'the right one' }, { origin: t.url });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBe(GUESS_WAIT.firstSeconds);
    expect(right.body.error).toMatch(/too many wrong passwords for this username from your address/);
    expect(sessionCookie(right.headers)).toBeNull();
    // The owner, at another address, is not locked out by them.
    expect((await apiFrom('127.0.0.2', t.url, '/auth/login', { username: 'Liddy', password: 'the right one' }, { origin: t.url })).status).toBe(200);
    // After the wait, one more wrong guess: the next wait is twice as long.
    await new Promise((r) => setTimeout(r, GUESS_WAIT.firstSeconds * 1000 + 100));
    expect((await guess()).status).toBe(401);
    const slower = await guess();
    expect(slower.status).toBe(429);
    expect(Number(slower.headers.get('retry-after'))).toBe(GUESS_WAIT.firstSeconds * 2);
    expect((await api(t.url, '/auth/login', { username: 'Hunt', password: 'another right one' }, { origin: t.url })).status).toBe(200);
  });

  it('many names from one address meet the per-address limit', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await api(t.url, '/auth/login', { username: `spray${i}`, password: 'a guess here' }, { origin: t.url })).status);
    expect(codes).toContain(429);
    expect(as(t.url, 'x', 'y').username).toBe('x');
  });
});
