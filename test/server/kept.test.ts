/**
 * A served match keeps its log and its first state as text (server/match/kept.ts). What a client syncing
 * in the middle of a game receives is unchanged by it: every move's log entries in order — the same
 * entries the moves' updates carried one by one — and the match's first state. The abort rule reads the
 * same kept log (test/server/endings.test.ts). Each read is a copy its reader may change.
 */
import type { LogEntry, State } from 'boardgame.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptLog, KeptState } from '../../server/match/kept';
import { createAndJoin, play, player, startTestServer, until, type TestServer } from './helpers';

const entry = (stateID: number, type: string): LogEntry => ({ action: { type: 'MAKE_MOVE', payload: { type, args: [stateID], playerID: '0' } }, _stateID: stateID, turn: 1, phase: 'cards' }) as LogEntry;

describe('kept as text', () => {
  it('a log reads back as every push in order, empty pushes adding nothing, each read a copy of its own', () => {
    const log = new KeptLog([entry(0, 'play')]);
    log.push([]);
    log.push([entry(1, 'answer'), entry(2, 'pin')]);
    const read = log.entries();
    expect(read.map((e) => [e._stateID, (e.action.payload as { type: string }).type])).toEqual([[0, 'play'], [1, 'answer'], [2, 'pin']]);
    (read[0].action.payload as { type: string }).type = 'changed';
    read.pop();
    expect(log.entries()).toHaveLength(3);
    expect((log.entries()[0].action.payload as { type: string }).type).toBe('play');
    expect(new KeptLog().entries()).toEqual([]);
  });

  it('a state reads back equal, each read a copy of its own', () => {
    const state = { G: { hands: { '0': ['a'] } }, ctx: { turn: 1 }, plugins: {}, _stateID: 0 } as unknown as State;
    const kept = new KeptState(state);
    const read = kept.get() as unknown as { G: { hands: Record<string, string[]> } };
    expect(read).toEqual(state);
    read.G.hands['0'].push('b');
    expect(kept.get()).toEqual(state);
  });
});

describe('a client syncing in the middle of a game, over a real socket', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('embedded');
  });
  afterAll(async () => {
    await s?.stop();
  });

  it("gets the whole log, as the moves' updates carried it, and the match's first state", async () => {
    const { matchID, creds } = await createAndJoin(s.url);
    const players = { '0': player(s.url, matchID, '0', creds['0']), '1': player(s.url, matchID, '1', creds['1']) };
    await until(() => players['0'].state() !== null && players['1'].state() !== null, 'both players synced');
    const first = players['0'].received.find((m) => m.event === 'sync')!.args[1] as { log: LogEntry[]; initialState: State };
    await play(players, 12);
    // Each move's entries as they came to seat 0: a patch carries them 5th, a whole update 3rd.
    const carried = [...first.log, ...players['0'].received.flatMap((m) => (m.event === 'patch' ? (m.args[4] as LogEntry[]) : m.event === 'update' ? (m.args[2] as LogEntry[]) : []))];
    const late = player(s.url, matchID, '0', creds['0']);
    await until(() => late.state()?._stateID === players['0'].state()!._stateID, 'the late client synced');
    const sync = late.received.find((m) => m.event === 'sync')!.args[1] as { log: LogEntry[]; initialState: State };
    expect(sync.log.filter((e) => e.action.type === 'MAKE_MOVE').length).toBeGreaterThanOrEqual(12);
    expect(sync.log).toEqual(carried);
    expect(sync.initialState).toEqual(first.initialState);
    expect(sync.initialState._stateID).toBe(0);
    for (const p of [players['0'], players['1'], late]) p.stop();
  }, 120_000);
});
