/**
 * Sign-in under load and under a spread-out guesser, over real HTTP from several loopback addresses:
 * password hashing is shared between addresses in turn, so a flood from one address
 * does not make another's sign-in wait behind all of its hashes; past the hashing queue the answer is
 * 503 "busy", logged as load and not as the storage being down; the per-username ceiling counts wrong
 * passwords from every address together.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { HASHING, PASSWORD_COST } from '../../server/accounts/password';
import { LIMITS } from '../../server/limits';
import { apiFrom, startTestServer, type TestServer } from './helpers';
import { signUp } from './account-helpers';

describe('password hashing shared between addresses', () => {
  let t: TestServer;
  // Hashes long enough for a flood to queue behind them (a fraction of the shipped cost's time).
  beforeAll(async () => {
    t = await startTestServer('embedded', { passwordCost: PASSWORD_COST.default - 2 });
  });
  afterAll(() => t.stop());

  it("a flood of sign-ins from one address does not make another address's sign-in wait behind all of it", async () => {
    // At the shipped cost: a hash takes far longer than the requests take to arrive.
    const t = await startTestServer('embedded', { passwordCost: PASSWORD_COST.default });
    onTestFinished(() => t.stop());
    await signUp(t.url, 'Segretti', 'dirty tricks');
    const done: string[] = [];
    const login = (from: string, password: string, tag: string) =>
      apiFrom(from, t.url, '/auth/login', { username: 'Segretti', password }, { origin: t.url }).then((r) => (done.push(tag), r));
    const n = 8;
    expect(HASHING.perClient).toBeGreaterThanOrEqual(n);
    const flood = Array.from({ length: n }, (_, i) => login('127.0.0.2', `flood guess ${i}`, `a${i}`));
    // The flood is in the queue before the other address asks.
    await new Promise((r) => setTimeout(r, 50));
    const other = await login('127.0.0.3', 'dirty tricks', 'b');
    expect(other.status).toBe(200);
    const answers = await Promise.all(flood);
    // Every one of the flood was checked (none refused), and the other address was not served last:
    // it waited for at most one of the flood's hashes per turn, not for all of them.
    expect(answers.map((a) => a.status)).toEqual(Array(n).fill(401));
    expect(done.indexOf('b')).toBeLessThanOrEqual(HASHING.concurrent + 2);
    expect(done.length - 1 - done.indexOf('b')).toBeGreaterThanOrEqual(n - HASHING.concurrent - 2);
  });

  it('past the hashing queue sign-ins are answered 503 "busy" with Retry-After, logged as load, not as storage unavailable', async () => {
    await signUp(t.url, 'Chapin', 'appointments');
    // More addresses than the queue holds, each with as many sign-ins as it may have in flight.
    const addresses = Array.from({ length: Math.ceil((HASHING.queue + HASHING.concurrent) / HASHING.perClient) + 3 }, (_, i) => `127.0.1.${i + 1}`);
    const answers = await Promise.all(addresses.flatMap((a) => Array.from({ length: HASHING.perClient }, (_, i) => apiFrom(a, t.url, '/auth/login', { username: 'Chapin', password: `guess ${i} ${a}` }, { origin: t.url }))));
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(HASHING.queue);
    for (const b of busy) {
      expect(b.body.error).toMatch(/busy checking passwords/);
      expect(Number(b.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    const refusals = t.logs.filter((l) => l.includes('request refused:'));
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((l) => l.includes('server busy') && !l.includes('storage unavailable'))).toBe(true);
  });
});

describe('the per-username ceiling', () => {
  let t: TestServer;
  // A low ceiling here (the shipped one is LIMITS.loginName), the per-address slowdown as shipped.
  beforeAll(async () => {
    t = await startTestServer('embedded', { limits: { loginGuess: LIMITS.loginGuess, loginName: { points: 6, seconds: 600 } } });
  });
  afterAll(() => t.stop());

  it('counts wrong passwords from every address together: past it, every address waits for that username', async () => {
    await signUp(t.url, 'Kleindienst', 'deputy attorney');
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4'])
      for (let i = 0; i < 2; i++) expect((await apiFrom(from, t.url, '/auth/login', { username: 'Kleindienst', password: `guess ${i}` }, { origin: t.url })).status).toBe(401);
    const late = await apiFrom('127.0.0.5', t.url, '/auth/login', { username: 'Kleindienst', password: 'deputy attorney' }, { origin: t.url });
    expect(late.status).toBe(429);
    expect(late.body.error).toMatch(/too many wrong passwords for this username:/);
    expect(Number(late.headers['retry-after'])).toBeGreaterThan(0);
  });
});
