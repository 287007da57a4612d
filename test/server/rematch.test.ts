/**
 * "Play again" (POST /games/watergate/:id/playAgain, protocol PlayAgainResponse): the first asker is
 * seated in the next match at once — in the other role unless `swap: false` — under the same name with
 * fresh credentials; the opponent accepting gets the seat left; asking twice gives a clear 409 and never
 * a second seat; the computer sits opposite its human at its level; both asking at once make one match
 * with both seated apart; everyone following the old match is told (NEXT_EVENT), also on a later sync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_EVENT, type NextMatch, type PlayAgainResponse } from '../../protocol/index';
import { authenticateCredentials } from '../../server/auth';
import { api, createAndJoin, next, postgresAvailable, rawSocket, startTestServer, stored, type Backend, type TestServer } from './helpers';

const hasPg = await postgresAvailable();

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded');
});
afterAll(async () => t?.stop());

const again = (url: string, matchID: string, body: object) => api(url, `/games/watergate/${matchID}/playAgain`, body);
const seatsOf = async (url: string, matchID: string) => (await api(url, `/games/watergate/${matchID}`)).body.players;

/** The stored seat accepts these credentials (and so a sync or a move with them). */
const holds = async (store: TestServer['store'], matchID: string, seat: string, credentials: string) =>
  authenticateCredentials(credentials, (await stored(store, matchID)).metadata.players[Number(seat)]);

describe('play again', () => {
  it('seats the first asker in the other role, the opponent in the seat left; asking twice is a 409 and never a second seat', async () => {
    const { matchID, creds } = await createAndJoin(t.url); // Woodward the Editor, Nixon as Nixon
    const first = await again(t.url, matchID, { playerID: '0', credentials: creds['0'] });
    expect(first.status).toBe(200);
    const a = first.body as PlayAgainResponse;
    expect(a).toEqual({ nextMatchID: expect.any(String), playerID: '1', playerCredentials: expect.any(String) });
    expect(a.playerCredentials).not.toBe(creds['0']);
    expect(await seatsOf(t.url, a.nextMatchID)).toEqual([{ id: 0 }, { id: 1, name: 'Woodward' }]);
    expect(await holds(t.store, a.nextMatchID, '1', a.playerCredentials)).toBe(true);
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.nextMatchID).toBe(a.nextMatchID);

    // The first asker again: refused, still one seat.
    const twice = await again(t.url, matchID, { playerID: '0', credentials: creds['0'] });
    expect(twice).toMatchObject({ status: 409, body: { error: `you already have a seat in the next match ${a.nextMatchID}: Nixon` } });
    expect(await seatsOf(t.url, a.nextMatchID)).toEqual([{ id: 0 }, { id: 1, name: 'Woodward' }]);

    const accept = await again(t.url, matchID, { playerID: '1', credentials: creds['1'] });
    expect(accept.status).toBe(200);
    const b = accept.body as PlayAgainResponse;
    expect(b).toMatchObject({ nextMatchID: a.nextMatchID, playerID: '0' });
    expect(await seatsOf(t.url, a.nextMatchID)).toEqual([
      { id: 0, name: 'Nixon' },
      { id: 1, name: 'Woodward' },
    ]);
    expect(await holds(t.store, a.nextMatchID, '0', b.playerCredentials)).toBe(true);
    expect(await holds(t.store, a.nextMatchID, '1', a.playerCredentials)).toBe(true);
    for (const seat of ['0', '1'] as const) expect(await again(t.url, matchID, { playerID: seat, credentials: creds[seat] })).toMatchObject({ status: 409 });
    // What the next match remembers of who came from where stays on the server.
    expect(JSON.stringify((await api(t.url, `/games/watergate/${a.nextMatchID}`)).body)).not.toContain('seatedFrom');
  });

  it('keeps the roles with swap: false', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const first = (await again(t.url, matchID, { playerID: '1', credentials: creds['1'], swap: false })).body as PlayAgainResponse;
    expect(first.playerID).toBe('1');
    const second = (await again(t.url, matchID, { playerID: '0', credentials: creds['0'] })).body as PlayAgainResponse;
    expect(second.playerID).toBe('0');
    expect(await seatsOf(t.url, first.nextMatchID)).toEqual([
      { id: 0, name: 'Woodward' },
      { id: 1, name: 'Nixon' },
    ]);
  });

  it('seats the computer opposite its human, at its level, with or without swapping', async () => {
    for (const [botSeat, level, swap, human, bot] of [
      ['1', 'easy', undefined, '1', '0'],
      ['0', 'hard', false, '1', '0'],
      ['0', 'normal', true, '0', '1'],
    ] as const) {
      const vs = (await api(t.url, '/games/watergate/vs-computer', { botSeat, level })).body;
      const joined = (await api(t.url, `/games/watergate/${vs.matchID}/join`, { playerID: vs.humanSeat, playerName: 'Ann' })).body;
      const res = await again(t.url, vs.matchID, { playerID: vs.humanSeat, credentials: joined.playerCredentials, ...(swap === undefined ? {} : { swap }) });
      expect(res.status).toBe(200);
      const r = res.body as PlayAgainResponse;
      expect(r.playerID).toBe(human);
      const seats = await seatsOf(t.url, r.nextMatchID);
      expect(seats[Number(human)]).toEqual({ id: Number(human), name: 'Ann' });
      expect(seats[Number(bot)]).toEqual({ id: Number(bot), name: 'Computer', data: { bot: level }, isConnected: true });
      expect((await api(t.url, `/games/watergate/${r.nextMatchID}`)).body.unlisted).toBe(true);
      // Nobody else can sit down in it, and the human cannot take a second seat.
      expect(await again(t.url, vs.matchID, { playerID: vs.humanSeat, credentials: joined.playerCredentials })).toMatchObject({
        status: 409,
        body: { error: expect.stringMatching(/^you already have a seat in the next match/) },
      });
    }
  });

  it('tells everyone following the old match of the next one, and a socket that syncs later too', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const follow = async (seat: '0' | '1' | null) => {
      const s = await rawSocket(t.url);
      const synced = next(s, 'sync');
      s.emit('sync', matchID, seat, seat === null ? undefined : creds[seat], 2);
      await synced;
      return s;
    };
    const sockets = [await follow('0'), await follow('1'), await follow(null)];
    const told = sockets.map((s) => next<[NextMatch]>(s, NEXT_EVENT));
    const { nextMatchID } = (await again(t.url, matchID, { playerID: '1', credentials: creds['1'] })).body as PlayAgainResponse;
    for (const event of await Promise.all(told)) expect(event).toEqual([{ matchID, nextMatchID }]);
    // A page that reloads after the invitation: its sync is followed by it.
    const late = await rawSocket(t.url);
    const order: string[] = [];
    late.onAny((event: string) => order.push(event));
    const lateTold = next<[NextMatch]>(late, NEXT_EVENT);
    late.emit('sync', matchID, '0', creds['0'], 2);
    expect(await lateTold).toEqual([{ matchID, nextMatchID }]);
    expect(order.indexOf('sync')).toBeLessThan(order.indexOf(NEXT_EVENT));
    for (const s of [...sockets, late]) s.close();
  });

  it('refuses bad requests clearly', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    expect(await again(t.url, matchID, { playerID: '0', credentials: creds['0'], swap: 'yes' })).toMatchObject({ status: 400, body: { error: 'swap must be true or false' } });
    expect(await again(t.url, matchID, { playerID: '0', credentials: creds['1'] })).toMatchObject({ status: 403 });
    expect(await again(t.url, 'nosuchmatch', { playerID: '0', credentials: creds['0'] })).toMatchObject({ status: 404 });
    expect(await again(t.url, matchID, { playerID: '0', credentials: creds['0'], colour: 'red' })).toMatchObject({ status: 400, body: { error: 'unknown field "colour"' } });
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.nextMatchID).toBeUndefined();
  });
});

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`both asking at once (${backend})`, () => {
    let u: TestServer;
    beforeAll(async () => {
      u = await startTestServer(backend);
    });
    afterAll(async () => u?.stop());

    it('makes one next match, with both players seated in different seats', async () => {
      for (let round = 0; round < 6; round++) {
        const { matchID, creds } = await createAndJoin(u.url);
        const swap = round % 2 === 0;
        const [x, y] = await Promise.all((['0', '1'] as const).map((seat) => again(u.url, matchID, { playerID: seat, credentials: creds[seat], swap })));
        expect([x.status, y.status]).toEqual([200, 200]);
        expect(x.body.nextMatchID).toBe(y.body.nextMatchID);
        expect(x.body.playerID).not.toBe(y.body.playerID);
        const next = x.body.nextMatchID as string;
        // Whoever came first chose: with swap both change roles, without both keep them.
        const names = swap ? ['Nixon', 'Woodward'] : ['Woodward', 'Nixon'];
        expect(await seatsOf(u.url, next)).toEqual(names.map((name, id) => ({ id, name })));
        for (const r of [x, y]) expect(await holds(u.store, next, r.body.playerID, r.body.playerCredentials)).toBe(true);
        expect(await again(u.url, matchID, { playerID: '0', credentials: creds['0'] })).toMatchObject({ status: 409 });
        expect((await u.store.listMatches()).filter((id) => id !== matchID && id === next)).toHaveLength(1);
      }
      // One next match per old one, no orphans: 2 matches per round.
      expect(await u.store.listMatches()).toHaveLength(12);
    });
  });
}
