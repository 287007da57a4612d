/**
 * Accounts as an attacker tries them, over real HTTP on a real server: the per-username sign-in limit
 * against the same name written another way, password checks behind a session (change password, delete
 * account) counted like sign-ins, one address unable to take the whole password-hashing queue, an
 * account's seat that cannot be renamed to pass for another player, usernames that mix look-alike
 * scripts, one "Play now" ticket per account and asks limited per address, a deleted account leaving
 * nothing of its player in finished matches, seat claims counted as seats taken, one read for a
 * player's list of matches, and a sign-in that
 * ends the session the browser held; a session in use renewed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NAME_REGISTERED } from '../../protocol/accounts';
import { HASHING, PASSWORD_COST } from '../../server/accounts/password';
import { LEADERBOARD_FRESH_MS } from '../../server/accounts/players';
import type { ServerOptions } from '../../server/app';
import { api, apiFrom, player, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';
import { as, logIn, sessionCookie, signUp } from './account-helpers';

const hasPg = await postgresAvailable();

/** A server for the enclosing describe: started before its tests, stopped after them. */
function serverFor(backend: Backend, opts: Partial<ServerOptions> = {}): { readonly t: TestServer } {
  const box = {} as { t: TestServer };
  beforeAll(async () => {
    box.t = await startTestServer(backend, opts);
  });
  afterAll(() => box.t.stop());
  return box;
}

const login = (t: TestServer, username: string, password: string) => api(t.url, '/auth/login', { username, password }, { origin: t.url });

describe('password checks are limited however they are asked for', () => {
  // Per username as shipped; per address high, so that only the per-username limit can refuse.
  const s = serverFor('embedded', { limits: { loginName: { points: 10, seconds: 600 } } });

  it('the same username written with other spaces, case or width counts against one per-username limit', async () => {
    const { t } = s;
    await signUp(t.url, 'Liddy', 'the right one');
    const variants = [' Liddy', 'Liddy ', 'LIDDY', '\tliddy', 'Liddy\u00a0', '\u3000Liddy', 'ｌｉｄｄｙ', '  Liddy  ', 'liDDy\n', '\u2003LIDDY'];
    for (const v of variants) expect((await login(t, v, 'a wrong guess')).status, JSON.stringify(v)).toBe(401);
    const right = await login(t, ' liddy ', 'the right one');
    expect(right.status).toBe(429);
    expect(right.body.error).toMatch(/too many wrong passwords for this username/);
    expect(sessionCookie(right.headers)).toBeNull();
  });

  it("a stolen session cannot guess the account's password through change password or delete account", async () => {
    const { t } = s;
    const owner = await signUp(t.url, 'Magruder', 'the real password');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await owner.call('/auth/password', { password: `guess number ${i}`, newPassword: 'taken over now' })).status);
    for (let i = 0; i < 6; i++) codes.push((await owner.call('/auth/delete', { password: `guess number ${i + 6}` })).status);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(codes.slice(10)).toEqual([429, 429]);
    // Even the right password waits now, from another address too; the account is untouched.
    const late = await apiFrom('127.0.0.2', t.url, '/auth/password', { password: 'the real password', newPassword: 'taken over now' }, { cookie: owner.cookie, origin: t.url });
    expect(late.status).toBe(429);
    expect(Number(late.headers['retry-after'])).toBeGreaterThan(0);
    expect((await owner.call('/auth/me')).status).toBe(200);
  });
});

describe('password checks per address', () => {
  const s = serverFor('embedded', { limits: { login: { points: 20, seconds: 600 } } });

  it('change password and delete account count against the sign-in limit of the address', async () => {
    const { t } = s;
    const a = await signUp(t.url, 'Porter', 'first password');
    const codes: number[] = [];
    for (let i = 0; i < 22; i++) codes.push((await a.call(i % 2 ? '/auth/delete' : '/auth/password', { password: `wrong ${i} wrong`, ...(i % 2 ? {} : { newPassword: 'second password' }) })).status);
    expect(codes.filter((c) => c === 403).length).toBeLessThanOrEqual(20);
    expect(codes.slice(-2)).toEqual([429, 429]);
  });
});

describe('one address and the password-hashing queue', () => {
  // Hashes at the shipped cost: long enough for a burst to find them still running.
  const s = serverFor('embedded', { passwordCost: PASSWORD_COST.default });

  it(`keeps at most ${HASHING.perClient} of its sign-ins hashing or waiting at once; another address is still served`, async () => {
    const { t } = s;
    await signUp(t.url, 'Colson', 'the right one');
    const burst = Array.from({ length: 10 }, (_, i) => login(t, 'Colson', `burst guess ${i}`));
    const other = apiFrom('127.0.0.2', t.url, '/auth/login', { username: 'Colson', password: 'the right one' }, { origin: t.url });
    const answers = await Promise.all(burst);
    const busy = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(HASHING.perClient);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length).toBeGreaterThanOrEqual(10 - HASHING.perClient * 2);
    expect(busy.every((a) => Number(a.headers.get('retry-after')) >= 1 && /busy/.test(a.body.error))).toBe(true);
    expect((await other).status).toBe(200);
    // Once its hashes are done, the address signs in as before.
    expect((await login(t, 'Colson', 'the right one')).status).toBe(200);
  });
});

describe('who a seat shows', () => {
  const s = serverFor('embedded');

  it("an account's seat keeps the account's username: a rename to pass for another player is refused", async () => {
    const { t } = s;
    await signUp(t.url, 'Woodward');
    const mallory = await signUp(t.url, 'Mallory');
    const matchID = (await mallory.call('/games/watergate/create', {})).body.matchID;
    const creds = (await mallory.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials;
    for (const route of ['update', 'rename']) {
      const r = await mallory.call(`/games/watergate/${matchID}/${route}`, { playerID: '0', credentials: creds, newName: 'Woodward' });
      expect(r.status, route).toBe(400);
      expect(r.body.error).toMatch(/newName/);
    }
    expect((await mallory.call(`/games/watergate/${matchID}/update`, { playerID: '0', credentials: creds, newName: 'Mallory' })).status).toBe(200);
    const seat = (await api(t.url, `/games/watergate/${matchID}`)).body.players[0];
    expect([seat.name, seat.account.username]).toEqual(['Mallory', 'Mallory']);
    // A guest's seat is the guest's to rename.
    const g = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Guest' });
    expect((await api(t.url, `/games/watergate/${matchID}/rename`, { playerID: '1', credentials: g.body.playerCredentials, newName: 'Another' })).status).toBe(200);
  });

  it("a guest may not sit, rename a seat or ask for a game under a registered player's name (any case or width); the player signed in does", async () => {
    const { t } = s;
    const ann = await signUp(t.url, 'Sloan');
    const matchID = (await api(t.url, '/games/watergate/create', {})).body.matchID;
    for (const name of ['Sloan', 'sLOAN', 'Ｓｌｏａｎ']) {
      const r = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: name });
      expect(r.status, name).toBe(403);
      expect(r.body.error, name).toBe(NAME_REGISTERED);
      const pair = await api(t.url, '/pair', { side: 'either', clock: 'none', rated: false, name }, { origin: t.url });
      expect(pair.status, name).toBe(403);
    }
    // Nobody sat: the seat is still free, and a name merely like it is a guest's to take.
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[0].name).toBeUndefined();
    const g = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Sloane' });
    expect(g.status).toBe(200);
    for (const route of ['update', 'rename']) {
      const r = await api(t.url, `/games/watergate/${matchID}/${route}`, { playerID: '0', credentials: g.body.playerCredentials, newName: 'SLOAN' });
      expect(r.status, route).toBe(403);
    }
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[0].name).toBe('Sloane');
    // Signed in, the player takes the other seat under the name, and keeps it through a rename to the same.
    const own = await ann.call(`/games/watergate/${matchID}/join`, { playerID: '1' });
    expect(own.status).toBe(200);
    expect((await ann.call(`/games/watergate/${matchID}/rename`, { playerID: '1', credentials: own.body.playerCredentials, newName: 'Sloan' })).status).toBe(200);
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[1]).toMatchObject({ name: 'Sloan', account: { username: 'Sloan' } });
  });

  it('the name checks take wrong types, huge values, extra fields and a flood over HTTP without failing, and the server stays up', async () => {
    const { t } = s;
    await signUp(t.url, 'Felt');
    const matchID = (await api(t.url, '/games/watergate/create', {})).body.matchID;
    const g = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Guest' });
    const creds = g.body.playerCredentials;
    const hostile: unknown[] = [42, null, true, [], ['Felt'], { toString: 'Felt' }, 'x'.repeat(100_000), 'Felt\u0000', '\u202eFelt'];
    for (const bad of hostile) {
      const what = JSON.stringify(bad).slice(0, 30);
      const join = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: bad });
      expect([400, 413], `join ${what}`).toContain(join.status);
      const rename = await api(t.url, `/games/watergate/${matchID}/rename`, { playerID: '0', credentials: creds, newName: bad });
      expect([400, 413], `rename ${what}`).toContain(rename.status);
      const pair = await api(t.url, '/pair', { side: 'either', clock: 'none', rated: false, name: bad }, { origin: t.url });
      expect([400, 413], `pair ${what}`).toContain(pair.status);
    }
    // Extra fields, one of them an own "__proto__" (as a JSON body can carry): refused before any name check.
    for (const extra of ['{"playerID":"1","playerName":"Felt","admin":true}', '{"playerID":"1","playerName":"Felt","__proto__":{"x":1}}']) {
      const r = await api(t.url, `/games/watergate/${matchID}/join`, JSON.parse(extra));
      expect([r.status, r.body.error], extra).toEqual([400, expect.stringMatching(/unknown field/)]);
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    // A flood of the registered name in its variants, at once: each refused with the same words, none sits.
    const flood = await Promise.all(
      Array.from({ length: 150 }, (_, i) => {
        const name = ['Felt', 'FELT', 'ｆｅｌｔ'][i % 3];
        return i % 2 ? api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: name }) : api(t.url, `/games/watergate/${matchID}/rename`, { playerID: '0', credentials: creds, newName: name });
      }),
    );
    for (const r of flood) expect([r.status, r.body.error]).toEqual([403, NAME_REGISTERED]);
    expect((await api(t.url, '/healthz')).status).toBe(200);
    const seats = (await api(t.url, `/games/watergate/${matchID}`)).body.players;
    expect([seats[0].name, seats[1].name]).toEqual(['Guest', undefined]);
    expect((await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Throat' })).status).toBe(200);
  });

  it("a guest's seat claimed by an account takes the account's username with it", async () => {
    const { t } = s;
    const matchID = (await api(t.url, '/games/watergate/create', {})).body.matchID;
    const g = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Bernstein' });
    const claimer = await signUp(t.url, 'Claimant');
    expect((await claimer.call('/me/claim', { seats: [{ matchID, playerID: '0', credentials: g.body.playerCredentials }] })).body).toEqual({ claimed: [matchID] });
    const seat = (await api(t.url, `/games/watergate/${matchID}`)).body.players[0];
    expect([seat.name, seat.account.username]).toEqual(['Claimant', 'Claimant']);
    expect((await claimer.call('/me/matches')).body.matches).toEqual([expect.objectContaining({ matchID, name: 'Claimant' })]);
  });

  it('a username may not mix Latin letters with look-alike Cyrillic, Greek or Armenian ones; one script (or Chinese with Japanese kana) is fine', async () => {
    const { t } = s;
    for (const name of ['Woodwаrd', 'Nіxon', 'Ηaldeman', 'Deаn_2']) {
      const r = await api(t.url, '/auth/signup', { username: name, password: 'long enough' }, { origin: t.url });
      expect(r.status, name).toBe(400);
      expect(r.body.error).toMatch(/username .*script/);
    }
    for (const name of ['Вудворд', 'Ωμέγα', 'さくら桜', '尼克松1972', 'José.M']) {
      const r = await api(t.url, '/auth/signup', { username: name, password: 'long enough' }, { origin: t.url });
      expect(r.status, name).toBe(200);
    }
  });
});

describe('"Play now" tickets', () => {
  const s = serverFor('embedded', { limits: { pair: { points: 4, seconds: 600 } } });

  it('an account waits with one ticket: asking again gives up the first, so it is never paired into two matches', async () => {
    const { t } = s;
    const greedy = await signUp(t.url, 'Greedy');
    const ask = { side: '0', clock: 'none', rated: false };
    const first = await greedy.call('/pair', ask);
    const second = await greedy.call('/pair', ask);
    expect([first.body.status, second.body.status]).toEqual(['waiting', 'waiting']);
    expect((await greedy.call('/pair/poll', { ticket: first.body.ticket })).status).toBe(404);
    const b = await apiFrom('127.0.0.3', t.url, '/pair', { side: '1', clock: 'none', rated: false, name: 'Bea' }, { origin: t.url });
    const c = await apiFrom('127.0.0.4', t.url, '/pair', { side: '1', clock: 'none', rated: false, name: 'Cy' }, { origin: t.url });
    expect([b.body.status, c.body.status]).toEqual(['paired', 'waiting']);
    expect((await greedy.call('/pair/poll', { ticket: second.body.ticket })).body).toMatchObject({ status: 'paired', matchID: b.body.matchID });
  });

  it('asks are limited per address (429 with Retry-After); polls are not', async () => {
    const { t } = s;
    const ask = () => apiFrom('127.0.0.5', t.url, '/pair', { side: 'either', clock: 'relaxed', rated: false, name: 'Spammer' }, { origin: t.url });
    const codes: number[] = [];
    let ticket = '';
    for (let i = 0; i < 6; i++) {
      const r = await ask();
      codes.push(r.status);
      if (r.status === 200) ticket = r.body.ticket;
    }
    expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
    for (let i = 0; i < 6; i++) expect((await apiFrom('127.0.0.5', t.url, '/pair/poll', { ticket }, { origin: t.url })).status).toBe(200);
  });
});

describe('claiming seats', () => {
  const s = serverFor('embedded', { limits: { join: { points: 60, seconds: 600 } } });

  it('each seat a claim asks for counts as a seat taken: guessing claims meet a 429 before they flood the database', async () => {
    const { t } = s;
    const matchID = (await api(t.url, '/games/watergate/create', {})).body.matchID;
    const guesser = await signUp(t.url, 'Guesser');
    const guesses = (n: number) => Array.from({ length: 50 }, (_, i) => ({ matchID, playerID: i % 2 ? '1' : '0', credentials: `guess-${n}-${i}` }));
    expect((await guesser.call('/me/claim', { seats: guesses(1) })).body).toEqual({ claimed: [] });
    const second = await guesser.call('/me/claim', { seats: guesses(2) });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address claims its own seat as before.
    const g = await apiFrom('127.0.0.6', t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Owner' });
    const owner = await signUp(t.url, 'Owner');
    const mine = await apiFrom('127.0.0.6', t.url, '/me/claim', { seats: [{ matchID, playerID: '1', credentials: g.body.playerCredentials }] }, { cookie: owner.cookie, origin: t.url });
    expect(mine.body).toEqual({ claimed: [matchID] });
  });
});

describe('a player of many matches', () => {
  const s = serverFor('embedded');

  /** Storage reads of one match's head so far, as /metrics tells the operator. */
  const headReads = async () => Number(/wg_storage_duration_seconds_count\{op="head"\} (\d+)/.exec((await api(s.t.url, '/metrics')).body)?.[1] ?? 0);

  it("costs one read of the database for the list of the account's matches, not one per match", async () => {
    const { t } = s;
    const busy = await signUp(t.url, 'Ziegler');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const matchID = (await busy.call('/games/watergate/create', {})).body.matchID;
      await busy.call(`/games/watergate/${matchID}/join`, { playerID: i % 2 ? '1' : '0' });
      ids.push(matchID);
    }
    const before = await headReads();
    const mine = (await busy.call('/me/matches')).body.matches as { matchID: string }[];
    expect(mine.map((m) => m.matchID).sort()).toEqual([...ids].sort());
    expect((await headReads()) - before).toBeLessThan(3);
  });
});

describe('a deleted account', () => {
  const s = serverFor('embedded', { bots: { threads: 1 } });

  it('leaves nothing of its player in its finished matches but the words "deleted player"', async () => {
    const { t } = s;
    const gone = await signUp(t.url, 'Segretti', 'dirty tricks 72');
    const vs = (await gone.call('/games/watergate/vs-computer', { botSeat: '1', level: 'easy' })).body;
    const joined = await gone.call(`/games/watergate/${vs.matchID}/join`, { playerID: '0', data: { notify: { webhook: 'https://hooks.example.org/segretti-private' } } });
    const creds = joined.body.playerCredentials;
    const p = player(t.url, vs.matchID, '0', creds);
    await until(() => p.state() !== null, 'synced');
    (p.client.moves as Record<string, () => void>).resign();
    await until(() => p.state()!.ctx.gameover !== undefined, 'over');
    p.stop();
    expect((await gone.call('/auth/delete', { password: 'dirty tricks 72' })).status).toBe(200);
    const head = await t.store.head(vs.matchID);
    expect(head!.metadata.players[0]).toEqual({ id: 0, name: 'deleted player' });
    expect(JSON.stringify(head!.metadata)).not.toMatch(/segretti/i);
    // Its old credentials act for nobody.
    expect((await api(t.url, `/games/watergate/${vs.matchID}/playAgain`, { playerID: '0', credentials: creds })).status).toBe(403);
  });
});

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`sessions (${backend})`, () => {
    const s = serverFor(backend);

    it('signing in again from a browser ends the session it held (one browser, one session)', async () => {
      const { t } = s;
      const first = await signUp(t.url, 'Kalmbach', 'paid in cash');
      const again = await api(t.url, '/auth/login', { username: 'Kalmbach', password: 'paid in cash' }, { origin: t.url, cookie: first.cookie });
      expect(again.status).toBe(200);
      const second = as(t.url, 'Kalmbach', sessionCookie(again.headers)!);
      expect(second.cookie).not.toBe(first.cookie);
      expect((await first.call('/auth/me')).status).toBe(401);
      expect((await second.call('/auth/me')).status).toBe(200);
      // Another browser's session is not this one's to end.
      const elsewhere = await logIn(t.url, 'Kalmbach', 'paid in cash');
      expect((await second.call('/auth/me')).status).toBe(200);
      expect((await elsewhere.call('/auth/me')).status).toBe(200);
    });

    it('a session in use past half its life is renewed for another 30 days; an expired one opens nothing', async () => {
      const { t } = s;
      const fresh = await signUp(t.url, 'Stans', 'finance chair');
      const { id: accountID } = (await t.store.accounts.byKey('stans'))!;
      const DAY = 86_400_000;
      // Sessions as sign-in stores them (by the SHA-256 of the cookie's id), one 25 days old and one over.
      const made = async (expiresAt: number) => {
        const id = randomBytes(32).toString('base64url');
        await t.store.accounts.addSession({ hash: createHash('sha256').update(id).digest('base64url'), accountID, createdAt: Date.now() - 25 * DAY, expiresAt });
        return id;
      };
      const old = await made(Date.now() + 5 * DAY);
      const r = await api(t.url, '/auth/me', undefined, { cookie: `wg_session=${old}` });
      expect(r.status).toBe(200);
      expect(r.headers.getSetCookie()).toEqual([`wg_session=${old}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${30 * 86_400}`]);
      const hash = createHash('sha256').update(old).digest('base64url');
      expect((await t.store.accounts.session(hash, Date.now() + 20 * DAY))?.account.username).toBe('Stans');
      // A session in its first half is not rewritten on every request.
      expect((await fresh.call('/auth/me')).headers.getSetCookie()).toEqual([]);
      const expired = await made(Date.now() - 1000);
      expect((await api(t.url, '/auth/me', undefined, { cookie: `wg_session=${expired}` })).status).toBe(401);
    });
  });
}

describe('profiles and the leaderboard under hostile queries', () => {
  const s = serverFor('embedded', { leaderboardMinGames: 1 });

  it('wrong types, huge values, extra parameters and a flood: refused or empty, never a 500, and the server stays up', async () => {
    const { t } = s;
    await signUp(t.url, 'Steady');
    for (const q of ['role=editor&role=nixon', `role=${'x'.repeat(2_000)}`, 'role=%00', 'role=__proto__'])
      expect((await api(t.url, `/leaderboard?${q}`)).status, q.slice(0, 30)).toBe(400);
    // Past what Node takes in a request's head: refused before any route runs.
    expect([414, 431]).toContain((await api(t.url, `/leaderboard?role=${'x'.repeat(100_000)}`)).status);
    const extra = await api(t.url, '/leaderboard?role=editor&role[]=nixon&limit=999999&__proto__[x]=1&constructor=1');
    expect(extra.status).toBe(200);
    expect(extra.body.players.length).toBeLessThanOrEqual(100);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    for (const name of ['x'.repeat(100_000), '%00', '__proto__', 'constructor', '%F0%9F%98%80'.repeat(50)]) {
      const r = await api(t.url, `/players/${name}`);
      expect([404, 414, 431], name.slice(0, 20)).toContain(r.status);
    }
    const flood = await Promise.all(Array.from({ length: 150 }, (_, i) => api(t.url, i % 2 ? '/leaderboard?role=combined' : '/players/Steady')));
    expect(flood.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const me = (await api(t.url, '/players/steady')).body;
    expect(me.ratings.editor).toEqual({ rating: 1500, rd: 350, games: 0, provisional: true });
    expect((await api(t.url, '/healthz')).status).toBe(200);
  });

  it('a flood of leaderboard requests reads the ratings once per side, and a board is never older than LEADERBOARD_FRESH_MS', async () => {
    const { t } = s;
    const accounts = t.store.accounts;
    const read = accounts.leaderboard.bind(accounts);
    const reads: string[] = [];
    let fail = false;
    accounts.leaderboard = async (side, minGames, limit) => {
      reads.push(side);
      if (fail) throw new Error('the database is away');
      await new Promise((r) => setTimeout(r, 50)); // a slow read: requests meanwhile wait for it
      return read(side, minGames, limit);
    };
    // The clock moved past what the test before may have left kept (and held there: only Date is faked).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + LEADERBOARD_FRESH_MS + 1_000 });
    try {
      // From many addresses, so the per-address limit lets every request through.
      const roles = ['combined', 'editor', 'nixon'];
      const flood = await Promise.all(Array.from({ length: 90 }, (_, i) => apiFrom(`127.9.${i}.1`, t.url, `/leaderboard?role=${roles[i % 3]}`)));
      expect(flood.map((r) => r.status)).toEqual(flood.map(() => 200));
      expect(reads.sort()).toEqual(['0', '1', 'combined']);
      for (const role of roles) expect(new Set(flood.filter((_, i) => roles[i % 3] === role).map((r) => JSON.stringify(r.body))).size).toBe(1);
      // Once the board is that old, the next request reads the ratings again.
      vi.setSystemTime(Date.now() + LEADERBOARD_FRESH_MS - 1_000);
      expect((await api(t.url, '/leaderboard?role=editor')).status).toBe(200);
      expect(reads.filter((x) => x === '0')).toHaveLength(1);
      vi.setSystemTime(Date.now() + 1_000);
      expect((await api(t.url, '/leaderboard?role=editor')).status).toBe(200);
      expect(reads.filter((x) => x === '0')).toHaveLength(2);
      // A failed read is not kept: the next request reads again.
      vi.setSystemTime(Date.now() + LEADERBOARD_FRESH_MS + 1_000);
      fail = true;
      expect((await api(t.url, '/leaderboard?role=nixon')).status).toBeGreaterThanOrEqual(500);
      fail = false;
      const again = await api(t.url, '/leaderboard?role=nixon');
      expect(again.status).toBe(200);
      expect(again.body.players).toEqual(flood[2].body.players);
      expect(reads.filter((x) => x === '1')).toHaveLength(3);
    } finally {
      vi.useRealTimers();
      accounts.leaderboard = read;
    }
  });
});
