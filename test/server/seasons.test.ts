/**
 * Seasons over HTTP on both backends: a quarter's table ranks players by points from rated wins only
 * (docs/EVENTS.md "Seasons"). What someone with two accounts would try counts nothing: a pair's fourth
 * game in a day (the rating rules' pair limit), casual games, wins over a fresh (provisional) account,
 * wins over the same opponent past the season's cap, and a player with fewer distinct established
 * opponents than the minimum is not listed; past seasons name their winners; hostile or future ids are 404.
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
    /**
     * Established players (their Nixon rating no longer provisional: PROVISIONAL_RD) made by VETERAN_GAMES
     * rated games each against fresh sparring accounts, one game a pair (no pair limit), at `at`.
     */
    const VETERAN_GAMES = 22;
    const veterans = async (names: string[], at: number) => {
      for (const v of names) for (let i = 0; i < VETERAN_GAMES; i++) await storedGame(t.store, `${v}-spar${i}`, [`${v}Spar${i}`, v], i % 2 ? '0' : '1', at + i * 1000);
    };
    beforeAll(async () => {
      t = await startTestServer(backend);
      await veterans(['Twin', 'Cee', 'Dee', 'Eve'], cur.from + 60_000);
      // Ace and Twin, one person's two accounts: four games on day one (the fourth is past the pair
      // limit, unrated), three more on day three. Ace's wins over (established) Twin count three, but Ace
      // has one opponent: not listed.
      for (let i = 0; i < 4; i++) await storedGame(t.store, `twin-a${i}`, ['Ace', 'Twin'], '0', cur.from + HOUR + i * 1000);
      for (let i = 0; i < 3; i++) await storedGame(t.store, `twin-b${i}`, ['Ace', 'Twin'], '0', cur.from + 3 * DAY + i * 1000);
      // Bee beats Cee, Dee, Eve once and Twin four times (two days): three of the four count.
      for (const [i, v] of ['Cee', 'Dee', 'Eve'].entries()) await storedGame(t.store, `bee-${v}`, ['Bee', v], '0', cur.from + 2 * HOUR + i * 1000);
      for (let i = 0; i < 4; i++) await storedGame(t.store, `bee-twin${i}`, ['Bee', 'Twin'], '0', cur.from + (i < 2 ? 2 : 4) * DAY + i * 1000);
      // Fay and Hal beat the same three once each; Gal loses to them; a casual win counts nothing.
      for (const p of ['Fay', 'Hal']) for (const [i, v] of ['Cee', 'Dee', 'Eve'].entries()) await storedGame(t.store, `${p}-${v}`, [p, v], '0', cur.from + 5 * HOUR + i * 1000);
      for (const [i, v] of ['Cee', 'Dee', 'Eve'].entries()) await storedGame(t.store, `gal-${v}`, ['Gal', v], '1', cur.from + 6 * HOUR + i * 1000);
      await storedGame(t.store, 'casual', ['Fay', 'Twin'], '0', cur.from + 7 * HOUR, false);
      // Wins over fresh accounts count nothing: Zed beats three newcomers.
      for (let i = 0; i < 3; i++) await storedGame(t.store, `zed${i}`, ['Zed', `Fresh${i}`], '0', cur.from + 8 * HOUR + i * 1000);
      // The quarter before: Old won it over three established players of then.
      await veterans(['Pam', 'Quin', 'Rex'], past.from + 60_000);
      for (const [i, v] of ['Pam', 'Quin', 'Rex'].entries()) await storedGame(t.store, `old-${v}`, ['Old', v], '0', past.from + DAY + i * 1000);
    }, 120_000);
    afterAll(() => t?.stop());

    it("a season's table: rated wins over established opponents only, the pair limit, the per-opponent cap and the minimum of opponents applied", async () => {
      const r = await api(t.url, `/api/seasons/${cur.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: cur.id, from: cur.from, to: cur.to, current: true });
      const w = SEASON_POINTS.win['0'];
      expect(SEASON_POINTS.minOpponents).toBe(3);
      expect(r.body.table).toEqual([
        // Three opponents once and Twin four times, three counted.
        { rank: 1, username: 'Bee', points: 6 * w, wins: 6, games: 7 },
        // Equal points and wins share a rank.
        { rank: 2, username: 'Fay', points: 3 * w, wins: 3, games: 3 },
        { rank: 2, username: 'Hal', points: 3 * w, wins: 3, games: 3 },
        { rank: 4, username: 'Gal', points: 0, wins: 0, games: 3 },
      ]);
    });

    it('the list: the current season and the past ones with their winners', async () => {
      const r = await api(t.url, '/api/seasons');
      expect(r.status).toBe(200);
      expect(r.body.current.id).toBe(cur.id);
      expect(r.body.current.table[0]).toMatchObject({ username: 'Bee' });
      expect(r.body.past).toHaveLength(4);
      expect(r.body.past[0]).toEqual({ id: past.id, from: past.from, to: past.to, winners: [{ rank: 1, username: 'Old', points: 3 * SEASON_POINTS.win['0'], wins: 3, games: 3 }] });
      expect(r.body.past[1].winners).toEqual([]);
      const old = await api(t.url, `/api/seasons/${past.id}`);
      expect(old.body).toMatchObject({ current: false, table: [{ username: 'Old' }] });
    });

    it('an unknown, malformed or future season is 404', async () => {
      for (const id of ['2026-Q5', 'x', `${'9'.repeat(300)}`, '1999-Q1x', '9999-Q4', encodeURIComponent("'; DROP TABLE wg_results; --")])
        expect((await api(t.url, `/api/seasons/${id}`)).status, id).toBe(404);
    });
  });
}
