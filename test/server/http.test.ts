/** The rest of what one port serves: the built client with page fallback, /healthz, chat, config, seams. */
import fs, { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Server } from 'boardgame.io';
import { legalMoves, type WatergateState } from '../../game/index';
import { configFromEnv } from '../../server/config';
import { PER_SOCKET_DEFAULTS } from '../../server/metrics';
import { api, createAndJoin, next, nextState, player, rawSocket, startTestServer, until, type TestServer, stored } from './helpers';

describe('one port for pages, API and sockets', () => {
  const clientDir = mkdtempSync(join(tmpdir(), 'wg-client-'));
  const created: { matchID: string; metadata: Server.MatchData }[] = [];
  const botMatches = new Set<string>();
  let t: TestServer;
  beforeAll(async () => {
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Watergate</title><div id="root"></div>');
    writeFileSync(join(clientDir, 'assets', 'app.js'), 'console.log("board")');
    t = await startTestServer('embedded', {
      clientDir,
      onMatchCreated: (e) => void created.push(e),
      // A minimal bot on seat 1 of the matches in botMatches: answers whenever it is its decision.
      onMoveSaved: async ({ matchID, state }) => {
        const G = state.G as WatergateState;
        if (!botMatches.has(matchID) || G.winner !== null || G.prompt?.player !== '1') return;
        const m = legalMoves(G, '1')[0];
        expect(await t.server.move(matchID, '1', m.move, m.args[0])).toBeNull();
      },
      extend: ({ router }) => {
        router.get('/games/watergate/extra/ping', (ctx) => {
          ctx.body = { pong: true };
        });
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('serves the built client, the page at / only (its routes are hash routes), never for API paths', async () => {
    const home = await fetch(t.url + '/');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<title>Watergate</title>');
    expect(await (await fetch(t.url + '/assets/app.js')).text()).toContain('board');
    // The page's relative asset URLs would not load from /match/…: a 404 says so, not a broken page.
    const page = await fetch(t.url + '/match/abc123', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain('<title>');
    expect((await fetch(t.url + '/assets/missing.js', { headers: { accept: 'application/javascript' } })).status).toBe(404);
    const apiMiss = await fetch(t.url + '/games/watergate/nosuchmatch', { headers: { accept: 'text/html' } });
    expect(apiMiss.status).toBe(404);
    expect(await apiMiss.text()).not.toContain('<title>');
  });

  it('answers /healthz with the storage in use', async () => {
    expect(await api(t.url, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok', storage: 'embedded' } });
  });

  it('runs onMatchCreated for new and play-again matches, and serves routes added through extend', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    expect(created.map((c) => c.matchID)).toContain(matchID);
    const again = await api(t.url, `/games/watergate/${matchID}/playAgain`, { playerID: '0', credentials: creds['0'] });
    expect(created.map((c) => c.matchID)).toContain(again.body.nextMatchID);
    expect((await api(t.url, '/games/watergate/extra/ping')).body).toEqual({ pong: true });
  });

  it('lets the server play a seat itself (the bot seam): same rules, same broadcasts', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const human = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ben' });
    await t.store.updateMetadata(matchID, (m) => ({ ...m, players: { ...m.players, 1: { id: 1, name: 'Computer', credentials: 'bot-secret-1234' } } }));
    expect(await t.server.move(matchID, '1', 'play', { card: 'N01', as: 'value' })).toBe('it is not your decision');
    expect(await t.server.move('nosuchmatch', '1', 'play', {})).toBe('match nosuchmatch not found');
    botMatches.add(matchID);
    const ben = player(t.url, matchID, '0', human.body.playerCredentials);
    try {
      await until(() => ben.state() !== null, 'sync');
      for (let i = 0; i < 8; i++) {
        const { state } = await stored(t.store, matchID);
        const G = state.G as WatergateState;
        if (G.winner !== null) break;
        await until(() => ben.state()!._stateID === state._stateID && ben.state()!.G.prompt?.player === '0', 'the human\'s turn');
        const m = legalMoves((await stored(t.store, matchID)).state.G as WatergateState, '0')[0];
        (ben.client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
        await until(() => ben.state()!._stateID > state._stateID, 'the move');
      }
      const { state } = await stored(t.store, matchID);
      const byBot = (state.G as WatergateState).log.filter((e) => e.player === '1').length;
      expect(byBot).toBeGreaterThan(0);
      await until(async () => ben.state()!._stateID === (await stored(t.store, matchID)).state._stateID, 'the client to see the bot\'s moves');
    } finally {
      ben.stop();
    }
  });

  it('counts what an operator watches on /metrics (Prometheus text): moves, latency, sockets, matches, storage, refusals', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const s = await rawSocket(t.url);
    const synced = next<[string, { state: { G: WatergateState; _stateID: number } }]>(s, 'sync');
    s.emit('sync', matchID, '0', creds['0'], 2);
    const { state } = (await synced)[1];
    const refused = next(s, 'watergate:error');
    s.emit('update', { type: 'MAKE_MOVE', payload: { type: 'pin', args: [{}], playerID: '0', credentials: creds['0'] } }, state._stateID, matchID, '0');
    await refused;
    const m = legalMoves(state.G, '0')[0];
    const moved = nextState(s);
    s.emit('update', { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: '0', credentials: creds['0'] } }, state._stateID, matchID, '0');
    await moved;
    const res = await fetch(`${t.url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    const value = (line: string) => Number(text.split('\n').find((l) => l.startsWith(`${line} `))?.split(' ')[1]);
    expect(value('wg_moves_total')).toBeGreaterThanOrEqual(1);
    expect(value('wg_move_duration_seconds_count')).toBe(value('wg_moves_total'));
    expect(value('wg_open_sockets')).toBeGreaterThanOrEqual(1);
    expect(value('wg_active_matches')).toBeGreaterThanOrEqual(1);
    expect(value('wg_storage_duration_seconds_count{op="move"}')).toBeGreaterThanOrEqual(1);
    expect(value('wg_refusals_total{type="invalid-move"}')).toBeGreaterThanOrEqual(1);
    expect(value('wg_bus_up')).toBe(1);
    expect(text).toContain('wg_bot_think_seconds_bucket');
    expect(text).toContain('wg_process_resident_memory_bytes');
    // Nothing that names a match or a player.
    expect(text).not.toContain(matchID);
    s.close();
  });

  it('/metrics counts the open descriptors without listing them on the event loop, and nothing per socket', async () => {
    const read = async () => {
      const text = await (await fetch(`${t.url}/metrics`)).text();
      return { text, fds: Number(text.split('\n').find((l) => l.startsWith('wg_process_open_fds '))?.split(' ')[1]) };
    };
    // prom-client's own gauge listed /proc/self/fd with readdirSync: ~40 ms of a stopped loop at 20,000 sockets.
    const listedOnTheLoop = vi.spyOn(fs, 'readdirSync');
    try {
      const before = await read();
      const opened = Array.from({ length: 300 }, () => fs.openSync('/dev/null', 'r'));
      const during = await read();
      for (const fd of opened) fs.closeSync(fd);
      const after = await read();
      expect(during.fds - before.fds).toBeGreaterThanOrEqual(295);
      expect(during.fds - before.fds).toBeLessThanOrEqual(305);
      expect(Math.abs(after.fds - before.fds)).toBeLessThanOrEqual(5);
      expect(listedOnTheLoop.mock.calls.filter(([dir]) => String(dir).startsWith('/proc/'))).toEqual([]);
      // The handles and resources, an object or a string per socket at each scrape: not served.
      for (const name of PER_SOCKET_DEFAULTS.filter((n) => n !== 'process_open_fds')) expect(after.text).not.toMatch(new RegExp(`^wg_${name}[ {]`, 'm'));
      expect(after.text).toMatch(/^wg_open_sockets /m);
    } finally {
      listedOnTheLoop.mockRestore();
    }
  });

  it('/metrics read by a flood of 200 at once: all answered, one listing of the descriptors shared, the server still plays', async () => {
    // How many listings of the descriptors are under way at once (each is a task in libuv's threads).
    const readdir = fs.promises.readdir.bind(fs.promises) as (dir: string) => Promise<string[]>;
    let under = 0;
    let most = 0;
    let listed = 0;
    const listings = vi.spyOn(fs.promises, 'readdir').mockImplementation(((dir: string) => {
      if (dir !== '/proc/self/fd') return readdir(dir);
      listed++;
      most = Math.max(most, ++under);
      return readdir(dir).finally(() => under--);
    }) as never);
    try {
      const reads = await Promise.all(Array.from({ length: 200 }, () => fetch(`${t.url}/metrics`).then(async (r) => ({ status: r.status, text: await r.text() }))));
      expect(reads.every((r) => r.status === 200 && /^wg_process_open_fds \d+$/m.test(r.text))).toBe(true);
      expect(listed).toBeGreaterThanOrEqual(1);
      expect(most).toBe(1);
    } finally {
      listings.mockRestore();
    }
    const { matchID, creds } = await createAndJoin(t.url);
    const s = await rawSocket(t.url);
    const synced = next<[string, { state: { G: WatergateState; _stateID: number } }]>(s, 'sync');
    s.emit('sync', matchID, '0', creds['0'], 2);
    const { state } = (await synced)[1];
    const m = legalMoves(state.G, '0')[0];
    const moved = nextState(s);
    s.emit('update', { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: '0', credentials: creds['0'] } }, state._stateID, matchID, '0');
    expect(await moved).toBeGreaterThan(state._stateID);
    s.close();
  });

  it('relays chat only from a seated player speaking as itself', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const [a, b] = [await rawSocket(t.url), await rawSocket(t.url)];
    for (const [s, seat] of [[a, '0'], [b, '1']] as const) {
      const synced = next(s, 'sync');
      s.emit('sync', matchID, seat, creds[seat], 2);
      await synced;
    }
    const heard = next<[string, { sender: string; payload: string }]>(b, 'chat');
    a.emit('chat', matchID, { id: 'c1', sender: '0', payload: 'hello' }, creds['0']);
    expect((await heard)[1]).toMatchObject({ sender: '0', payload: 'hello' });
    const refused = next<[{ type: string }]>(a, 'watergate:error');
    a.emit('chat', matchID, { id: 'c2', sender: '1', payload: 'I resign' }, creds['0']);
    expect((await refused)[0].type).toBe('bad-request');
    a.close();
    b.close();
  });
});

describe('configuration from the environment', () => {
  it('has the documented defaults and refuses a bad PORT clearly', () => {
    const c = configFromEnv({});
    expect(c).toMatchObject({ port: 8000, host: '127.0.0.1', origins: [], logLevel: 'info', databaseUrl: undefined, databaseSchema: 'public' });
    expect(c.dataDir).toMatch(/\/data$/);
    expect(configFromEnv({ PORT: '9000', HOST: '0.0.0.0', ORIGINS: 'https://a.example, http://localhost:*' })).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      origins: ['https://a.example', 'http://localhost:*'],
    });
    expect(() => configFromEnv({ PORT: 'eighty' })).toThrow(/PORT must be a port number/);
  });

  it('takes a password cost from 10 to 20 (log2 of scrypt N), shipped at 15 when unset, and refuses any other', () => {
    expect(configFromEnv({}).passwordCost).toBeUndefined();
    expect(configFromEnv({ PASSWORD_COST: '16' }).passwordCost).toBe(16);
    for (const bad of ['9', '21', '12.5', 'low']) expect(() => configFromEnv({ PASSWORD_COST: bad }), bad).toThrow(/PASSWORD_COST must be a whole number from 10 to 20/);
  });
});
