/**
 * Clocks: the clock's arithmetic, then the server keeping it — a game whose player does not
 * move ends on time (also when the server is killed with SIGKILL and started again meanwhile), a move
 * charges only the decider and earns the increment, `onTimeout: "bot"` hands the seat to the computer
 * until its owner takes it back, and no client can send the server's own `timeout` move.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import type { GuardError, MatchClock } from '../../protocol/index';
import { afterMove, expired, startClock, takeBack, timeLeft } from '../../server/match/clock';
import { handOverRefusal } from '../../server/lobby/standin';
import type { MatchData } from '../../server/storage/types';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { api, createAndJoin, next, nextStatus, rawSocket, startTestServer, stored, until, type TestServer } from './helpers';

const LIVE = { initialSeconds: 600, incrementSeconds: 10, onTimeout: 'lose' as const };

describe('the clock, as data', () => {
  it('runs only for the player the game waits for, and a decision of that player earns the increment', () => {
    const c0 = startClock(LIVE, '0', 3, 1_000);
    expect(c0).toEqual({ remaining: { '0': 600_000, '1': 600_000 }, running: '0', since: 1_000, stateID: 3, deadline: 601_000 });
    expect(timeLeft(c0, '0', 31_000)).toBe(570_000);
    expect(timeLeft(c0, '1', 31_000)).toBe(600_000); // Nixon's clock stands while the Editor decides
    // The Editor decides after 30 s; Nixon must react: the Editor is charged 30 s and earns 10.
    const c1 = afterMove(c0, LIVE, '0', '1', 4, 31_000);
    expect(c1).toEqual({ remaining: { '0': 580_000, '1': 600_000 }, running: '1', since: 31_000, stateID: 4, deadline: 631_000 });
    // Nixon resigns out of turn? Only the running seat's decisions earn time: here the Editor (not running) moves.
    const c2 = afterMove(c1, LIVE, '0', '0', 5, 41_000);
    expect(c2.remaining).toEqual({ '0': 580_000, '1': 590_000 });
    // Game over: nobody's clock runs.
    expect(afterMove(c2, LIVE, '0', null, 6, 50_000)).toMatchObject({ running: null, deadline: null, remaining: { '0': 581_000, '1': 590_000 } });
  });

  it('never goes below zero, expires only for its own state, and a seat taken back gets at least a minute', () => {
    const c = startClock({ ...LIVE, initialSeconds: 5 }, '1', 7, 0);
    expect(timeLeft(c, '1', 9_000)).toBe(0);
    expect(expired(c, 7, 4_999)).toBe(false);
    expect(expired(c, 7, 5_000)).toBe(true);
    expect(expired(c, 8, 9_000)).toBe(false); // a later state: that decision was made
    const back = takeBack(c, { ...LIVE, incrementSeconds: 0 }, '1', 9_000);
    expect(back).toMatchObject({ running: '1', since: 9_000, deadline: 69_000 });
    expect(back.remaining['1']).toBe(60_000);
    expect(takeBack(c, { ...LIVE, incrementSeconds: 120 }, '1', 9_000).remaining['1']).toBe(120_000);
  });
});

describe('handing an away seat to the computer', () => {
  const seated = (extra: Partial<MatchData> = {}): MatchData =>
    ({ gameName: 'watergate', createdAt: 0, updatedAt: 0, players: { 0: { id: 0, name: 'Ann' }, 1: { id: 1, name: 'Bob' } }, setupData: { abandonMinutes: 5 }, ...extra }) as MatchData;
  it('only after the match\'s abandonMinutes away, for a seated human the computer does not already play', () => {
    const now = 10 * 60_000;
    expect(handOverRefusal(seated({ away: { '1': now - 5 * 60_000 } }), '1', now)).toBeNull();
    expect(handOverRefusal(seated({ away: { '1': now - 4 * 60_000 } }), '1', now)).toBe('Nixon has been away for less than 5 minutes');
    expect(handOverRefusal(seated(), '1', now)).toBe('Nixon is connected');
    expect(handOverRefusal(seated({ setupData: {}, away: { '1': 0 } }), '1', now)).toBe('this match was created without handing over away seats (abandonMinutes)');
    expect(handOverRefusal(seated({ away: { '0': 0 }, standIns: { '0': { level: 'normal', reason: 'time', since: 0 } } }), '0', now)).toBe('the computer already stands in for the Editor');
    const bot = seated({ away: { '1': 0 } });
    bot.players[1] = { id: 1, name: 'Computer', data: { bot: 'easy' } } as never;
    expect(handOverRefusal(bot, '1', now)).toBe('the computer already plays Nixon');
    const open = seated({ away: { '1': 0 } });
    open.players[1] = { id: 1 } as never;
    expect(handOverRefusal(open, '1', now)).toBe('the game has not started: both seats must be taken');
  });
});

const meta = async (url: string, matchID: string) => (await api(url, `/games/watergate/${matchID}`)).body;

describe('the server keeps the clock', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { bots: { threads: 1 } });
  });
  afterAll(async () => t?.stop());

  it('a player who does not move loses on time ("lose"): reason "time", said in the record', async () => {
    const { matchID } = await createAndJoin(t.url, { clock: { initialSeconds: 2, incrementSeconds: 0, onTimeout: 'lose' } });
    const m0 = await meta(t.url, matchID);
    expect(m0.gameover).toBeUndefined();
    await until(async () => (await meta(t.url, matchID)).gameover !== undefined, 'the game over on time', 15_000);
    // The Editor owes the first decision: Nixon wins.
    expect((await meta(t.url, matchID)).gameover).toEqual({ winner: '1', reason: 'time' });
    const { state, metadata } = await stored(t.store, matchID);
    expect(state.ctx.gameover).toEqual({ winner: '1', reason: 'time' });
    expect(state.G.log.at(-1)).toMatchObject({ key: 'win.time', player: '1' });
    expect(metadata.clock).toMatchObject({ running: null, deadline: null });
    expect(metadata.clock.remaining['0']).toBe(0);
  });

  it('a move charges the decider, earns the increment and starts the other clock; the sockets are told', async () => {
    const started = Date.now();
    const { matchID, creds } = await createAndJoin(t.url, { clock: { initialSeconds: 600, incrementSeconds: 7 } });
    await until(async () => (await stored(t.store, matchID)).metadata.clock !== undefined, 'the clock started');
    const watcher = await rawSocket(t.url);
    const status = next<[{ clock: MatchClock; now: number }]>(watcher, 'watergate:status');
    watcher.emit('sync', matchID, '0', creds['0'], 2);
    const first = (await status)[0];
    expect(first.clock).toMatchObject({ running: '0', remaining: { '0': 600_000, '1': 600_000 } });
    const { state } = await stored(t.store, matchID);
    const G = state.G as WatergateState;
    const choice = legalMoves(G, '0')[0];
    const after = nextStatus(watcher);
    expect(await t.server.move(matchID, '0', choice.move, choice.args[0])).toBeNull();
    const moved = Date.now();
    const c = (await after).clock!;
    // The Editor lost no more than the time its clock could have run, and earned the 7 s.
    const spent = 600_000 + 7_000 - c.remaining['0'];
    expect(spent).toBeGreaterThanOrEqual(0);
    expect(spent).toBeLessThan(10_000);
    expect(spent).toBeLessThanOrEqual(moved - started);
    // Nixon has not been asked anything yet: none of his time is gone, whoever decides next.
    expect(c.remaining['1']).toBe(600_000);
    const decider = (await stored(t.store, matchID)).state.G.prompt.player as '0' | '1';
    expect(c.running).toBe(decider);
    // The decider's time runs from the move: it ends exactly when what is left of it is spent.
    expect(c.since).toBeGreaterThanOrEqual(started);
    expect(c.since).toBeLessThanOrEqual(moved);
    expect(c.deadline).toBe(c.since + c.remaining[decider]);
    expect((await stored(t.store, matchID)).metadata.clock).toEqual(c);
    watcher.close();
  });

  it('"bot": the computer plays the seat whose time ran out until its owner takes it back', async () => {
    const { matchID, creds } = await createAndJoin(t.url, { clock: { initialSeconds: 1, incrementSeconds: 0, onTimeout: 'bot' } });
    await until(async () => (await stored(t.store, matchID)).metadata.standIns?.['0'] !== undefined, 'the computer stands in for the Editor', 15_000);
    expect((await stored(t.store, matchID)).metadata.standIns['0']).toMatchObject({ level: 'normal', reason: 'time' });
    // The computer makes the Editor's decision; the game goes on (Nixon's time now runs).
    await until(async () => (await stored(t.store, matchID)).state._stateID > 0 || (await stored(t.store, matchID)).metadata.gameover !== undefined, 'a move by the computer', 30_000);
    expect((await stored(t.store, matchID)).state.G.log.some((l: { player: string | null }) => l.player === '0')).toBe(true);
    // Only the owner may take the seat back; then the seat is theirs, with a minute at least.
    expect((await api(t.url, `/games/watergate/${matchID}/takeBack`, { playerID: '0', credentials: creds['1'] })).status).toBe(403);
    expect((await api(t.url, `/games/watergate/${matchID}/takeBack`, { playerID: '1', credentials: creds['1'] })).body).toEqual({ error: 'the computer is not playing your seat' });
    const back = await api(t.url, `/games/watergate/${matchID}/takeBack`, { playerID: '0', credentials: creds['0'] });
    expect(back.status).toBe(200);
    const { metadata } = await stored(t.store, matchID);
    expect(metadata.standIns['0']).toBeUndefined();
    expect(metadata.clock.remaining['0']).toBeGreaterThanOrEqual(60_000);
  });

  it('no client can send the server\'s timeout move, and bad clock settings get 400 naming the field', async () => {
    const { matchID, creds } = await createAndJoin(t.url, { clock: { initialSeconds: 600 } });
    const s = await rawSocket(t.url);
    const synced = next<[string, { state: { _stateID: number } }]>(s, 'sync');
    s.emit('sync', matchID, '0', creds['0'], 2);
    const stateID = (await synced)[1].state._stateID;
    const refused = next<[GuardError]>(s, 'watergate:error');
    s.emit('update', { type: 'MAKE_MOVE', payload: { type: 'timeout', args: [], playerID: '0', credentials: creds['0'] } }, stateID, matchID, '0');
    expect((await refused)[0]).toMatchObject({ type: 'bad-request', message: 'unknown move "timeout"' });
    s.close();
    expect((await stored(t.store, matchID)).state.ctx.gameover).toBeUndefined();
    const bad = await api(t.url, '/games/watergate/create', { numPlayers: 2, setupData: { clock: { initialSeconds: 0 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('clock.initialSeconds');
  });
});

describe('a clock survives the server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wg-clock-'));
  const children: ServerProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('killed with SIGKILL and started again meanwhile, the server still ends the game on time', { timeout: 60_000 }, async () => {
    const env = { DATA_DIR: dir };
    const first = await startServerProcess(env, await freePort());
    children.push(first);
    const { matchID } = await createAndJoin(first.url, { clock: { initialSeconds: 4, incrementSeconds: 0, onTimeout: 'lose' } });
    await until(async () => (await meta(first.url, matchID)).gameover === undefined, 'the match is stored');
    await new Promise((r) => setTimeout(r, 1_000));
    first.proc.kill('SIGKILL');
    await first.exited;
    const second = await startServerProcess(env, await freePort());
    children.push(second);
    await until(async () => (await meta(second.url, matchID)).gameover !== undefined, 'the game over on time after the restart', 20_000);
    expect((await meta(second.url, matchID)).gameover).toEqual({ winner: '1', reason: 'time' });
  });
});
