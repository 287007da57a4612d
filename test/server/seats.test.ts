/**
 * Play starts only when both seats are taken: a move (a resign too) before that is refused with the
 * reason and changes nothing, over the socket and from inside; the computer does not think while its
 * human has not joined, and starts as soon as they do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import { samplerFor } from '../../bots/determinize';
import { botRng } from '../../bots/rng';
import type { Thinker } from '../../bots/bgio';
import type { GuardError } from '../../protocol/index';
import { startServer } from '../../server/app';
import { redisBus } from '../../server/bus/redis';
import type { MatchStore } from '../../server/storage/types';
import { api, createAndJoin, next, nextState, play, player, rawSocket, startTestServer, stored, until, type TestServer } from './helpers';

/** A quick stand-in for the search: a legal move of a world sampled from the bot's own view; counted. */
let thoughts = 0;
const rng = botRng(11);
const thinker: Thinker = (view) => {
  thoughts++;
  const moves = legalMoves(samplerFor(view).sample(rng), view.viewer!);
  return { move: moves[0], iterations: 0, elapsedMs: 0, stats: [] };
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded', { bots: { thinker } });
});
afterAll(async () => t?.stop());

const stateID = async (matchID: string) => (await stored(t.store, matchID)).state._stateID as number;
const action = (type: string, args: unknown[], playerID: string, credentials: string) => ({ type: 'MAKE_MOVE', payload: { type, args, playerID, credentials } });

describe('play starts when both seats are taken', () => {
  it('refuses every move, resign included, while a seat is open, with the reason; nothing is written', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const ann = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' })).body.playerCredentials as string;
    const s = await rawSocket(t.url);
    const synced = next<[string, { state: { G: WatergateState; _stateID: number } }]>(s, 'sync');
    s.emit('sync', matchID, '0', ann, 2);
    const { state } = (await synced)[1];
    const m = legalMoves(state.G, '0')[0];
    const waiting = { matchID, type: 'invalid-move', message: 'the game starts when both seats are taken: waiting for Nixon' };
    for (const [type, args] of [[m.move, m.args], ['resign', []]] as const) {
      const refused = next<[GuardError]>(s, 'watergate:error');
      s.emit('update', action(type, [...args], '0', ann), state._stateID, matchID, '0');
      expect((await refused)[0]).toEqual(waiting);
    }
    expect(await t.server.move(matchID, '0', m.move, m.args[0])).toBe(waiting.message);
    expect(await stateID(matchID)).toBe(state._stateID);
    expect((await stored(t.store, matchID)).metadata.gameover).toBeUndefined();

    // With the other seat taken, the same move goes through.
    await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Bob' });
    const moved = nextState(s);
    s.emit('update', action(m.move, m.args, '0', ann), state._stateID, matchID, '0');
    await moved;
    expect(await stateID(matchID)).toBe(state._stateID + 1);
    s.close();

    // Waiting for the Editor, as seen from Nixon's side.
    const other = (await api(t.url, '/games/watergate/create', {})).body.matchID as string;
    await api(t.url, `/games/watergate/${other}/join`, { playerID: '1', playerName: 'Bob' });
    expect(await t.server.move(other, '1', 'resign', undefined)).toBe('the game starts when both seats are taken: waiting for the Editor');
  });

  it('the computer as the Editor waits for its human, and moves once they join', async () => {
    const { matchID, humanSeat } = (await api(t.url, '/games/watergate/vs-computer', { botSeat: '0', level: 'easy' })).body;
    const before = await stateID(matchID);
    thoughts = 0;
    // A spectator brings the match into memory (the bot is asked), and a Lobby read looks at it.
    const spectator = player(t.url, matchID, null);
    try {
      await until(() => spectator.state() !== null, 'spectator synced');
      expect((await api(t.url, `/games/watergate/${matchID}`)).body.toMove).toBeNull();
      await new Promise((r) => setTimeout(r, 300));
      expect(thoughts).toBe(0);
      expect(await stateID(matchID)).toBe(before);

      const join = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: humanSeat, playerName: 'Ann' });
      expect(join.status).toBe(200);
      await until(() => spectator.state()!._stateID > before, 'the bot to move');
      expect(thoughts).toBeGreaterThan(0);
      const G = (await stored(t.store, matchID)).state.G as WatergateState;
      expect(G.log.some((e) => e.player === '0')).toBe(true);
    } finally {
      spectator.stop();
    }
  });
});

describe("a seat's authority lasts as long as the seat", () => {
  it('a leaver’s socket is moved to the spectators at once; the newcomer gets a fresh seat; presence counts only its sockets', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const ann = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' })).body.playerCredentials as string;
    const leo = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Leo', data: { colour: 'red' } })).body.playerCredentials as string;
    const a = player(t.url, matchID, '0', ann);
    const old = player(t.url, matchID, '1', leo);
    let n: ReturnType<typeof player> | null = null;
    const seat1 = async () => (await stored(t.store, matchID)).metadata.players[1];
    try {
      await until(async () => (await seat1()).isConnected === true && old.state() !== null, 'the first Nixon present');
      expect(old.state()!.G.hands['1']).not.toBeNull();

      const told = next<[GuardError]>(old.socket, 'watergate:error');
      const resynced = next<[string, { state: { G: { viewer: unknown; hands: Record<string, unknown> } } }]>(old.socket, 'sync');
      expect((await api(t.url, `/games/watergate/${matchID}/leave`, { playerID: '1', credentials: leo })).status).toBe(200);
      expect((await told)[0]).toMatchObject({ matchID, type: 'unauthorized', message: expect.stringMatching(/seat changed hands.*spectator/) });
      const view = (await resynced)[1].state.G;
      expect(view.viewer).toBeNull();
      expect(view.hands).toEqual({ '0': null, '1': null });
      // The seat is empty: no name, credentials, data or presence of the leaver.
      const emptied = await seat1();
      expect(emptied).not.toHaveProperty('name');
      expect(emptied).not.toHaveProperty('credentials');
      expect(emptied).not.toHaveProperty('data');
      expect(emptied.isConnected).not.toBe(true);

      const newcomer = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Nia' })).body.playerCredentials as string;
      expect(await seat1()).not.toHaveProperty('data');
      n = player(t.url, matchID, '1', newcomer);
      await until(async () => (await seat1()).isConnected === true && n!.state() !== null, 'the newcomer present');
      const since = old.received.length;
      await play({ '0': a, '1': n }, 3);
      await until(() => old.state()!._stateID === n!.state()!._stateID, 'the old socket following as a spectator');
      // What the old socket holds is the spectator view, never the newcomer's hand.
      expect(old.state()!.G.viewer).toBeNull();
      expect(old.state()!.G.hands).toEqual({ '0': null, '1': null });
      expect(n.state()!.G.hands['1']).not.toBeNull();
      for (const m of old.received.slice(since)) {
        if (m.event === 'update' || m.event === 'sync') expect((m.args[1] as { G: { viewer: unknown } }).G?.viewer ?? null).toBeNull();
        if (m.event === 'patch') expect(JSON.stringify(m.args[3])).not.toContain('"viewer"');
      }

      // It can no longer speak or move as Nixon.
      const chatRefused = next<[GuardError]>(old.socket, 'watergate:error');
      old.socket.emit('chat', matchID, { id: 'c1', sender: '1', payload: 'I am still Nixon' });
      expect((await chatRefused)[0].message).toMatch(/only a seated player/);
      const st = n.state()!;
      const moveRefused = next<[GuardError]>(old.socket, 'watergate:error');
      old.socket.emit('update', action('resign', [], '1', leo), st._stateID, matchID, '1');
      expect((await moveRefused)[0]).toMatchObject({ type: 'unauthorized' });
      expect((await stored(t.store, matchID)).state._stateID).toBe(st._stateID);

      // Presence: only the newcomer's sockets count. Once it goes, Nixon is away although the old socket stays.
      n.stop();
      await until(async () => (await seat1()).isConnected === false, 'Nixon away once the newcomer left');
      expect(old.socket.connected).toBe(true);
    } finally {
      a.stop();
      old.stop();
      n?.stop();
    }
  });

  it('chat checks the seat’s credentials now, not when the socket synced', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' });
    const leo = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Leo' })).body.playerCredentials as string;
    const s = await rawSocket(t.url);
    const synced = next(s, 'sync');
    s.emit('sync', matchID, '1', leo, 2);
    await synced;
    expect(await t.server.service.chat(matchID, '1', leo, { id: 'ok1', payload: 'hello' })).toBeNull();
    await api(t.url, `/games/watergate/${matchID}/leave`, { playerID: '1', credentials: leo });
    // The leaver's credentials no longer speak for the seat, whoever relays them.
    expect(await t.server.service.chat(matchID, '1', leo, { id: 'late1', payload: 'still here' })).toMatchObject({ type: 'unauthorized' });
    const refused = next<[GuardError]>(s, 'watergate:error');
    s.emit('chat', matchID, { id: 'late2', sender: '1', payload: 'still here' });
    expect((await refused)[0].message).toMatch(/only a seated player/);
    expect((await t.store.chat(matchID, 10)).map((l) => l.id)).toEqual(['ok1']);
    s.close();
  });
});

describe('while the computer stands in for a seat', () => {
  it('its owner keeps the seat’s view and chat but cannot move for it until taking it back', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const ann = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' })).body.playerCredentials as string;
    await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Leo' });
    const s = await rawSocket(t.url);
    const synced = next<[string, { state: { G: WatergateState; _stateID: number } }]>(s, 'sync');
    s.emit('sync', matchID, '0', ann, 2);
    const { state } = (await synced)[1];
    // The hand-over itself (its rules are standin.ts's) is not what is tested here.
    await t.server.service.changeMetadata(matchID, (m) => ({ ...m, standIns: { '0': { level: 'normal', reason: 'abandoned', since: Date.now() } } }));
    // The computer may move for the seat at once (it does, here): the owner's move is on the state now.
    await until(() => (t.server.service.peek(matchID)?.state.G as WatergateState | undefined)?.prompt?.player === '1', 'the computer having moved for Ann');
    const now = t.server.service.peek(matchID)!.state._stateID;
    const m = legalMoves(state.G, '0')[0];
    const refused = next<[GuardError]>(s, 'watergate:error');
    s.emit('update', action(m.move, m.args, '0', ann), now, matchID, '0');
    expect((await refused)[0]).toMatchObject({ type: 'invalid-move', message: expect.stringMatching(/take your seat back/) });
    const heard = next<[string, { payload: string }]>(s, 'chat');
    s.emit('chat', matchID, { id: 'si1', sender: '0', payload: 'the computer plays for me' });
    expect((await heard)[1].payload).toBe('the computer plays for me');
    expect(s.connected).toBe(true);
    s.close();
  });
});

describe('a seat changing hands on another process', () => {
  it('moves the old socket there to the spectators too (news over the bus), even when the bus was slow to listen', async () => {
    const prefix = `wg-socket-test-${process.pid}-${Date.now()}:`;
    const busA = redisBus({ url: 'redis://127.0.0.1:6379', prefix });
    const busB = redisBus({ url: 'redis://127.0.0.1:6379', prefix });
    // A slow subscription (a busy Redis): the leave below comes before it takes effect, unless the
    // process listens before it reads the match.
    const subscribe = busB.subscribe.bind(busB);
    busB.subscribe = (id) => new Promise((r) => setTimeout(r, 500)).then(() => subscribe(id));
    const a = await startTestServer('embedded', { bus: busA });
    const shared = Object.create(a.store) as MatchStore;
    shared.close = async () => undefined;
    const b = await startServer({ store: shared, port: 0, bus: busB });
    try {
      const { matchID, creds } = await createAndJoin(a.url);
      const old = await rawSocket(b.url);
      const synced = next(old, 'sync');
      old.emit('sync', matchID, '1', creds['1'], 2);
      await synced;
      const told = next<[GuardError]>(old, 'watergate:error');
      const spectator = next<[string, { state: { G: { viewer: unknown } } }]>(old, 'sync');
      expect((await api(a.url, `/games/watergate/${matchID}/leave`, { playerID: '1', credentials: creds['1'] })).status).toBe(200);
      expect((await told)[0]).toMatchObject({ type: 'unauthorized', message: expect.stringMatching(/changed hands/) });
      expect((await spectator)[1].state.G.viewer).toBeNull();
      old.close();
    } finally {
      await b.close();
      await a.stop();
    }
  });
});
