/**
 * Web push (server/notify/push.ts) over real connections: a local HTTP receiver stands in for the push
 * service. A signed-in player away when the game starts with their decision gets exactly one push — its
 * VAPID JWT verifies (ES256) against the server's public key and its body decrypts (RFC 8291 aes128gcm,
 * decrypted here with node:crypto alone) to the match's link — and no second one for that match within
 * the hour; a connected player gets none; a subscription whose service answers 410 is dropped. Bad
 * subscriptions are refused, and without the test-only switch an http or loopback endpoint is too. The
 * second game of a paired challenge, made when the first ends, is pushed to both its away players.
 */
import { createECDH, createPublicKey, hkdfSync, createDecipheriv, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerID } from '../../game/index';
import { configFromEnv } from '../../server/config';
import { openStore } from '../../server/storage/index';
import { api, dropSchema, PG_URL, player, postgresAvailable, startTestServer, uniqueSchema, until, type Backend, type TestServer } from './helpers';
import { playUntil } from './helpers';
import { signUp, type Signed } from './account-helpers';
import { resign, seatOf } from './event-helpers';

/** A push service on loopback: records each POST; `answers[path]` gives a status (default 201). */
async function pushService() {
  const got: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const answers: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answers[req.url!] ?? 201;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { got, answers, origin, to: (path: string) => got.filter((g) => g.path === path), close: () => new Promise((r) => server.close(r)) };
}

/** A browser's side of a subscription: its P-256 key pair and auth secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

/** RFC 8291 + RFC 8188 (one record): what the browser does with a push body. */
function decrypt(body: Buffer, ecdh: ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const serverKey = body.subarray(21, 21 + idlen);
  const data = body.subarray(21 + idlen);
  const secret = ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const d = createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(data.subarray(data.length - 16));
  const plain = Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]);
  // The last record's padding: a 0x02 delimiter, then zeros.
  const end = plain.lastIndexOf(2);
  expect(plain.subarray(end + 1).every((b) => b === 0)).toBe(true);
  return plain.subarray(0, end).toString('utf8');
}

/** The VAPID header's JWT, checked as a push service does: ES256 over the key the header names, which must be the server's. */
function checkVapid(authorization: string | undefined, publicKey: string, audience: string) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(authorization ?? '');
  expect(m, authorization).not.toBeNull();
  const [, jwt, k] = m!;
  expect(k).toBe(publicKey);
  const [h, p, s] = jwt.split('.');
  expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ typ: 'JWT', alg: 'ES256' });
  const raw = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
  expect(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(true);
  // A signature over anything else does not verify (the check can fail).
  expect(verify('sha256', Buffer.from(`${h}.${p}x`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(false);
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  expect(claims.aud).toBe(audience);
  expect(claims.exp * 1000).toBeGreaterThan(Date.now());
  expect(claims.sub).toMatch(/^(mailto:|https:)/);
}

async function del(url: string, path: string, who: Signed, body: unknown) {
  const r = await fetch(url + path, { method: 'DELETE', headers: { 'content-type': 'application/json', cookie: who.cookie, origin: url }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

const connected = async (s: TestServer, matchID: string, seat: PlayerID) => (await api(s.url, `/games/watergate/${matchID}`)).body.players[Number(seat)].isConnected === true;
const settle = () => new Promise((r) => setTimeout(r, 600));

const hasPg = await postgresAvailable();
let svc: Awaited<ReturnType<typeof pushService>>;
beforeAll(async () => {
  svc = await pushService();
});
afterAll(async () => {
  await svc?.close();
});

for (const backend of ['embedded', 'postgres'] as Backend[]) describe.skipIf(backend === 'postgres' && !hasPg)(`web push (${backend})`, () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(backend, { pushToLoopbackForTests: true });
  });
  afterAll(async () => {
    await t?.stop();
  });
  // Each backend's players and receiver paths are their own.
  const who = (name: string) => `${name}${backend === 'embedded' ? 'S' : 'P'}`;
  const path = (name: string) => `/${backend}/${name}`;

  it('an away player gets one push at the start, signed and encrypted, none again within the hour; a connected player none; a 410 drops the subscription', async () => {
    const { publicKey } = (await api(t.url, '/api/push/key')).body;
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    // Made on first start and kept in storage: the stored pair is the one served.
    expect((await t.store.follows.vapidKeys(() => ({ publicKey: 'other', privateKey: 'other' }))).publicKey).toBe(publicKey);
    const ann = await signUp(t.url, who('PushAnn'));
    const bob = await signUp(t.url, who('PushBob'));
    const annB = browserKeys();
    const bobB = browserKeys();
    expect((await ann.call('/api/push/subscribe', { endpoint: `${svc.origin}${path('ann')}`, keys: annB.keys, lang: 'pt-BR' })).status).toBe(200);
    expect((await bob.call('/api/push/subscribe', { endpoint: `${svc.origin}${path('bob')}`, keys: bobB.keys })).status).toBe(200);
    expect((await ann.call(`/api/push/subscribe?endpoint=${encodeURIComponent(`${svc.origin}${path('ann')}`)}`)).body).toEqual({ subscribed: true });

    const matchID = (await ann.call('/games/watergate/create', {})).body.matchID as string;
    const annCreds = (await ann.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials;
    const bobCreds = (await bob.call(`/games/watergate/${matchID}/join`, { playerID: '1' })).body.playerCredentials;
    expect(annCreds && bobCreds).toBeTruthy();

    // Ann (the Editor, first to decide) is away when Bob's join starts the game: one push.
    await until(() => svc.to(path('ann')).length === 1, "Ann's push");
    const push = svc.to(path('ann'))[0];
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    checkVapid(push.headers.authorization, publicKey, svc.origin);
    const message = JSON.parse(decrypt(push.body, annB.ecdh, annB.auth));
    expect(message).toEqual({ title: 'Watergate: Sua partida começou', body: `o Editor na partida ${matchID}`, url: `/#/match/${matchID}`, tag: `wg-${matchID}` });
    // Decrypting with another browser's keys fails: the body is for Ann's browser only.
    expect(() => decrypt(push.body, bobB.ecdh, bobB.auth)).toThrow();

    // Bob watches his board: his turns send him nothing. Ann's turn coming back within the hour: nothing more.
    const bobSocket = player(t.url, matchID, '1', bobCreds);
    await until(() => connected(t, matchID, '1'), 'Bob connected');
    await playUntil(t, matchID, '1');
    await playUntil(t, matchID, '0');
    await settle();
    expect(svc.to(path('bob'))).toHaveLength(0);
    expect(svc.to(path('ann'))).toHaveLength(1);

    // Bob leaves; his push service has forgotten him (410): the push is tried once and the subscription dropped.
    svc.answers[path('bob')] = 410;
    bobSocket.stop();
    await until(async () => !(await connected(t, matchID, '1')), 'Bob away');
    await playUntil(t, matchID, '1');
    await until(() => svc.to(path('bob')).length === 1, "Bob's push");
    await until(async () => (await bob.call(`/api/push/subscribe?endpoint=${encodeURIComponent(`${svc.origin}${path('bob')}`)}`)).body.subscribed === false, 'the subscription dropped');
    expect(await t.store.follows.pushSubscriptions((await t.store.accounts.byKey(who('PushBob').toLowerCase()))!.id)).toEqual([]);
    const counted = await t.server.metrics.registry.getSingleMetricAsString('wg_pushes_total');
    expect(counted).toMatch(/result="sent"\} 1\b/);
    expect(counted).toMatch(/result="gone"\} 1\b/);
  });

  it("the second game of a paired challenge is pushed to both away players, once, in each one's language", async () => {
    const eve = await signUp(t.url, who('PairEve'));
    const fay = await signUp(t.url, who('PairFay'));
    const [eveB, fayB] = [browserKeys(), browserKeys()];
    expect((await eve.call('/api/push/subscribe', { endpoint: `${svc.origin}${path('eve')}`, keys: eveB.keys })).status).toBe(200);
    expect((await fay.call('/api/push/subscribe', { endpoint: `${svc.origin}${path('fay')}`, keys: fayB.keys, lang: 'zh-CN' })).status).toBe(200);
    const id = (await eve.call(`/api/challenge/${who('PairFay')}`, { paired: true, side: 'editor', clock: 'none' })).body.id as string;
    const acc = await fay.call(`/api/challenge/${id}/accept`, {});
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    const first = acc.body.matchID as string;
    await settle();
    // The first game of a challenge sends no push (the acceptor is at the board; nobody's turn became an away seat's).
    expect([svc.to(path('eve')).length, svc.to(path('fay')).length]).toEqual([0, 0]);
    const s1 = await seatOf(fay, first);
    await resign(t.url, first, s1.playerID, s1.playerCredentials);
    await until(async () => (await eve.call(`/api/challenge/${id}`)).body.pair.games.length === 2, 'the second game of the pair');
    const second = (await eve.call(`/api/challenge/${id}`)).body.pair.games[1].matchID as string;
    await until(() => svc.to(path('eve')).length === 1 && svc.to(path('fay')).length === 1, 'both pushes');
    // Sides swapped: Eve, the Editor of game 1, is Nixon in game 2.
    expect(JSON.parse(decrypt(svc.to(path('eve'))[0].body, eveB.ecdh, eveB.auth))).toEqual({ title: 'Watergate: The second game of your pair has started', body: `Nixon in match ${second}`, url: `/#/match/${second}`, tag: `wg-${second}` });
    expect(JSON.parse(decrypt(svc.to(path('fay'))[0].body, fayB.ecdh, fayB.auth))).toEqual({ title: 'Watergate: 你的对局组第二局已开始', body: `对局 ${second}：编辑`, url: `/#/match/${second}`, tag: `wg-${second}` });
    await settle();
    expect([svc.to(path('eve')).length, svc.to(path('fay')).length]).toEqual([1, 1]);
  });

  it('keeps at most 10 subscriptions per account, removes one on DELETE, and refuses malformed ones by field', async () => {
    const cy = await signUp(t.url, who('PushCy'));
    const k = browserKeys().keys;
    for (let i = 0; i < 10; i++) expect((await cy.call('/api/push/subscribe', { endpoint: `${svc.origin}${path(`cy${i}`)}`, keys: k })).status).toBe(200);
    // The same endpoint again replaces itself; an eleventh is refused.
    expect((await cy.call('/api/push/subscribe', { endpoint: `${svc.origin}${path('cy3')}`, keys: k })).status).toBe(200);
    const over = await cy.call('/api/push/subscribe', { endpoint: `${svc.origin}${path('cy10')}`, keys: k });
    expect(over.status).toBe(409);
    expect(await del(t.url, '/api/push/subscribe', cy, { endpoint: `${svc.origin}${path('cy3')}` })).toEqual({ status: 200, body: { removed: true } });
    expect((await cy.call('/api/push/subscribe', { endpoint: `${svc.origin}${path('cy10')}`, keys: k })).status).toBe(200);

    const bad: [unknown, RegExp][] = [
      [{ endpoint: 'ftp://x.example/1', keys: k }, /endpoint must start with https/],
      [{ endpoint: `https://push.example/${'a'.repeat(1000)}`, keys: k }, /endpoint must be at most 1000/],
      [{ endpoint: 'https://push.example/1', keys: { ...k, p256dh: Buffer.alloc(65, 1).toString('base64url') } }, /keys.p256dh must be 65 bytes/],
      [{ endpoint: 'https://push.example/1', keys: { ...k, auth: 'short' } }, /keys.auth must be 16 bytes/],
      [{ endpoint: 'https://push.example/1', keys: k, lang: 'fr' }, /lang must be one of/],
      [{ endpoint: 'https://push.example/1', keys: k, extra: 1 }, /unknown field "extra"/],
      [{ endpoint: 'https://push.example/1' }, /keys must be an object/],
    ];
    for (const [body, error] of bad) {
      const r = await cy.call('/api/push/subscribe', body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error).toMatch(error);
    }
    expect((await api(t.url, '/api/push/subscribe', { endpoint: 'https://push.example/1', keys: k }, { origin: t.url })).status).toBe(401);
    // The account's data lists where its pushes go, by the push service's host only.
    const data = (await cy.call('/me/data')).body;
    expect(data.pushSubscriptions).toHaveLength(10);
    expect(data.pushSubscriptions[0]).toEqual({ service: new URL(svc.origin).host, lang: 'en', createdAt: expect.any(String) });
    expect(JSON.stringify(data)).not.toContain('/cy');
  });

  it('claims each hour\'s push once among concurrent senders; processes starting together keep one VAPID pair (PostgreSQL)', async () => {
    const id = (await t.store.accounts.byKey(who('PushAnn').toLowerCase()))!.id;
    const hour = 3_600_000;
    const at = Date.now() + 10 * hour; // past any claim the first test made
    const claims = await Promise.all(Array.from({ length: 8 }, () => t.store.follows.claimPush(id, 'claimed-match', at, hour)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await t.store.follows.claimPush(id, 'claimed-match', at + hour - 1, hour)).toBe(false);
    expect(await t.store.follows.claimPush(id, 'other-match', at, hour)).toBe(true);
    expect(await t.store.follows.claimPush(id, 'claimed-match', at + hour, hour)).toBe(true);
    // Only the last hour's claims are kept: the others, an hour old or more, went with the next claim (PostgreSQL: read back).
    expect(await t.store.follows.claimPush(id, 'third-match', at + 2 * hour, hour)).toBe(true);
    const kept = t.store.kind === 'embedded' ? null : await (t.store as unknown as { sql: { query(q: string, p: unknown[]): Promise<{ rows: { match_id: string }[] }> } }).sql.query(`SELECT match_id FROM "${(t.store as unknown as { schema: string }).schema}".wg_push_sent WHERE account_id = $1 ORDER BY match_id`, [id]);
    if (kept) expect(kept.rows.map((r) => r.match_id)).toEqual(['third-match']);
    if (backend !== 'postgres') return;
    // Two processes starting together on an empty database: each makes a pair, one is kept, both use it.
    const schema = uniqueSchema();
    const stores = [await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' }), await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' })];
    try {
      const pairs = await Promise.all(stores.flatMap((st, i) => [0, 1].map((j) => st.follows.vapidKeys(() => ({ publicKey: `made-${i}-${j}`, privateKey: 'x' })))));
      expect(new Set(pairs.map((p) => p.publicKey)).size).toBe(1);
    } finally {
      for (const st of stores) await st.close();
      await dropSchema(schema);
    }
  });

  it("ends a browser's subscription when it signs out (a shared computer stops getting the account's pushes)", async () => {
    const eve = await signUp(t.url, who('PushEve'));
    const k = browserKeys().keys;
    expect((await eve.call('/api/push/subscribe', { endpoint: `${svc.origin}${path('eve')}`, keys: k })).status).toBe(200);
    const id = (await t.store.accounts.byKey(who('PushEve').toLowerCase()))!.id;
    expect(await t.store.follows.pushSubscriptions(id)).toHaveLength(1);
    expect((await eve.call('/auth/logout', {})).status).toBe(200);
    expect(await t.store.follows.pushSubscriptions(id)).toEqual([]);
  });
});

describe('without the test-only switch', () => {
  it('refuses http and loopback endpoints, and no configuration turns that on', async () => {
    const s = await startTestServer('embedded');
    try {
      const dee = await signUp(s.url, 'PushDee');
      const k = browserKeys().keys;
      const r = await dee.call('/api/push/subscribe', { endpoint: `${svc.origin}/dee`, keys: k });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/https/);
      // An https endpoint naming loopback passes as a form, but the address guard sends nothing there.
      const port = new URL(svc.origin).port;
      expect((await dee.call('/api/push/subscribe', { endpoint: `https://127.0.0.1:${port}/dee`, keys: k })).status).toBe(200);
      const matchID = (await dee.call('/games/watergate/create', {})).body.matchID as string;
      expect((await dee.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).status).toBe(200);
      expect((await api(s.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Guest' })).status).toBe(200);
      await until(() => s.logs.some((l) => l.includes('push not delivered') && l.includes('not a public address')), 'the refusal logged');
      expect(await s.server.metrics.registry.getSingleMetricAsString('wg_pushes_total')).toMatch(/result="refused"\} 1\b/);
      expect(svc.to('/dee')).toEqual([]);
    } finally {
      await s.stop();
    }
    const cfg = configFromEnv({ ALLOW_LOCAL_WEBHOOKS: '1', NODE_ENV: 'test' } as never);
    expect(Object.keys(cfg).filter((key) => /loopback|push/i.test(key))).toEqual([]);
  });

  it('reads VAPID keys and subject from the configuration, both keys or neither', () => {
    const pub = Buffer.alloc(65, 4).toString('base64url');
    const priv = Buffer.alloc(32, 1).toString('base64url');
    expect(configFromEnv({ VAPID_PUBLIC_KEY: pub, VAPID_PRIVATE_KEY: priv, VAPID_SUBJECT: 'mailto:ops@example.org' } as never)).toMatchObject({ vapid: { publicKey: pub, privateKey: priv }, vapidSubject: 'mailto:ops@example.org' });
    expect(() => configFromEnv({ VAPID_PUBLIC_KEY: pub } as never)).toThrow(/set together/);
    expect(() => configFromEnv({ VAPID_SUBJECT: 'http://x.example' } as never)).toThrow(/VAPID_SUBJECT/);
  });
});
