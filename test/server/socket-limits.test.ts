/**
 * How much one client may ask over the socket (server/limits.ts): connections per address, syncs per
 * socket, stale moves per socket (each costs a resync: one in flight at most), chat per address and
 * malformed requests per socket (then the socket is closed). Over real sockets, with small limits; the
 * clients' addresses come from X-Forwarded-For (the server trusts its proxy here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { legalMoves, type WatergateState } from '../../game/index';
import type { GuardError } from '../../protocol/index';
import { createAndJoin, next, play, player, rawSocket, startTestServer, stored, until, type TestServer } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded', {
    trustProxy: true,
    limits: {
      connect: { points: 8, seconds: 60 },
      syncSocket: { points: 5, seconds: 60 },
      staleSocket: { points: 3, seconds: 60 },
      chat: { points: 3, seconds: 60 },
      badSocket: { points: 10, seconds: 60 },
    },
  });
});
afterAll(async () => t?.stop());

let nextAddress = 1;
/** A raw socket from an address of its own (X-Forwarded-For, trusted here). */
const from = (addr = `10.0.0.${nextAddress++}`) => rawSocket(t.url, { 'X-Forwarded-For': addr });
const errors = (s: Socket) => {
  const got: GuardError[] = [];
  s.on('watergate:error', (e: GuardError) => got.push(e));
  return got;
};
const action = (m: { move: string; args: unknown[] }, playerID: string, credentials: string) => ({ type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID, credentials } });

describe('socket limits', () => {
  it('1,000 stale moves from one socket: a few resyncs (one at a time), then rate-limited and closed; another match plays on', async () => {
    const flood = await createAndJoin(t.url);
    const other = await createAndJoin(t.url);
    const a = player(t.url, other.matchID, '0', other.creds['0']);
    const b = player(t.url, other.matchID, '1', other.creds['1']);
    const s = await from();
    try {
      const synced = next<[string, { state: { G: WatergateState; _stateID: number } }]>(s, 'sync');
      s.emit('sync', flood.matchID, '0', flood.creds['0'], 2);
      const { state } = (await synced)[1];
      const got = errors(s);
      let syncs = 0;
      s.on('sync', () => syncs++);
      const closed = next(s, 'disconnect');
      const m = legalMoves(state.G, '0')[0];
      for (let i = 0; i < 1_000; i++) s.emit('update', action(m, '0', flood.creds['0']), state._stateID - 1, flood.matchID, '0');
      await play({ '0': a, '1': b }, 3);
      await closed;
      const limited = got.filter((e) => e.type === 'rate-limited');
      expect(got.filter((e) => e.type === 'stale').length).toBeLessThanOrEqual(3);
      expect(syncs).toBeLessThanOrEqual(3);
      expect(limited.length).toBeGreaterThan(0);
      expect(limited[0]).toMatchObject({ matchID: flood.matchID, message: expect.stringMatching(/too many moves on an old state: try again in \d+ seconds?/) });
      expect(limited[0].retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(limited.at(-1)!.message).toMatch(/closing this connection/);
      // Nothing of the flood was stored; the other match moved on.
      expect((await stored(t.store, flood.matchID)).state._stateID).toBe(state._stateID);
      expect(a.state()!._stateID).toBeGreaterThanOrEqual(3);
    } finally {
      s.close();
      a.stop();
      b.stop();
    }
  });

  it('1,000 moves on the current state that no rule allows (wrong types, repeated values, extra and oversized fields): refused with the reason, then rate-limited and closed; nothing stored; the match plays on', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const state = (await stored(t.store, matchID)).state as { G: WatergateState; _stateID: number };
    const mover = state.G.prompt!.player as '0' | '1';
    const option = legalMoves(state.G, mover)[0];
    const arg = option.args[0] as Record<string, unknown>;
    // Every field of the rules' own option in turn replaced by another type, the option inside an array,
    // nested deep, with an own "__proto__" field, with an extra field, and past the argument's size cap.
    const hostile: unknown[] = [[arg], JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(arg).slice(1)}`), { ...arg, extra: 1 }, { ...arg, note: 'x'.repeat(2_000) }, '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]', 42, null, true];
    for (const k of Object.keys(arg)) for (const wrong of [7, 'seven', [arg[k]], { k: arg[k] }, null, [arg[k], arg[k]]]) hostile.push({ ...arg, [k]: wrong });
    const s = await from();
    try {
      const synced = next(s, 'sync');
      s.emit('sync', matchID, mover, creds[mover], 2);
      await synced;
      const got = errors(s);
      const closed = next(s, 'disconnect');
      for (let i = 0; i < 1_000; i++) s.emit('update', action({ move: option.move, args: [hostile[i % hostile.length]] }, mover, creds[mover]), state._stateID, matchID, mover);
      await closed;
      const refused = got.filter((e) => e.type !== 'rate-limited');
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThanOrEqual(10 + 2);
      for (const e of refused) expect(['invalid-move', 'bad-request']).toContain(e.type);
      expect(refused.some((e) => /not one of the rules' options/.test(e.message))).toBe(true);
      expect(got.at(-1)).toMatchObject({ type: 'rate-limited', message: expect.stringMatching(/too many refused or malformed requests.*closing this connection/) });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // Nothing was stored; the server answers, and the same seat plays the option itself on a new socket.
      expect((await stored(t.store, matchID)).state._stateID).toBe(state._stateID);
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
      const again = await from();
      const resynced = next(again, 'sync');
      again.emit('sync', matchID, mover, creds[mover], 2);
      await resynced;
      const played = next(again, 'patch');
      again.emit('update', action(option, mover, creds[mover]), state._stateID, matchID, mover);
      await played;
      expect((await stored(t.store, matchID)).state._stateID).toBe(state._stateID + 1);
      again.close();
    } finally {
      s.close();
    }
  });

  it('syncs per socket: past the limit, refused with the reason and when to retry', async () => {
    const { matchID } = await createAndJoin(t.url);
    const s = await from();
    const got = errors(s);
    let syncs = 0;
    s.on('sync', () => syncs++);
    for (let i = 0; i < 8; i++) s.emit('sync', matchID, null, null, 2);
    await until(() => syncs + got.length === 8, 'an answer to every sync');
    expect(syncs).toBe(5);
    expect(got).toHaveLength(3);
    expect(got[0]).toMatchObject({ type: 'rate-limited', message: expect.stringMatching(/too many syncs on this connection/) });
    expect(got[0].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    s.close();
  });

  it('chat per address: past the limit refused, before the per-seat burst', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const s = await from();
    const synced = next(s, 'sync');
    s.emit('sync', matchID, '0', creds['0'], 2);
    await synced;
    const got = errors(s);
    const heard: unknown[] = [];
    s.on('chat', (_m: string, line: unknown) => heard.push(line));
    for (let i = 0; i < 5; i++) s.emit('chat', matchID, { id: `c${i}`, sender: '0', payload: `line ${i}` });
    await until(() => heard.length + got.length === 5, 'an answer to every line');
    expect(heard).toHaveLength(3);
    expect(got.map((e) => e.type)).toEqual(['rate-limited', 'rate-limited']);
    expect(got[0].message).toMatch(/too many chat messages/);
    s.close();
  });

  it('malformed requests per socket: past the limit, told and closed', async () => {
    const s = await from();
    const got = errors(s);
    const closed = next(s, 'disconnect');
    for (let i = 0; i < 30; i++) s.emit('hack', i);
    await closed;
    expect(got.filter((e) => e.type === 'bad-request').length).toBeGreaterThanOrEqual(10);
    expect(got.at(-1)).toMatchObject({ type: 'rate-limited', message: expect.stringMatching(/too many refused or malformed requests.*closing this connection/) });
  });

  it('connections per address: refused at the handshake with the reason; another address still connects', async () => {
    const open: Socket[] = [];
    for (let i = 0; i < 8; i++) open.push(await from('10.9.9.9'));
    await expect(from('10.9.9.9')).rejects.toThrow();
    const poll = await fetch(`${t.url}/socket.io/?EIO=4&transport=polling`, { headers: { 'X-Forwarded-For': '10.9.9.9' } });
    expect(poll.status).toBe(403);
    expect(await poll.text()).toMatch(/too many connections from your address: try again in \d+ seconds?/);
    open.push(await from('10.9.9.10'));
    for (const s of open) s.close();
  });
});

describe('refusals in the log', () => {
  it('each at debug only, and a summary at info by kind, so a flood costs the operator one line', async () => {
    const own = await startTestServer('embedded');
    const s = await rawSocket(own.url);
    for (let i = 0; i < 15; i++) s.emit('hack', i);
    for (let i = 0; i < 5; i++) await fetch(`${own.url}/games/watergate/nosuchmatch`);
    await until(() => own.logs.filter((l) => l.includes('"request refused"')).length >= 20, 'the refusals logged');
    s.close();
    await own.stop();
    const lines = own.logs.map((l) => JSON.parse(l) as { level: number; msg: string; refused?: Record<string, number> });
    const each = lines.filter((l) => l.msg === 'request refused');
    expect(each.length).toBeGreaterThanOrEqual(20);
    expect(each.every((l) => l.level === 20)).toBe(true);
    expect(lines.filter((l) => l.level >= 30 && /refused/.test(l.msg) && l.msg !== 'requests refused in the last minute')).toEqual([]);
    const summary = lines.filter((l) => l.msg === 'requests refused in the last minute');
    expect(summary).toHaveLength(1);
    expect(summary[0].level).toBe(30);
    expect(summary[0].refused).toMatchObject({ 'socket:bad-request': 15, 'http:404': 5 });
  });
});
