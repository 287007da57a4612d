/**
 * Public match data (server/lobby/public.ts): the Lobby list, one match and the socket's matchData and
 * sync show a seat's name, presence and — for the server's bot — its level, never credentials or the
 * rest of a player's `data`; one match says whose decision it is; unlisted matches are never listed;
 * the list's query is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { legalMoves, type WatergateState } from '../../game/index';
import { api, next, rawSocket, startTestServer, stored, until, type TestServer } from './helpers';

const WEBHOOK = 'https://example.com/x';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded');
});
afterAll(async () => t?.stop());

/** A raw socket synced to a match, with every event it receives recorded. */
async function follow(matchID: string, seat: '0' | '1' | null, credentials?: string) {
  const s: Socket = await rawSocket(t.url);
  const received: { event: string; args: unknown[] }[] = [];
  s.onAny((event: string, ...args: unknown[]) => received.push({ event, args }));
  const synced = next<[string, { filteredMetadata: unknown[] }]>(s, 'sync');
  s.emit('sync', matchID, seat, credentials, 2);
  return { s, received, sync: (await synced)[1] };
}

const getMatch = async (matchID: string) => (await api(t.url, `/games/watergate/${matchID}`)).body;
const listed = async (query = '') => (await api(t.url, `/games/watergate${query}`)).body.matches as { matchID: string }[];

describe('public match data', () => {
  it('never shows what a player stored in data (a webhook), in the list, one match, matchData or sync', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const ann = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann', data: { notify: { webhook: WEBHOOK } } });
    expect(ann.status).toBe(200);
    const spectator = await follow(matchID, null);
    const seat0 = await follow(matchID, '0', ann.body.playerCredentials);
    const bob = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Bob' });
    await api(t.url, `/games/watergate/${matchID}/update`, { playerID: '1', credentials: bob.body.playerCredentials, data: { notify: { webhook: `${WEBHOOK}/bob` } } });
    const seats = [
      { id: 0, name: 'Ann', isConnected: true },
      { id: 1, name: 'Bob' },
    ];
    await until(async () => JSON.stringify((await getMatch(matchID)).players) === JSON.stringify(seats), 'Ann connected, Bob seated');
    // The joins, the presence and the update reached the sockets as matchData.
    const lastData = () => spectator.received.filter((m) => m.event === 'matchData').at(-1)?.args;
    await until(() => JSON.stringify(lastData()) === JSON.stringify([matchID, seats]), 'matchData deliveries');
    const late = await follow(matchID, null);
    expect(late.sync.filteredMetadata).toEqual(seats);

    const one = await getMatch(matchID);
    const inList = (await listed()).find((m) => m.matchID === matchID);
    expect(inList).toMatchObject({ matchID, gameName: 'watergate', players: seats, unlisted: false });
    // The seat's data is really stored: it is the server that keeps it to itself.
    expect((await stored(t.store, matchID)).metadata.players[0].data).toEqual({ notify: { webhook: WEBHOOK } });
    for (const text of [JSON.stringify(one), JSON.stringify(inList), JSON.stringify(spectator.received), JSON.stringify(seat0.received), JSON.stringify(late.received)]) {
      expect(text).not.toContain('example.com');
      expect(text).not.toContain('notify');
      expect(text).not.toContain('credentials');
      expect(text).not.toContain(ann.body.playerCredentials);
    }
    for (const f of [spectator, seat0, late]) f.s.close();
  });

  it("shows the computer's seat with its level, without its credentials", async () => {
    const { matchID } = (await api(t.url, '/games/watergate/vs-computer', { botSeat: '1', level: 'hard' })).body;
    const bot = { id: 1, name: 'Computer', data: { bot: 'hard' }, isConnected: true };
    expect((await getMatch(matchID)).players).toEqual([{ id: 0 }, bot]);
    const f = await follow(matchID, null);
    expect(f.sync.filteredMetadata).toEqual([{ id: 0 }, bot]);
    const creds = (await stored(t.store, matchID)).metadata.players[1].credentials as string;
    expect(JSON.stringify(await getMatch(matchID))).not.toContain(creds);
    expect(JSON.stringify(f.received)).not.toContain(creds);
    f.s.close();
  });

  it('says whose decision it is: nobody before both seats are taken, the prompted seat during play, nobody after', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    expect((await getMatch(matchID)).toMove).toBeNull();
    await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' });
    expect((await getMatch(matchID)).toMove).toBeNull();
    await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Bob' });
    const seen = new Set<string>();
    for (let i = 0; i < 40 && seen.size < 2; i++) {
      const G = (await stored(t.store, matchID)).state.G as WatergateState;
      const p = G.prompt!.player as '0' | '1';
      expect((await getMatch(matchID)).toMove, `move ${i}`).toBe(p);
      seen.add(p);
      const m = legalMoves(G, p)[0];
      expect(await t.server.move(matchID, p, m.move, m.args[0])).toBeNull();
    }
    expect([...seen].sort()).toEqual(['0', '1']);
    // A match no process holds in memory is read from storage.
    const fresh = (await api(t.url, '/games/watergate/create', {})).body.matchID as string;
    await api(t.url, `/games/watergate/${fresh}/join`, { playerID: '0', playerName: 'C' });
    await api(t.url, `/games/watergate/${fresh}/join`, { playerID: '1', playerName: 'D' });
    expect(t.server.service.peek(fresh)).toBeUndefined();
    expect((await getMatch(fresh)).toMove).toBe('0');

    expect(await t.server.move(matchID, '1', 'resign', undefined)).toBeNull();
    const over = await getMatch(matchID);
    expect(over).toMatchObject({ toMove: null, gameover: { winner: '0', reason: 'resigned' } });
    // The list says nothing of turns.
    expect((await listed()).find((m) => m.matchID === matchID)).not.toHaveProperty('toMove');
  });

  it("lists with boardgame.io's query (isGameover, updatedBefore, updatedAfter), never an unlisted match, and refuses a bad query naming it", async () => {
    const open = (await api(t.url, '/games/watergate/create', {})).body.matchID as string;
    const hidden = (await api(t.url, '/games/watergate/create', { unlisted: true })).body.matchID as string;
    const done = (await api(t.url, '/games/watergate/create', {})).body.matchID as string;
    const a = await api(t.url, `/games/watergate/${done}/join`, { playerID: '0', playerName: 'A' });
    await api(t.url, `/games/watergate/${done}/join`, { playerID: '1', playerName: 'B' });
    expect(a.status).toBe(200);
    expect(await t.server.move(done, '0', 'resign', undefined)).toBeNull();
    const ids = async (q = '') => (await listed(q)).map((m) => m.matchID);

    expect(await ids()).toEqual(expect.arrayContaining([open, done]));
    expect(await ids()).not.toContain(hidden);
    expect((await getMatch(hidden)).unlisted).toBe(true); // found by id all the same
    expect(await ids('?isGameover=true')).toContain(done);
    expect(await ids('?isGameover=true')).not.toContain(open);
    expect(await ids('?isGameover=FALSE')).toContain(open);
    expect(await ids('?isGameover=false')).not.toContain(done);
    expect(await ids('?isGameover=false')).not.toContain(hidden);
    const { updatedAt } = await getMatch(open);
    expect(await ids(`?updatedAfter=${updatedAt - 1}`)).toContain(open);
    expect(await ids(`?updatedAfter=${updatedAt}`)).not.toContain(open);
    expect(await ids(`?updatedBefore=${updatedAt + 1}`)).toContain(open);
    expect(await ids(`?updatedBefore=${updatedAt}`)).not.toContain(open);
    expect(await ids('?isGameover=&updatedAfter=')).toContain(open); // empty means absent, as in boardgame.io

    for (const [query, name] of [
      ['?isGameover=maybe', 'isGameover'],
      ['?isGameover=true&isGameover=false', 'isGameover'],
      ['?updatedBefore=yesterday', 'updatedBefore'],
      ['?updatedBefore=-5', 'updatedBefore'],
      ['?updatedAfter=1.5', 'updatedAfter'],
      ['?updatedAfter=0', 'updatedAfter'],
    ]) {
      const r = await api(t.url, `/games/watergate${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error, query).toMatch(new RegExp(`^${name} must`));
    }
    expect(await api(t.url, '/games/chess')).toMatchObject({ status: 404, body: { error: 'game "chess" not found' } });
    expect(await api(t.url, '/games/watergate/nosuchmatch')).toMatchObject({ status: 404, body: { error: 'match nosuchmatch not found' } });
  });
});
