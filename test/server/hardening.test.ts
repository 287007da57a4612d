/**
 * The holes of boardgame.io 0.50.2 (docs/ARCHITECTURE.md "Hardening"), each attacked over a real socket.io
 * connection to a running server; every attack must fail with a clear error and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { legalMoves, type WatergateState, type WatergateView } from '../../game/index';
import { startServer, type RunningServer } from '../../server/app';
import type { GuardError } from '../../protocol/index';
import type { MatchStore } from '../../server/storage/types';
import { api, createAndJoin, logCapture, next, nextState, player, rawSocket, startTestServer, until, type TestServer, stored } from './helpers';

type SyncInfo = { state: { G: WatergateView; _stateID: number; plugins: Record<string, { data?: unknown }> }; initialState: { G: WatergateView; plugins: Record<string, { data?: unknown }>; _undo: unknown[] }; filteredMetadata: object[] };

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded', { origins: ['https://play.example.org'] });
});
afterAll(async () => t?.stop());

const trueState = async (matchID: string) => (await stored(t.store, matchID)).state as { G: WatergateState; _stateID: number };

async function synced(matchID: string, playerID: string | null, credentials?: string): Promise<{ s: Socket; info: SyncInfo }> {
  const s = await rawSocket(t.url);
  const got = next<[string, SyncInfo]>(s, 'sync');
  s.emit('sync', matchID, playerID, credentials, 2);
  return { s, info: (await got)[1] };
}

/** Emits and waits for the guard's error event. */
async function refused(s: Socket, event: string, ...args: unknown[]): Promise<GuardError> {
  const err = next<[GuardError]>(s, 'watergate:error');
  s.emit(event, ...args);
  return (await err)[0];
}

const moveAction = (m: { move: string; args: unknown[] }, playerID: string, credentials: string) => ({
  type: 'MAKE_MOVE',
  payload: { type: m.move, args: m.args, playerID, credentials },
});

describe('1. initialState in sync', () => {
  it('passes through the player view: no deck, bag, opponent hand or PRNG data, for players and spectators', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const truth = (await stored(t.store, matchID)).initialState as { G: WatergateState };
    for (const [seat, cred] of [['0', creds['0']], ['1', creds['1']], [null, undefined]] as const) {
      const { s, info } = await synced(matchID, seat, cred);
      const init = info.initialState;
      const text = JSON.stringify(init);
      for (const card of [...truth.G.decks['0'], ...truth.G.decks['1']]) expect(text).not.toContain(`"${card}"`);
      for (const token of truth.G.bag) expect(text).not.toContain(`"${token}"`);
      expect(init.G.viewer).toBe(seat);
      if (seat !== '1') expect(init.G.hands['1']).toBeNull();
      if (seat !== '0') expect(init.G.hands['0']).toBeNull();
      expect(init.G.deckSizes).toBeDefined();
      expect(init.plugins.random?.data).toBeUndefined();
      expect(init._undo).toEqual([]);
      expect(JSON.stringify(info)).not.toMatch(/prngstate|"seed"/);
      s.close();
    }
  });
});

describe('3. payload.playerID spoofing', () => {
  it('refuses a move whose payload.playerID is not the authenticated seat', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const before = await trueState(matchID);
    const editorMove = legalMoves(before.G, '0')[0];
    // Nixon (authenticated as seat 1) tries to act as the Editor, who is the active player.
    const nixon = await synced(matchID, '1', creds['1']);
    const e1 = await refused(nixon.s, 'update', moveAction(editorMove, '0', creds['1']), before._stateID, matchID, '1');
    expect(e1).toMatchObject({ type: 'unauthorized', message: 'a move of seat 1 cannot be made as seat 0' });
    // The Editor claims to be Nixon.
    const editor = await synced(matchID, '0', creds['0']);
    const e2 = await refused(editor.s, 'update', moveAction(editorMove, '1', creds['0']), before._stateID, matchID, '0');
    expect(e2.type).toBe('unauthorized');
    expect((await trueState(matchID))._stateID).toBe(before._stateID);
    nixon.s.close();
    editor.s.close();
  });
});

describe('4. credentials and unknown matches', () => {
  it("needs the seat's credentials to sync as it; a spectator syncs without a seat and sees the spectator view", async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const s = await rawSocket(t.url);
    expect(await refused(s, 'sync', matchID, '0', 'wrong', 2)).toMatchObject({ type: 'unauthorized' });
    expect(await refused(s, 'sync', matchID, '0', undefined, 2)).toMatchObject({ type: 'unauthorized' });
    expect(await refused(s, 'sync', matchID, '1', creds['0'], 2)).toMatchObject({ type: 'unauthorized' });
    s.close();
    const spectator = await synced(matchID, null);
    const G = spectator.info.state.G;
    expect(G.viewer).toBeNull();
    expect(G.hands).toEqual({ '0': null, '1': null });
    expect(G.track.evidence.every((tok) => tok.up || tok.id === null)).toBe(true);
    spectator.s.close();
  });

  it('refuses moves from a socket that did not sync as that seat with valid credentials', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const st = await trueState(matchID);
    const m = legalMoves(st.G, '0')[0];
    const raw = await rawSocket(t.url);
    expect(await refused(raw, 'update', moveAction(m, '0', creds['0']), st._stateID, matchID, '0')).toMatchObject({ type: 'unauthorized' });
    const spectator = await synced(matchID, null);
    expect(await refused(spectator.s, 'update', moveAction(m, '0', creds['0']), st._stateID, matchID, '0')).toMatchObject({ type: 'unauthorized' });
    const editor = await synced(matchID, '0', creds['0']);
    expect(await refused(editor.s, 'update', moveAction(m, '0', 'forged'), st._stateID, matchID, '0')).toMatchObject({ type: 'unauthorized' });
    expect((await trueState(matchID))._stateID).toBe(st._stateID);
    for (const s of [raw, spectator.s, editor.s]) s.close();
  });

  it('creates nothing when syncing an unknown match, whatever numPlayers is asked for', async () => {
    const s = await rawSocket(t.url);
    const e = await refused(s, 'sync', 'ghostmatch', null, undefined, 100000);
    expect(e).toMatchObject({ type: 'not-found', message: 'match ghostmatch not found' });
    expect(await stored(t.store, 'ghostmatch')).toEqual({});
    expect(await t.store.listMatches()).not.toContain('ghostmatch');
    s.close();
  });
});

describe('5. origins on the socket handshake', () => {
  it('accepts the own origin and configured ones, refuses others (anchored)', async () => {
    (await rawSocket(t.url, { Origin: 'https://play.example.org' })).close();
    (await rawSocket(t.url, { Origin: t.url })).close();
    for (const evil of ['https://play.example.org.evil.example', 'https://evil.example', 'http://localhost:3000.evil.example']) {
      await expect(rawSocket(t.url, { Origin: evil }), evil).rejects.toThrow();
      const poll = await fetch(`${t.url}/socket.io/?EIO=4&transport=polling`, { headers: { Origin: evil } });
      expect(poll.status, evil).toBeGreaterThanOrEqual(400);
      expect(poll.headers.get('access-control-allow-origin')).not.toBe('*');
      expect(poll.headers.get('access-control-allow-origin')).not.toBe(evil);
    }
  });
});

describe('7. secrets in metadata and logs', () => {
  it('never sends credentials in match data, and redacts the other seat\'s secret choices', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const a = player(t.url, matchID, '0', creds['0']);
    const b = player(t.url, matchID, '1', creds['1']);
    try {
      await until(() => a.received.some((m) => m.event === 'matchData') && b.state() !== null, 'match data');
      for (const p of [a, b]) {
        const text = JSON.stringify(p.received);
        expect(text).not.toContain(creds['0']);
        expect(text).not.toContain(creds['1']);
        expect(text).not.toContain('credentials');
      }
      expect(JSON.stringify(await api(t.url, `/games/watergate/${matchID}`))).not.toContain(creds['0']);
    } finally {
      a.stop();
      b.stop();
    }
  });
});

describe('8. malformed socket payloads', () => {
  it('answer with a clear error, change nothing, and the server keeps serving', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const st = await trueState(matchID);
    const good = legalMoves(st.G, '0')[0];
    const { s } = await synced(matchID, '0', creds['0']);
    const id = st._stateID;
    const cases: [unknown[], GuardError['type'], RegExp][] = [
      [[null, id, matchID, '0'], 'bad-request', /must be an object/],
      [['play', id, matchID, '0'], 'bad-request', /must be an object/],
      [[{ type: 'GAME_EVENT', payload: { type: 'endTurn', playerID: '0', credentials: creds['0'] } }, id, matchID, '0'], 'bad-request', /only moves/],
      [[{ type: 'UNDO', payload: { type: null, playerID: '0', credentials: creds['0'] } }, id, matchID, '0'], 'bad-request', /only moves/],
      [[moveAction({ move: 'cheat', args: [] }, '0', creds['0']), id, matchID, '0'], 'bad-request', /unknown move "cheat"/],
      [[moveAction({ move: 'play', args: [1, 2] }, '0', creds['0']), id, matchID, '0'], 'bad-request', /exactly one argument/],
      [[moveAction({ move: 'pin', args: [{ token: 'T01', space: 'B01' }] }, '0', creds['0']), id, matchID, '0'], 'invalid-move', /waits for "play", not "pin"/],
      [[moveAction({ move: 'play', args: [{ card: 'X'.repeat(300), as: 'value' }] }, '0', creds['0']), id, matchID, '0'], 'invalid-move', /./],
      // A move's argument is capped (1 KB of JSON) well below the frame limit, with the reason.
      [[moveAction({ move: 'play', args: [{ card: 'X'.repeat(5_000), as: 'value' }] }, '0', creds['0']), id, matchID, '0'], 'bad-request', /at most 1024 characters of JSON/],
      [[moveAction({ move: 'play', args: ['N01'] }, '0', creds['0']), id, matchID, '0'], 'invalid-move', /./],
      [[moveAction(good, '0', creds['0']), 'x', matchID, '0'], 'bad-request', /stateID/],
      [[moveAction(good, '0', creds['0']), id, { $gt: '' }, '0'], 'bad-request', /match ID/],
    ];
    for (const [args, type, message] of cases) {
      const e = await refused(s, 'update', ...args);
      expect(e.type, JSON.stringify(args).slice(0, 80)).toBe(type);
      expect(e.message).toMatch(message);
    }
    expect(await refused(s, 'sync', { matchID }, '0')).toMatchObject({ type: 'bad-request' });
    expect(await refused(s, 'sync', matchID, 7, creds['0'])).toMatchObject({ type: 'bad-request' });
    expect(await refused(s, 'hack', 1, 2)).toMatchObject({ type: 'bad-request', message: '"hack" is not accepted' });
    expect((await trueState(matchID))._stateID).toBe(id);

    // A frame over the size limit closes that socket only.
    const closed = next(s, 'disconnect');
    s.emit('update', moveAction({ move: 'play', args: ['y'.repeat(200_000)] }, '0', creds['0']), id, matchID, '0');
    await closed;
    expect((await api(t.url, '/healthz')).status).toBe(200);
    // And the same seat still plays normally afterwards.
    const again = await synced(matchID, '0', creds['0']);
    const updated = nextState(again.s);
    again.s.emit('update', moveAction(good, '0', creds['0']), id, matchID, '0');
    expect(await updated).toBe(id + 1);
    again.s.close();
  });

  it('tells a client with an out-of-date state so and resyncs it', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const st = await trueState(matchID);
    const { s } = await synced(matchID, '0', creds['0']);
    const resync = next<[string, SyncInfo]>(s, 'sync');
    const e = await refused(s, 'update', moveAction(legalMoves(st.G, '0')[0], '0', creds['0']), st._stateID - 1, matchID, '0');
    expect(e).toMatchObject({ type: 'stale' });
    expect((await resync)[1].state._stateID).toBe(st._stateID);
    s.close();
  });
});

describe("boardgame.io's stages never overrule the rules", () => {
  it("a legal move is applied even when a stored ctx names the wrong active player, and the next ctx follows the engine's prompt", async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const st = (await stored(t.store, matchID)).state!;
    // A stored state whose stages say Nixon may act while the rules wait for the Editor: the engine alone
    // decides who may move; boardgame.io's ctx is derived from it, never asked.
    const skewed = { ...st, _stateID: st._stateID + 1, ctx: { ...st.ctx, activePlayers: { '1': 'play' } } };
    const head = await t.store.head(matchID);
    const action = { type: 'MAKE_MOVE' as const, payload: { type: 'play', args: [], playerID: '0' } };
    await t.store.commitMove(matchID, { prevStateID: st._stateID, seatsVersion: head!.seatsVersion, state: skewed, action, log: [], updatedAt: Date.now(), snapshot: true });
    const { s } = await synced(matchID, '0', creds['0']);
    const nixon = await synced(matchID, '1', creds['1']);
    const byNixon = await refused(nixon.s, 'update', moveAction(legalMoves(st.G as WatergateState, '0')[0], '1', creds['1']), skewed._stateID, matchID, '1');
    expect(byNixon).toMatchObject({ type: 'invalid-move', message: 'it is not your decision' });
    const moved = next<unknown[]>(s, 'patch');
    s.emit('update', moveAction(legalMoves(st.G as WatergateState, '0')[0], '0', creds['0']), skewed._stateID, matchID, '0');
    await moved;
    const now = (await stored(t.store, matchID)).state as { G: WatergateState; ctx: { activePlayers: Record<string, string> }; _stateID: number };
    expect(now._stateID).toBe(skewed._stateID + 1);
    // The one active player is the one the rules wait for, in the stage of the move they expect.
    const decider = now.G.prompt!.player;
    expect(now.ctx.activePlayers).toEqual({ [decider]: legalMoves(now.G, decider)[0].move });
    s.close();
    nixon.s.close();
  });
});

describe('stale storage writes between two server processes', () => {
  it('are refused: the losing client is told, catches up and is resynced, the stored match intact', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const st = await trueState(matchID);
    // A second server on the same storage with no bus between them (as two processes while Redis is
    // down): both hold the match in memory, and a move saved by one is news the other has not heard.
    const shared = Object.create(t.store) as MatchStore;
    shared.close = async () => undefined;
    const { lines, log } = logCapture();
    const second: RunningServer = await startServer({ store: shared, port: 0, log });
    try {
      const m = legalMoves(st.G, '0')[0];
      const first = await synced(matchID, '0', creds['0']);
      const s2 = await rawSocket(second.url);
      const sync0 = next(s2, 'sync');
      s2.emit('sync', matchID, '0', creds['0'], 2);
      await sync0;

      const moved = nextState(first.s);
      first.s.emit('update', moveAction(m, '0', creds['0']), st._stateID, matchID, '0');
      await moved;
      const winner = await trueState(matchID);

      const caughtUp = nextState(s2);
      const resync = next<[string, SyncInfo]>(s2, 'sync');
      const e = await refused(s2, 'update', moveAction(m, '0', creds['0']), st._stateID, matchID, '0');
      expect(e).toMatchObject({ type: 'stale', message: 'another move was saved first: resyncing' });
      expect(await caughtUp).toBe(winner._stateID);
      expect((await resync)[1].state._stateID).toBe(winner._stateID);
      expect(await trueState(matchID)).toEqual(winner);
      const refusedWrites = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'stale write refused');
      expect(refusedWrites).toEqual([expect.objectContaining({ matchID, stored: winner._stateID, attempted: winner._stateID })]);
      expect(await second.metrics.registry.getSingleMetricAsString('wg_stale_writes_total')).toMatch(/wg_stale_writes_total 1\b/);
      first.s.close();
      s2.close();
    } finally {
      await second.close();
    }
  });
});
