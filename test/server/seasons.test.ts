/**
 * Seasons over HTTP on both backends: a quarter's table ranks players by points from rated wins only
 * (docs/EVENTS.md "Seasons"). What someone with two accounts would try counts nothing: a pair's fourth
 * game in a day (the rating rules' pair limit), casual games, and wins over the same opponent past the
 * season's cap; past seasons name their winners; hostile or future ids are 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from 'boardgame.io';
import { Watergate } from '../../game/index';
import { buildMatch } from '../../server/lobby/matches';
import { previous, seasonAt, SEASON_POINTS } from '../../server/seasons/season';
import type { MatchStore, MoveCommit } from '../../server/storage/types';
import { api, postgresAvailable, startTestServer, type TestServer } from './helpers';

const hasPg = await postgresAvailable();

const successor = (s: State, mark: number): State => ({ ...s, _stateID: s._stateID + 1, G: { ...s.G, mark } });
const moveCommit = (prev: State, next: State, seat: '0' | '1', extra: Partial<MoveCommit> = {}): MoveCommit => {
  const action = { type: 'MAKE_MOVE' as const, payload: { type: extra.gameover ? 'resign' : 'play', args: [], playerID: seat } };
  return { prevStateID: prev._stateID, seatsVersion: 0, state: next, action, log: [], updatedAt: 5_000 + next._stateID, snapshot: false, ...extra };
};

/** A game stored as the server stores one (each move through the store's write): Editor `ids[0]`, Nixon `ids[1]`, `winner` resigns the other at `at`. */
async function storedGame(store: MatchStore, matchID: string, ids: [string, string], winner: '0' | '1', at: number, rated = true): Promise<void> {
  for (const id of ids) if (!(await store.accounts.byID(id))) await store.accounts.create({ id, username: id, key: id.toLowerCase(), password: null, createdAt: 1 });
  const { initialState, metadata } = buildMatch(Watergate, undefined, false);
  metadata.rated = rated;
  ids.forEach((id, i) => ((metadata.players as Record<string, object>)[String(i)] = { id: i, name: id, credentials: `c${i}`, data: { account: { id, username: id } } }));
  await store.createMatch({ matchID, initialState, metadata });
  let s = initialState;
  for (const seat of ['0', '1'] as const) {
    const next = successor(s, 1);
    await store.commitMove(matchID, moveCommit(s, next, seat));
    s = next;
  }
  await store.commitMove(matchID, moveCommit(s, successor(s, 99), winner === '0' ? '1' : '0', { gameover: { winner, reason: 'resigned' }, updatedAt: at }));
}

describe('season bounds', () => {
  it('are calendar quarters in UTC: the last millisecond of a year is its Q4, the next one the new Q1', () => {
    expect(seasonAt(Date.UTC(2026, 11, 31, 23, 59, 59, 999)).id).toBe('2026-Q4');
    expect(seasonAt(Date.UTC(2027, 0, 1))).toEqual({ id: '2027-Q1', from: Date.UTC(2027, 0, 1), to: Date.UTC(2027, 3, 1) });
    expect(previous(seasonAt(Date.UTC(2026, 1, 10))).id).toBe('2025-Q4');
  });
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const backend of ['embedded', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`seasons over HTTP (${backend})`, () => {
    let t: TestServer;
    const cur = seasonAt(Date.now());
    const past = previous(cur);
    beforeAll(async () => {
      t = await startTestServer(backend);
      // Ace and Twin, one person's two accounts: four games on day one (the fourth is past the pair
      // limit, unrated), three more on day three (rated, but past the season's wins over one opponent).
      for (let i = 0; i < 4; i++) await storedGame(t.store, `twin-a${i}`, ['Ace', 'Twin'], '0', cur.from + HOUR + i * 1000);
      for (let i = 0; i < 3; i++) await storedGame(t.store, `twin-b${i}`, ['Ace', 'Twin'], '0', cur.from + 3 * DAY + i * 1000);
      // Bee wins once as Nixon and once as the Editor, against two players; a casual win counts nothing.
      await storedGame(t.store, 'bee1', ['Cee', 'Bee'], '1', cur.from + 2 * HOUR);
      await storedGame(t.store, 'bee2', ['Bee', 'Dee'], '0', cur.from + 3 * HOUR);
      await storedGame(t.store, 'casual', ['Dee', 'Cee'], '0', cur.from + 4 * HOUR, false);
      // The quarter before: Cee won it.
      await storedGame(t.store, 'old1', ['Cee', 'Dee'], '0', past.from + DAY);
    }, 60_000);
    afterAll(() => t?.stop());

    it("a season's table: points for rated wins only, the pair limit and the per-opponent cap applied", async () => {
      const r = await api(t.url, `/api/seasons/${cur.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: cur.id, from: cur.from, to: cur.to, current: true });
      const w = SEASON_POINTS.win;
      expect(r.body.table).toEqual([
        // 6 rated wins over Twin, 3 counted (the 4th game of day one was unrated: not even a game).
        { rank: 1, username: 'Ace', points: 3 * w['0'], wins: 3, games: 6 },
        { rank: 2, username: 'Bee', points: w['1'] + w['0'], wins: 2, games: 2 },
        // Equal points and wins share a rank (fewer games only orders the lines).
        { rank: 3, username: 'Cee', points: 0, wins: 0, games: 1 },
        { rank: 3, username: 'Dee', points: 0, wins: 0, games: 1 },
        { rank: 3, username: 'Twin', points: 0, wins: 0, games: 6 },
      ]);
    });

    it('the list: the current season and the past ones with their winners', async () => {
      const r = await api(t.url, '/api/seasons');
      expect(r.status).toBe(200);
      expect(r.body.current.id).toBe(cur.id);
      expect(r.body.current.table[0]).toMatchObject({ username: 'Ace' });
      expect(r.body.past).toHaveLength(4);
      expect(r.body.past[0]).toEqual({ id: past.id, from: past.from, to: past.to, winners: [{ rank: 1, username: 'Cee', points: SEASON_POINTS.win['0'], wins: 1, games: 1 }] });
      expect(r.body.past[1].winners).toEqual([]);
      const old = await api(t.url, `/api/seasons/${past.id}`);
      expect(old.body).toMatchObject({ current: false, table: [{ username: 'Cee' }, { username: 'Dee', points: 0 }] });
    });

    it('an unknown, malformed or future season is 404', async () => {
      for (const id of ['2026-Q5', 'x', `${'9'.repeat(300)}`, '1999-Q1x', '9999-Q4', encodeURIComponent("'; DROP TABLE wg_results; --")])
        expect((await api(t.url, `/api/seasons/${id}`)).status, id).toBe(404);
    });
  });
}
