/**
 * Junk over the wire against a running server (test/server/wire.ts speaks it by hand): the packets that
 * once killed the process, then a seeded flood of random engine.io/socket.io packets on both namespaces
 * (websocket frames and long-polling), malformed frames and upgrades, header floods, resets mid-request
 * and mid-upgrade, oversized bodies and slow clients. Afterwards the server still answers, a match of
 * two seated players keeps playing, and the junk changed nothing in storage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchStore } from '../../server/storage/types';
import { api, createAndJoin, next, play, player, rawSocket, startTestServer, until, type TestServer } from './helpers';
import { engineIoPacket, frame, jsonValue, plausibleEvent, rawWs, seeded, tcp, type RawWs, type Rng } from './wire';

const SEED = Number(process.env.WIRE_SEED ?? 20261201);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded', {
    // The junk all comes from 127.0.0.1: let it connect and sync freely, so that it reaches the handlers
    // (socket limits have their own tests). Malformed requests are limited per socket over a whole
    // minute, so that junk reaches that limit however slowly a loaded machine sends it.
    limits: { connect: { points: 100_000, seconds: 60 }, sync: { points: 100_000, seconds: 60 }, badSocket: { points: 5, seconds: 60 } },
    httpLimits: { headersTimeoutMs: 1_500, requestTimeoutMs: 3_000, checkEveryMs: 250 },
  });
});
afterAll(async () => t?.stop());

/** Counts what storage actually changes from now on. */
function countWrites(store: MatchStore): { count(): number; stop(): void } {
  let n = 0;
  let on = true;
  const s = store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const saved = new Map<string, (...a: unknown[]) => Promise<unknown>>();
  for (const k of ['createMatch', 'commitMove', 'addChat', 'wipe', 'claimBot']) {
    const orig = s[k];
    saved.set(k, orig);
    s[k] = function (this: unknown, ...a: unknown[]) {
      if (on) n++;
      return orig.apply(this, a);
    };
  }
  const upd = s.updateMetadata;
  saved.set('updateMetadata', upd);
  s.updateMetadata = function (this: unknown, id: unknown, change: unknown) {
    return upd.call(this, id, (m: unknown) => {
      const out = (change as (m: unknown) => unknown)(m);
      if (on && out !== m) n++;
      return out;
    });
  };
  return {
    count: () => n,
    stop: () => {
      on = false;
      for (const [k, f] of saved) s[k] = f;
    },
  };
}

const healthy = async () => expect((await api(t.url, '/healthz')).status).toBe(200);
const errorsLogged = () => t.logs.filter((l) => JSON.parse(l).level >= 50);

/** A websocket that joined the game namespace (or `/`), by hand. */
async function joined(nsp: '/watergate' | '/'): Promise<RawWs> {
  const ws = await rawWs(t.url);
  await until(() => ws.messages.some((m) => m.startsWith('0{')), 'engine.io open packet', 5_000);
  ws.send(nsp === '/' ? '40' : '40/watergate,');
  await until(() => ws.messages.some((m) => m.startsWith(nsp === '/' ? '44' : '40/watergate,')), `an answer to joining ${nsp}`, 5_000);
  return ws;
}

describe('the packets that once crashed the server', () => {
  it('an object as an event name, on the game namespace and on /: refused or ignored; the server answers', async () => {
    // socket.io 4's parser takes an object as an event name for a protocol violation: that connection ends.
    for (const packet of ['42/watergate,[{"toString":1}]', '42/watergate,[{"toString":1},"x"]', '42/watergate,[[],"sync"]']) {
      const ws = await joined('/watergate');
      ws.send(packet);
      await until(() => ws.closing || !ws.open, `the connection that sent ${packet} closed`, 5_000);
      expect(ws.messages.filter((m) => m.startsWith('42'))).toEqual([]);
      ws.close();
    }
    // A number gets past the parser: our handler refuses it.
    const game = await joined('/watergate');
    game.send('42/watergate,[1,"sync"]');
    game.send('42/watergate,[2.5,{"toString":1}]');
    await until(() => game.messages.filter((m) => m.includes('an event name must be a string')).length === 2, 'two refusals', 5_000);
    // The default namespace refuses to be joined (a connect error), and drops what is sent there.
    const root = await joined('/');
    expect(root.messages.find((m) => m.startsWith('44'))).toMatch(/speaks on \/watergate only/);
    root.send('42[{"toString":1}]');
    game.send('42/watergate,["hack"]');
    await until(() => game.messages.some((m) => m.includes('"hack\\" is not accepted')), 'the game socket still served', 5_000);
    expect(root.messages.filter((m) => m.startsWith('42'))).toEqual([]);
    game.close();
    root.close();
    await healthy();
  });

  it('an upgrade with 2,100 headers before Upgrade: 431 and closed; the server answers', async () => {
    const flood = Array.from({ length: 2_100 }, (_, i) => `X-Fill-${i}: ${'v'.repeat(8)}\r\n`).join('');
    const key = Buffer.from('0123456789abcdef').toString('base64');
    const r = await tcp(t.url, [`GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\n${flood}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`]);
    expect(r.text).toMatch(/^HTTP\/1\.1 431/);
    expect(r.closedByServer).toBe(true);
    // Fewer headers than the size limit but more than the count limit: the rest are ignored, the
    // upgrade is not made, and the request gets an answer.
    const many = Array.from({ length: 600 }, (_, i) => `X${i}: v\r\n`).join('');
    const r2 = await tcp(t.url, [`GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: x\r\n${many}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`]);
    expect(r2.text).toMatch(/^HTTP\/1\.1 4\d\d/);
    await healthy();
  });

  it('an upgrade on an unknown path, then a TCP reset: refused at once; the server answers', async () => {
    const upgrade = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${Buffer.from('0123456789abcdef').toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    for (let i = 0; i < 20; i++) await tcp(t.url, [upgrade(`/nowhere/${i}`)], { reset: true });
    const answered = await tcp(t.url, [upgrade('/nowhere')]);
    expect(answered.text).toMatch(/^HTTP\/1\.1 404/);
    expect(answered.closedByServer).toBe(true);
    // The same on the socket path: reset after the request, and in the middle of the headers.
    for (let i = 0; i < 10; i++) await tcp(t.url, [upgrade('/socket.io/?EIO=4&transport=websocket')], { reset: true });
    for (let i = 0; i < 10; i++) await tcp(t.url, [upgrade('/socket.io/?EIO=4&transport=websocket').slice(0, 30 + i * 7)], { reset: true });
    await healthy();
  });
});

/** Packets of junk sent over websocket and long-polling (the flood below sends at least 2,000). */
let packetsSent = 0;

/** One websocket session of seeded junk; ends closed, reset, or with an oversized or malformed frame. */
async function junkSession(r: Rng, matchID: string): Promise<void> {
  let ws: RawWs;
  try {
    ws = await rawWs(t.url);
  } catch {
    return;
  }
  const join = r.pick(['40/watergate,', '40/watergate,', '40/watergate,', '40', '40/watergate,{"token":{"toString":1}}', '40/nowhere,', '']);
  if (join) ws.send(join);
  // Packets for a namespace are only read once it is joined: wait for the answer (if any comes).
  await until(() => !ws.open || ws.messages.some((m) => m.startsWith('40/watergate,') || m.startsWith('44')), 'joined', 1_000).catch(() => undefined);
  // Events that the parser lets through first (they reach the handlers), then any shape at all (most
  // end the connection: a protocol violation closes it).
  for (let i = 10 + r.int(60); i > 0 && ws.open; i--, packetsSent++) ws.send(`42/watergate,${JSON.stringify(plausibleEvent(r, matchID))}`);
  for (let i = 1 + r.int(6); i > 0 && ws.open; i--, packetsSent++) ws.send(engineIoPacket(r, matchID));
  const end = r.int(8);
  if (end === 0) ws.sendRaw(frame(1, 'x'.repeat(20_000))); // over maxHttpBufferSize
  else if (end === 1) ws.sendRaw(frame(r.pick([0, 3, 7, 11, 15]), '42/watergate,["sync"]')); // reserved or orphan opcodes
  else if (end === 2) ws.sendRaw(frame(1, '42["x"]', { rsv: 1 + r.int(7) }));
  else if (end === 3) ws.sendRaw(frame(1, '42["x"]', { mask: false }));
  else if (end === 4) ws.sendRaw(frame(2, Buffer.from([0x34, 0xff, 0x00, 0x7b])));
  else if (end === 5) ws.sendRaw(frame(1, 'x', { claimedLength: 2 ** 40 }));
  else if (end === 6) ws.sendRaw(frame(1, Buffer.from([0xc3, 0x28, 0xff])));
  await new Promise((res) => setTimeout(res, 20));
  if (r.next() < 0.5) ws.reset();
  else ws.close();
}

/** One long-polling session of seeded junk: a handshake, then POSTs of random packets. */
async function pollingSession(r: Rng, matchID: string): Promise<void> {
  const base = `${t.url}/socket.io/?EIO=4&transport=polling`;
  const open = await fetch(base).then((x) => x.text());
  const sid = /"sid":"([^"]+)"/.exec(open)?.[1] ?? 'nosuchsid';
  for (let i = 1 + r.int(4); i > 0; i--) {
    const packets = Array.from({ length: 1 + r.int(6) }, () => engineIoPacket(r, matchID));
    if (r.next() < 0.5) packets.unshift('40/watergate,');
    packetsSent += packets.length;
    const body = r.next() < 0.1 ? 'x'.repeat(200_000) : packets.join('\x1e');
    const res = await fetch(`${base}&sid=${r.next() < 0.9 ? sid : 'forged'}`, { method: r.next() < 0.9 ? 'POST' : 'PUT', body }).catch(() => null);
    await res?.text().catch(() => undefined);
  }
}

/** Raw TCP: junk bytes, requests cut off by resets, oversized bodies, a slow client. */
async function tcpJunk(r: Rng): Promise<void> {
  const bytes = () => Buffer.from(Array.from({ length: 1 + r.int(300) }, () => r.int(256)));
  for (let i = 0; i < 15; i++) await tcp(t.url, [bytes()], { ms: 500, reset: r.next() < 0.5 });
  const post = (len: number) => `POST /games/watergate/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${len}\r\n\r\n`;
  // Cut off mid-body, mid-headers, mid-request-line.
  await tcp(t.url, [post(1_000_000), '{"numPlayers":'], { reset: true });
  await tcp(t.url, [post(10).slice(0, 40)], { reset: true });
  await tcp(t.url, ['GET /games/water'], { reset: true });
  // An oversized JSON body is refused, not read.
  const big = await tcp(t.url, [post(2_000_000), `{"setupData":"${'a'.repeat(100_000)}`], { ms: 3_000 });
  expect(big.text).toMatch(/^HTTP\/1\.1 413/);
  // Header bytes past the limit: 431.
  expect((await tcp(t.url, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`])).text).toMatch(/^HTTP\/1\.1 431/);
  // A slowloris: headers one line at a time, never finished; cut by the server (here after 1.5 s).
  const slow = await tcp(t.url, ['GET /healthz HTTP/1.1\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: 1\r\n`)], { gapMs: 200, ms: 8_000 });
  expect(slow.closedByServer).toBe(true);
  expect(slow.text).toMatch(/^HTTP\/1\.1 408/);
}

/**
 * Lobby API requests with random methods, paths, queries, content types and bodies (no create: a
 * well-formed one would rightly store a match). Resolves with the statuses seen.
 */
async function httpJunk(r: Rng, matchID: string): Promise<number[]> {
  const routes = ['join', 'leave', 'update', 'rename', 'playAgain', 'standIn', 'takeBack', 'notify', 'replay', ''];
  const types = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', ''];
  const statuses: number[] = [];
  // A lone surrogate cannot be percent-encoded: such a value becomes raw percent junk instead.
  const enc = (v: unknown) => {
    try {
      return encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
    } catch {
      return '%d8%00';
    }
  };
  for (let i = 0; i < 120; i++) {
    const id = r.pick([matchID, 'NoSuchMatch', '%00', '..%2f..', enc(jsonValue(r, 0))]);
    const path = r.pick([
      `/games/watergate/${id}/${r.pick(routes)}`,
      `/games/watergate/${id}`,
      `/games/watergate?${enc(jsonValue(r, 0))}=${enc(jsonValue(r, 1))}&isGameover=${r.pick(['true', 'x', ''])}`,
      `/games/${enc(jsonValue(r, 0))}`,
      '/%ff%fe',
      `/socket.io/?EIO=${r.pick(['3', '4', '5', 'x'])}&transport=${r.pick(['polling', 'websocket', 'flashsocket'])}&sid=${r.int(9)}`,
    ]);
    const post = r.next() < 0.8;
    const body = r.next() < 0.8 ? JSON.stringify(jsonValue(r, 3)) : String(jsonValue(r, 0));
    const res = await fetch(`${t.url}${path}`, {
      method: post ? r.pick(['POST', 'POST', 'PUT', 'DELETE', 'PATCH']) : r.pick(['GET', 'HEAD', 'OPTIONS']),
      headers: { 'content-type': r.pick(types), ...(r.next() < 0.2 ? { origin: r.pick(['https://evil.example', 'null', t.url]) } : {}) },
      body: post ? body : undefined,
    }).catch(() => null);
    if (res) {
      statuses.push(res.status);
      await res.arrayBuffer().catch(() => undefined);
    }
  }
  return statuses;
}

describe('a seeded flood of junk', () => {
  it('leaves the server answering, a seated match playing on, and storage unchanged', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const a = player(t.url, matchID, '0', creds['0']);
    const b = player(t.url, matchID, '1', creds['1']);
    try {
      await play({ '0': a, '1': b }, 2);
      const before = a.state()!._stateID;
      await until(() => t.server.service.peek(matchID)?.metadata.players[1]?.isConnected === true, 'both seats present');
      const writes = countWrites(t.store);
      const logsBefore = t.logs.length;
      const r = seeded(SEED);
      try {
        for (let batch = 0; batch < 10 || packetsSent < 2_000; batch++) {
          await Promise.all([
            ...Array.from({ length: 5 }, () => junkSession(r, matchID)),
            ...Array.from({ length: 2 }, () => pollingSession(r, matchID)),
          ]);
        }
        await tcpJunk(r);
        // Most junk sessions end in a protocol violation long before their socket's malformed-request
        // limit: one client keeps sending unknown events on a live connection until it is cut off.
        const persistent = await rawSocket(t.url);
        const cut = next(persistent, 'disconnect');
        for (let i = 0; i < 10; i++) persistent.emit(`junk-${r.int(1000)}`, jsonValue(r, 2));
        await cut;
        const statuses = await httpJunk(r, matchID);
        expect(statuses.filter((x) => x >= 500), 'Lobby API answers of 500 and above to junk').toEqual([]);
        expect(statuses.filter((x) => x >= 400).length).toBeGreaterThan(60);
        // Give anything the junk set going time to land before counting.
        await new Promise((res) => setTimeout(res, 300));
        expect(packetsSent).toBeGreaterThanOrEqual(2_000);
        expect(writes.count(), `storage changes caused by ${packetsSent} packets of junk (seed ${SEED})`).toBe(0);
        // The junk reached every door: the socket handlers, engine.io, the HTTP parser, the upgrade check.
        const kinds = new Map<string, number>();
        for (const l of t.logs.slice(logsBefore).map((x) => JSON.parse(x) as { msg: string; kind?: string; type?: string }))
          if (l.msg === 'request refused') kinds.set(`${l.kind}:${l.type}`, (kinds.get(`${l.kind}:${l.type}`) ?? 0) + 1);
        expect(kinds.get('socket:bad-request') ?? 0).toBeGreaterThan(50);
        for (const door of ['socket:unauthorized', 'socket:rate-limited', 'engine:', 'http:']) expect([...kinds.keys()].some((k) => k.startsWith(door)), door).toBe(true);
      } finally {
        writes.stop();
      }
      expect(errorsLogged()).toEqual([]);
      await healthy();
      expect(a.socket.connected && b.socket.connected).toBe(true);
      await play({ '0': a, '1': b }, 3);
      expect(a.state()!._stateID).toBeGreaterThanOrEqual(before + 3);
      expect(b.state()!._stateID).toBe(a.state()!._stateID);
    } finally {
      a.stop();
      b.stop();
    }
  });
});
