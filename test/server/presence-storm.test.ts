/**
 * A mass disconnect — a proxy restarting, a network blip, every socket closing at once — is written in
 * slices: at most PRESENCE_WRITES_PER_TURN seats marked away a turn of the event loop, so the moves of
 * every other match go on between them (at 1,000 matches the loop had stopped 0.5–1 s: docs/LOAD.md
 * "A mass disconnect in slices"), and every seat still ends up away, in the order its changes came.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_WRITES_PER_TURN } from '../../server/match/presence';
import type { MatchData } from '../../server/storage/types';
import { api, createAndJoin, next, play, player, rawSocket, startTestServer, stored, until, type TestServer } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

/** Counts the presence writes that begin in each turn of the event loop (this test shares the server's loop). */
function turnsOfWrites(s: TestServer) {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  tick();
  const perTurn = new Map<number, number>();
  const service = s.server.service as unknown as { changeMetadata(id: string, fn: (m: MatchData) => MatchData): Promise<unknown> };
  const change = service.changeMetadata.bind(service);
  service.changeMetadata = (id, fn) => {
    perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    return change(id, fn);
  };
  return {
    perTurn,
    stop() {
      ticking = false;
      delete (service as { changeMetadata?: unknown }).changeMetadata;
    },
  };
}

const seatsOf = async (matchID: string) => (await stored(t.store, matchID)).metadata.players as Record<string, { isConnected?: boolean }>;

describe('a mass disconnect', () => {
  it('80 seats going in one turn are written 32 a turn, the loop turning between; each seat ends as its last change says, away since it went', async () => {
    const matches = await Promise.all(Array.from({ length: 40 }, () => createAndJoin(t.url)));
    const seats = matches.flatMap((m) => (['0', '1'] as const).map((seat) => ({ matchID: m.matchID, seat })));
    const writes = turnsOfWrites(t);
    let went = 0;
    try {
      // As the socket layer does when 80 sockets' closes are read in one turn: 80 changes asked at once.
      await Promise.all(seats.map((s) => t.server.service.connection(s.matchID, s.seat, true)));
      writes.perTurn.clear();
      const away = seats.map((s) => t.server.service.connection(s.matchID, s.seat, false));
      // Each seat is away since its socket went, not since its slice was written (10 ms later here at least).
      went = Date.now();
      while (Date.now() < went + 10);
      // Seat 0 of the first match comes back before its "away" was written: it must end present.
      const back = t.server.service.connection(seats[0].matchID, '0', true);
      await Promise.all([...away, back]);
      const counts = [...writes.perTurn.values()];
      expect(counts.reduce((a, b) => a + b, 0)).toBe(81);
      expect(Math.max(...counts)).toBe(PRESENCE_WRITES_PER_TURN);
      expect(counts.length).toBeGreaterThanOrEqual(Math.ceil(81 / PRESENCE_WRITES_PER_TURN));
    } finally {
      writes.stop();
    }
    expect((await seatsOf(matches[0].matchID))['0'].isConnected).toBe(true);
    for (const m of matches.slice(1)) {
      const { metadata } = await stored(t.store, m.matchID);
      expect(Object.values(metadata.players as Record<string, { isConnected?: boolean }>).map((p) => p.isConnected)).toEqual([false, false]);
      for (const seat of ['0', '1']) expect(metadata.away[seat]).toBeLessThanOrEqual(went);
    }
  });

  it('a hostile owner flapping its seat (150 sockets opened, synced and closed, five at a time) delays no other match, and its seat ends away', async () => {
    const flapped = await createAndJoin(t.url);
    const staying = await createAndJoin(t.url);
    const editor = player(t.url, staying.matchID, '0', staying.creds['0'], { localAddress: '127.0.6.1' });
    const nixon = player(t.url, staying.matchID, '1', staying.creds['1'], { localAddress: '127.0.6.2' });
    let synced = 0;
    const flap = async () => {
      const s = await rawSocket(t.url).catch(() => null); // refused at the handshake past the per-address limits: fine
      if (!s) return;
      const got = next(s, 'sync', 2_000).then(() => synced++, () => undefined);
      s.emit('sync', flapped.matchID, '0', flapped.creds['0'], 2);
      await got;
      s.close();
    };
    try {
      await until(() => editor.state() !== null && nixon.state() !== null, 'the staying match synced');
      const before = editor.state()!._stateID;
      await Promise.all([
        (async () => {
          for (let i = 0; i < 150; i += 5) await Promise.all(Array.from({ length: 5 }, flap));
        })(),
        play({ '0': editor, '1': nixon }, 3),
      ]);
      expect(synced, 'the flood reached the seat').toBeGreaterThan(10);
      expect(editor.state()!._stateID).toBeGreaterThanOrEqual(before + 3);
      await until(async () => (await seatsOf(flapped.matchID))['0'].isConnected === false, 'the flapped seat shown away once its last socket went');
      expect((await api(t.url, `/games/watergate/${staying.matchID}`)).status).toBe(200);
      expect(Object.values(await seatsOf(staying.matchID)).map((p) => p.isConnected)).toEqual([true, true]);
    } finally {
      editor.stop();
      nixon.stop();
    }
  });

  it('over the wire: 60 players closing their sockets at once are all shown away, and a player still connected can move meanwhile', async () => {
    const matches = await Promise.all(Array.from({ length: 30 }, () => createAndJoin(t.url)));
    // Each match from an address of its own, as 30 households would be (the per-address limits stay on).
    const players = matches.flatMap((m, i) => (['0', '1'] as const).map((seat) => player(t.url, m.matchID, seat, m.creds[seat], { localAddress: `127.0.3.${i + 1}` })));
    const staying = await createAndJoin(t.url);
    const editor = player(t.url, staying.matchID, '0', staying.creds['0'], { localAddress: '127.0.4.1' });
    const nixon = player(t.url, staying.matchID, '1', staying.creds['1'], { localAddress: '127.0.4.2' });
    try {
      await until(async () => {
        for (const m of matches) if (Object.values(await seatsOf(m.matchID)).some((p) => p.isConnected !== true)) return false;
        return true;
      }, 'all 60 players shown present');
      await until(() => editor.state() !== null && nixon.state() !== null, 'the staying match synced');
      const before = editor.state()!._stateID;
      for (const p of players) p.stop();
      // The staying match plays on during the storm: three decisions answered to both players.
      await Promise.all([
        play({ '0': editor, '1': nixon }, 3),
        until(async () => {
          for (const m of matches) if (Object.values(await seatsOf(m.matchID)).some((p) => p.isConnected !== false)) return false;
          return true;
        }, 'all 60 players shown away'),
      ]);
      expect(editor.state()!._stateID).toBeGreaterThanOrEqual(before + 3);
      expect(Object.values(await seatsOf(staying.matchID)).map((p) => p.isConnected)).toEqual([true, true]);
    } finally {
      for (const p of players) p.stop();
      editor.stop();
      nixon.stop();
    }
  });
});
