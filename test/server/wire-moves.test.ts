/**
 * Ten thousand moves that must all be refused, sent over real sockets from both seats of a match in
 * play (seeded: WIRE_SEED): junk arguments under every move name, the other seat's options, options one
 * field off or padded, old state ids, moves made as the other seat, wrong credentials. Each is answered
 * with a refusal; none changes storage or the server's memory; afterwards the match plays on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { MOVE_NAMES } from '../../game/engine';
import { legalMoves, legalOption, type WatergateState } from '../../game/index';
import type { GuardError } from '../../protocol/index';
import { createAndJoin, next, play, player, rawSocket, startTestServer, stored, until, type TestServer } from './helpers';
import { jsonValue, seeded } from './wire';

const SEED = Number(process.env.WIRE_SEED ?? 20261201);
const MOVES = 10_000;
const BATCH = 250;

let t: TestServer;
beforeAll(async () => {
  // One client sends everything: the per-socket limits (tested in socket-limits.test.ts) are raised so
  // that every move reaches the rules.
  const many = { points: 1_000_000, seconds: 60 };
  t = await startTestServer('embedded', { limits: { staleSocket: many, badSocket: many, syncSocket: many, sync: many } });
});
afterAll(async () => t?.stop());

type Seat = '0' | '1';
const otherSeat = (s: Seat): Seat => (s === '0' ? '1' : '0');
const action = (type: string, args: unknown[], playerID: unknown, credentials: unknown) => ({ type: 'MAKE_MOVE', payload: { type, args, playerID, credentials } });

/** One field of a legal argument changed to something else (a near miss), or the argument padded. */
function nearMiss(r: ReturnType<typeof seeded>, arg: unknown): unknown {
  if (!arg || typeof arg !== 'object') return r.pick([`${String(arg)}x`, 99, [arg], { arg }]);
  const o = { ...(arg as Record<string, unknown>) };
  const keys = Object.keys(o);
  if (r.next() < 0.3 || keys.length === 0) return { ...o, [r.pick(['note', 'extra', 'card2', '__proto__x'])]: jsonValue(r, 1) };
  const k = r.pick(keys);
  o[k] = r.pick([jsonValue(r, 1), typeof o[k] === 'string' ? `${o[k] as string}9` : null, undefined]);
  return o;
}

describe('ten thousand refused moves over the wire', () => {
  it('are each answered with a refusal, change nothing, and the match plays on', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const sockets = {} as Record<Seat, Socket>;
    const refusals: GuardError[] = [];
    for (const seat of ['0', '1'] as const) {
      const s = await rawSocket(t.url);
      const synced = next(s, 'sync');
      s.emit('sync', matchID, seat, creds[seat], 2);
      await synced;
      s.on('watergate:error', (e: GuardError) => refusals.push(e));
      sockets[seat] = s;
    }
    const truth = () => t.server.service.peek(matchID)!.state as unknown as { G: WatergateState; _stateID: number };
    const before = truth()._stateID;
    const storedBefore = JSON.stringify((await stored(t.store, matchID)).state);
    const r = seeded(SEED);
    const names = [...MOVE_NAMES, 'timeout', 'forfeit', 'abort', 'cheat', 'UNDO'];
    let sent = 0;
    try {
      while (sent < MOVES) {
        const { G, _stateID: id } = truth();
        const decider = G.prompt!.player as Seat;
        const options = legalMoves(G, decider);
        for (let i = 0; i < BATCH; i++) {
          const seat: Seat = r.pick(['0', '1']);
          const o = r.pick(options);
          let move = o.move as string;
          let args: unknown[] = o.args;
          let stateID: unknown = id;
          let playerID: unknown = seat;
          let credentials: unknown = creds[seat];
          switch (r.int(7)) {
            case 0: // any move name, any argument
              move = r.pick(names);
              args = r.next() < 0.8 ? [jsonValue(r, 2)] : [jsonValue(r, 1), jsonValue(r, 1)];
              break;
            case 1: // the decider's option, sent by the other seat
              if (seat === decider) stateID = id - 1;
              break;
            case 2: // one field off, or padded
              args = [nearMiss(r, o.args[0])];
              break;
            case 3: // an old state
              stateID = r.pick([id - 1, id + 1, -1, 0.5, '3', null]);
              break;
            case 4: // as the other seat, from this seat's socket
              playerID = r.pick([otherSeat(seat), null, 0, 1, '2']);
              break;
            case 5: // wrong credentials
              credentials = r.pick([creds[otherSeat(seat)], 'x', '', null, { $ne: '' }]);
              break;
            default: // a legal move's shape around a junk action
              move = r.pick(['play', 'pin', 'choose', 'react', 'answer', 'target']);
              args = [jsonValue(r, 3)];
          }
          // A move the rules would take from this seat, as sent, is no junk: leave it out.
          const asSent = seat === playerID && credentials === creds[seat] && stateID === id && args.length <= 1;
          if (asSent && !('error' in legalOption(G, seat, move, args[0]))) continue;
          sockets[seat].emit('update', action(move, args, playerID, credentials), stateID, matchID, seat);
          sent++;
        }
        // Every move is answered: wait for this batch's refusals before the next (the state is the same).
        await until(() => refusals.length >= sent, `${sent} refusals`, 60_000);
      }
      expect(refusals).toHaveLength(sent);
      // Resyncs may follow stale moves; give anything set going time to land, then compare.
      await new Promise((res) => setTimeout(res, 300));
      expect(truth()._stateID).toBe(before);
      expect(JSON.stringify((await stored(t.store, matchID)).state)).toBe(storedBefore);
      expect(new Set(refusals.map((e) => e.type))).toEqual(new Set(['bad-request', 'unauthorized', 'stale', 'invalid-move']));
    } finally {
      for (const s of Object.values(sockets)) s.close();
    }

    const a = player(t.url, matchID, '0', creds['0']);
    const b = player(t.url, matchID, '1', creds['1']);
    try {
      await play({ '0': a, '1': b }, 3);
      expect(a.state()!._stateID).toBeGreaterThanOrEqual(before + 3);
    } finally {
      a.stop();
      b.stop();
    }
  });
});
