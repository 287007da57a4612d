/**
 * Passkeys and seats the owner controls, over real HTTP and sockets on both storages:
 * a session alone (a stolen one) adds no passkey without the password or a sign-in in the last 5
 * minutes; the owner names, lists and removes passkeys, and a password change may remove them all; "sign
 * out everywhere" ends every session and gives every seat the account holds in a game in play new
 * credentials, so a socket or a request with the old ones moves and chats no more. Look-alike usernames
 * (Unicode's confusable skeletons) are refused at sign-up; tables from before get their new columns and
 * keys on opening.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import { PASSKEY_NEEDS_PASSWORD, USERNAME_LOOKALIKE } from '../../protocol/accounts';
import type { GuardError } from '../../protocol/index';
import { openStore } from '../../server/storage/index';
import type { MatchStore } from '../../server/storage/types';
import { api, dropSchema, next, PG_URL, play, player, postgresAvailable, rawSocket, startTestServer, stored, uniqueSchema, until, type Backend, type TestServer } from './helpers';
import { as, logIn, sessionCookie, signUp, type Signed } from './account-helpers';
import { softPasskey, type SoftPasskey } from './authenticator';

const hasPg = await postgresAvailable();

/** A session of the account signed in `ageMs` ago (as a cookie stolen from an old sign-in would be). */
async function oldSession(t: TestServer, username: string, ageMs: number): Promise<Signed> {
  const { id: accountID } = (await t.store.accounts.byKey(username.toLowerCase()))!;
  const id = randomBytes(32).toString('base64url');
  const now = Date.now();
  await t.store.accounts.addSession({ hash: createHash('sha256').update(id).digest('base64url'), accountID, createdAt: now - ageMs, expiresAt: now + 86_400_000 });
  return as(t.url, username, `wg_session=${id}`);
}

async function addPasskey(t: TestServer, who: Signed, key: SoftPasskey, extra: { password?: string; name?: unknown } = {}) {
  const o = await who.call('/auth/passkey/register/options', extra.password === undefined ? {} : { password: extra.password });
  if (o.status !== 200) return o;
  return who.call('/auth/passkey/register', { ceremony: o.body.ceremony, response: key.register(o.body.options, t.url), ...(extra.name === undefined ? {} : { name: extra.name }) });
}

async function passkeySignIn(t: TestServer, key: SoftPasskey) {
  const o = await api(t.url, '/auth/passkey/login/options', {}, { origin: t.url });
  return api(t.url, '/auth/passkey/login', { ceremony: o.body.ceremony, response: key.authenticate(o.body.options, t.url) }, { origin: t.url });
}

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`passkeys the owner controls (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend);
    });
    afterAll(() => t?.stop());

    it('a session signed in over 5 minutes ago adds a passkey only with the password; the owner names, lists and removes them', async () => {
      const owner = await signUp(t.url, 'Mitchell', 'attorney general');
      const stolen = await oldSession(t, 'Mitchell', 10 * 60_000);
      const thiefKey = softPasskey();
      const refused = await addPasskey(t, stolen, thiefKey);
      expect([refused.status, refused.body.error]).toEqual([403, PASSKEY_NEEDS_PASSWORD]);
      expect((await addPasskey(t, stolen, thiefKey, { password: 'a wrong guess' })).status).toBe(403);
      expect((await passkeySignIn(t, thiefKey)).status).toBe(401);
      expect((await owner.call('/auth/passkeys')).body).toEqual({ passkeys: [] });

      // The owner: just signed in (no password asked), then on the old session with the password.
      const laptop = softPasskey();
      const phone = softPasskey();
      expect((await addPasskey(t, owner, laptop, { name: '  Laptop ' })).body).toEqual({ passkeys: 1 });
      expect((await addPasskey(t, stolen, phone, { password: 'attorney general' })).body).toEqual({ passkeys: 2 });
      for (const bad of [42, ['x'], 'x'.repeat(41), 'bad\u0007name', '\u202eevil']) {
        const k = softPasskey();
        const r = await addPasskey(t, owner, k, { name: bad });
        expect(r.status, JSON.stringify(bad)).toBe(400);
        expect(r.body.error).toMatch(/^name /);
      }
      const listed = (await owner.call('/auth/passkeys')).body.passkeys;
      expect(listed).toEqual([
        { id: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/), name: 'Laptop', addedAt: expect.any(Number), lastUsedAt: null },
        { id: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/), name: 'Passkey 2', addedAt: expect.any(Number), lastUsedAt: null },
      ]);
      // Nothing of the key itself in the list.
      expect(JSON.stringify(listed)).not.toContain(laptop.id);
      expect((await owner.call('/auth/me')).body.passkeys).toBe(2);

      const signedIn = await passkeySignIn(t, laptop);
      expect([signedIn.status, signedIn.body.username]).toEqual([200, 'Mitchell']);
      const used = (await owner.call('/auth/passkeys')).body.passkeys;
      expect(used[0].lastUsedAt).toBeGreaterThanOrEqual(used[0].addedAt);
      expect(used[1].lastUsedAt).toBeNull();

      // Removing: with the page's Origin only; only the account's own; then that passkey opens nothing.
      expect((await fetch(`${t.url}/auth/passkeys/${listed[1].id}`, { method: 'DELETE', headers: { cookie: owner.cookie } })).status).toBe(403);
      const other = await signUp(t.url, 'Stans', 'finance chair');
      expect((await fetch(`${t.url}/auth/passkeys/${listed[1].id}`, { method: 'DELETE', headers: { cookie: other.cookie, origin: t.url } })).status).toBe(404);
      expect((await other.call(`/auth/passkeys/${listed[1].id}/delete`, {})).status).toBe(404);
      expect((await owner.call('/auth/passkeys/not-a-passkey-id/delete', {})).status).toBe(404);
      const del = await fetch(`${t.url}/auth/passkeys/${listed[1].id}`, { method: 'DELETE', headers: { cookie: owner.cookie, origin: t.url } });
      expect(del.status).toBe(200);
      expect(((await del.json()) as { passkeys: { name: string }[] }).passkeys.map((p) => p.name)).toEqual(['Laptop']);
      expect((await passkeySignIn(t, phone)).status).toBe(401);
      expect((await passkeySignIn(t, laptop)).status).toBe(200);
    });

    it('a password change may remove every passkey with it', async () => {
      const owner = await signUp(t.url, 'Dean', 'white house counsel');
      const key = softPasskey();
      expect((await addPasskey(t, owner, key)).status).toBe(200);
      expect((await owner.call('/auth/password', { password: 'white house counsel', newPassword: 'a second password', removePasskeys: 'yes' })).status).toBe(400);
      expect((await owner.call('/auth/password', { password: 'white house counsel', newPassword: 'a second password' })).status).toBe(200);
      expect((await owner.call('/auth/me')).body.passkeys).toBe(1);
      expect((await passkeySignIn(t, key)).status).toBe(200);
      expect((await owner.call('/auth/password', { password: 'a second password', newPassword: 'a third password', removePasskeys: true })).status).toBe(200);
      expect((await owner.call('/auth/me')).body.passkeys).toBe(0);
      expect((await passkeySignIn(t, key)).status).toBe(401);
    });

    it('sign out everywhere ends every session and renews the seat credentials of games in play: the old ones move and chat no more', async () => {
      const owner = await signUp(t.url, 'Ehrlichman', 'domestic affairs');
      const thief = await logIn(t.url, 'Ehrlichman', 'domestic affairs');
      const key = softPasskey();
      expect((await addPasskey(t, thief, key)).status).toBe(200);
      const matchID = (await owner.call('/games/watergate/create', {})).body.matchID as string;
      const old = (await owner.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials as string;
      const guest = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Guest' })).body.playerCredentials as string;
      const stolen = (await thief.call('/me/matches')).body.matches.find((m: { matchID: string }) => m.matchID === matchID);
      expect(stolen.playerCredentials).toBe(old);

      const thiefs = player(t.url, matchID, '0', old);
      const opponent = player(t.url, matchID, '1', guest);
      try {
        await until(() => thiefs.state() !== null && opponent.state() !== null, 'both synced');
        // The thief's seat to move next, so a refused move is refused for its credentials alone.
        for (let i = 0; i < 4 && opponent.state()!.G.prompt!.player !== '0'; i++) await play({ '0': thiefs, '1': opponent }, 1);
        expect(opponent.state()!.G.prompt!.player).toBe('0');

        const m = legalMoves(thiefs.state()!.G as unknown as WatergateState, '0').find((x) => x.move !== 'resign')!;
        const told = next<[GuardError]>(thiefs.socket, 'watergate:error');
        expect((await owner.call('/auth/logout-all', {})).status).toBe(200);
        expect((await told)[0]).toMatchObject({ matchID, type: 'unauthorized' });
        for (const s of [owner, thief]) {
          expect((await s.call('/auth/me')).status).toBe(401);
          expect((await s.call('/me/matches')).status).toBe(401);
        }
        const before = (await stored(t.store, matchID)).state._stateID as number;
        const heard = opponent.received.length;
        (thiefs.client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
        thiefs.socket.emit('chat', matchID, { id: 'stolen1', sender: '0', payload: 'from the thief' });
        // A new socket with the old credentials is not seated either, nor does the Lobby API take them.
        const raw = await rawSocket(t.url);
        const rawRefused = next<[GuardError]>(raw, 'watergate:error');
        raw.emit('sync', matchID, '0', old, 2);
        expect((await rawRefused)[0]).toMatchObject({ type: 'unauthorized' });
        raw.close();
        expect((await api(t.url, `/games/watergate/${matchID}/leave`, { playerID: '0', credentials: old })).status).toBe(403);
        await new Promise((r) => setTimeout(r, 300));
        expect((await stored(t.store, matchID)).state._stateID).toBe(before);
        expect(JSON.stringify(opponent.received.slice(heard))).not.toContain('from the thief');

        // The old cookie stays dead after a passkey sign-in (a new session); that sign-in reads the new credentials.
        const back = await passkeySignIn(t, key);
        expect(back.status).toBe(200);
        expect((await thief.call('/auth/me')).status).toBe(401);
        const again = as(t.url, 'Ehrlichman', sessionCookie(back.headers)!);
        const mine = (await again.call('/me/matches')).body.matches.find((x: { matchID: string }) => x.matchID === matchID);
        expect(mine.playerCredentials).toEqual(expect.any(String));
        expect(mine.playerCredentials).not.toBe(old);
        const fresh = player(t.url, matchID, '0', mine.playerCredentials);
        try {
          await until(() => fresh.state() !== null, 'the owner synced with the new credentials');
          await play({ '0': fresh, '1': opponent }, 1);
          expect((await stored(t.store, matchID)).state._stateID).toBeGreaterThan(before);
        } finally {
          fresh.stop();
        }
      } finally {
        thiefs.stop();
        opponent.stop();
      }
    });

    it('a username that looks like an existing one is refused (Unicode confusable skeletons); a different one is not', async () => {
      await signUp(t.url, 'alice');
      for (const name of ['ɑlice', 'aǀice', 'aIice', 'AIice', 'ａlice']) {
        const r = await api(t.url, '/auth/signup', { username: name, password: 'long enough' }, { origin: t.url });
        expect([r.status, r.body.error], name).toEqual([409, name === 'ａlice' ? 'the username alice is taken' : USERNAME_LOOKALIKE]);
      }
      expect((await api(t.url, '/auth/signup', { username: 'alicia', password: 'long enough' }, { origin: t.url })).status).toBe(200);
      // "m" looks like "rn": whichever came first keeps it.
      await signUp(t.url, 'modern');
      expect((await api(t.url, '/auth/signup', { username: 'rnodern', password: 'long enough' }, { origin: t.url })).status).toBe(409);
    });
  });
}

describe('accounts from before look-alike keys and passkey names', () => {
  // Tables as an older release left them: no skeleton column (nor its index), passkeys without name and
  // last use; two look-alike accounts made back then (the older one keeps the name).
  const older = async (run: (sql: string) => Promise<unknown>, n: (t: string) => string, indexName: string) => {
    await run(`DROP INDEX ${indexName}`);
    await run(`ALTER TABLE ${n('wg_accounts')} DROP COLUMN skeleton`);
    await run(`ALTER TABLE ${n('wg_passkeys')} DROP COLUMN name`);
    await run(`ALTER TABLE ${n('wg_passkeys')} DROP COLUMN last_used_at`);
    await run(`INSERT INTO ${n('wg_accounts')} (id, username, name_key, password, settings, created_at) VALUES ('a1', 'alice', 'alice', NULL, '{}', 1), ('a2', 'aIice', 'aiice', NULL, '{}', 2)`);
    await run(`INSERT INTO ${n('wg_passkeys')} (id, account_id, public_key, counter, transports, created_at) VALUES ('k1', 'a1', 'x', 0, '[]', 5)`);
  };
  const check = async (store: MatchStore) => {
    expect(await store.accounts.create({ id: 'a3', username: 'ɑlice', key: 'ɑlice', password: null, createdAt: 3 })).toBe(false);
    expect(await store.accounts.create({ id: 'a4', username: 'bob', key: 'bob', password: null, createdAt: 4 })).toBe(true);
    expect((await store.accounts.byKey('aiice'))?.username).toBe('aIice');
    expect(await store.accounts.passkeys('a1')).toEqual([expect.objectContaining({ id: 'k1', name: null, lastUsedAt: null, createdAt: 5 })]);
  };

  it('embedded: the columns are added on opening and the older account gets its key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-store-'));
    try {
      let store = await openStore({ dataDir: dir });
      await store.close();
      const db = new Database(join(dir, 'watergate.sqlite'));
      await older(async (sql) => db.exec(sql), (t) => t, 'wg_accounts_skeleton');
      db.close();
      store = await openStore({ dataDir: dir });
      await check(store);
      await store.close();
      const after = new Database(join(dir, 'watergate.sqlite'));
      expect(after.prepare('SELECT id, skeleton FROM wg_accounts ORDER BY id').all()).toEqual([
        { id: 'a1', skeleton: 'alice' },
        { id: 'a2', skeleton: null },
        { id: 'a4', skeleton: 'bob' },
      ]);
      after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasPg)('postgres: the columns are added on opening and the older account gets its key', async () => {
    const schema = uniqueSchema();
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      let store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
      await store.close();
      await older((sql) => c.query(sql), (t) => `"${schema}".${t}`, `"${schema}".wg_accounts_skeleton`);
      store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
      await check(store);
      await store.close();
      expect((await c.query(`SELECT id, skeleton FROM "${schema}".wg_accounts ORDER BY id`)).rows).toEqual([
        { id: 'a1', skeleton: 'alice' },
        { id: 'a2', skeleton: null },
        { id: 'a4', skeleton: 'bob' },
      ]);
    } finally {
      await c.end();
      await dropSchema(schema);
    }
  });
});
