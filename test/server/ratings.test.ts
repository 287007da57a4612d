/**
 * Ratings by side. The Glicko-2 library against Glickman's published worked example; the rules (who is
 * rated, the result is the game's own, an aborted game is unrated, the computer's and the clock's moves are no decisions); the game-end
 * step inside the store's write of the game-ending move on every backend — exactly once however many
 * writers race (on PostgreSQL from two separate connection pools, as two processes would); and over real
 * sockets: a rated match ended by resignation moves both side ratings once, shown in the profile and the
 * leaderboard, while a game against the computer is unrated and counted against its level.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from 'boardgame.io';
import { Watergate } from '../../game/index';
import { buildMatch } from '../../server/lobby/matches';
import { atTime, IDLE_PERIOD_MS, newRating, ratePeriod, rateGame } from '../../server/ratings/glicko';
import { gameEnd, LEADERBOARD_MIN_OPPONENTS, PAIR_LIMIT, PROVISIONAL_RD, unratedBecause, type FinishedMatch } from '../../server/ratings/rules';
import { UNRATED_REASONS } from '../../protocol/accounts';
import { boardRow, profileOf } from '../../server/accounts/players';
import { openStore } from '../../server/storage/index';
import type { MatchStore, MoveCommit } from '../../server/storage/types';
import { api, decideThenResign, openTestStore, PG_URL, player, postgresAvailable, startTestServer, until, uniqueSchema, dropSchema, type TestServer } from './helpers';
import { signUp } from './account-helpers';

const hasPg = await postgresAvailable();

describe('Glicko-2 (the glicko2 library)', () => {
  it("gives Glickman's worked example: 1500/200/0.06 against 1400/30, 1550/100, 1700/300 scoring 1, 0, 0", () => {
    const r = ratePeriod({ rating: 1500, rd: 200, vol: 0.06, games: 0, ratedAt: null }, [
      { opponent: { rating: 1400, rd: 30, vol: 0.06 }, score: 1 },
      { opponent: { rating: 1550, rd: 100, vol: 0.06 }, score: 0 },
      { opponent: { rating: 1700, rd: 300, vol: 0.06 }, score: 0 },
    ]);
    expect(r.rating).toBeCloseTo(1464.06, 1);
    expect(r.rd).toBeCloseTo(151.52, 1);
    expect(r.vol).toBeCloseTo(0.05999, 4);
    expect(r.games).toBe(3);
  });

  it('between two newcomers the winner gains what the loser drops, and both grow surer', () => {
    const [w, l] = rateGame(newRating(), newRating(), 1, 1_000);
    expect(w.rating).toBeGreaterThan(1500);
    expect(l.rating).toBeCloseTo(3000 - w.rating, 6);
    expect(w.rd).toBeLessThan(350);
    expect([w.games, l.games]).toEqual([1, 1]);
    expect([w.ratedAt, l.ratedAt]).toEqual([1_000, 1_000]);
  });

  it('time without rated games widens the deviation as idle rating periods do (φ² + σ² a day), never past a newcomer\'s', () => {
    const day = IDLE_PERIOD_MS;
    expect(day).toBe(24 * 3600 * 1000);
    const r = { rating: 1800, rd: 60, vol: 0.06, games: 40, ratedAt: 1_000 };
    expect(atTime(r, 1_000)).toEqual(r);
    expect(atTime({ ...r, ratedAt: null }, 1e12)).toEqual({ ...r, ratedAt: null });
    const month = atTime(r, 1_000 + 30 * day);
    const year = atTime(r, 1_000 + 365 * day);
    // On Glicko-2's scale (÷ 400/ln 10): φ = 60/173.7178, plus 0.06² for each of 30 (365) days.
    expect(month.rd).toBeCloseTo(82.82, 1);
    expect(year.rd).toBeCloseTo(207.97, 1);
    expect({ ...year, rd: r.rd }).toEqual(r); // only the deviation moves
    expect(atTime(r, 1_000 + 3 * 365 * day).rd).toBe(350);
    expect(atTime(r, 0)).toEqual(r); // a clock behind the last game changes nothing
  });

  it('a player back after a year moves further on a win than one who played yesterday, and is rated at the game\'s end', () => {
    const at = 500 * IDLE_PERIOD_MS;
    const fresh = { rating: 1600, rd: 60, vol: 0.06, games: 30, ratedAt: at - IDLE_PERIOD_MS };
    const away = { ...fresh, ratedAt: at - 365 * IDLE_PERIOD_MS };
    const opponent = { ...newRating(), rating: 1600, rd: 60, games: 30, ratedAt: at - IDLE_PERIOD_MS };
    const [f] = rateGame(fresh, opponent, 1, at);
    const [a] = rateGame(away, opponent, 1, at);
    // 91 points against 10.5 (docs/ARCHITECTURE.md "Accounts").
    expect(a.rating - away.rating).toBeGreaterThan(5 * (f.rating - fresh.rating));
    expect(a.rd).toBeGreaterThan(f.rd);
    expect([f.ratedAt, a.ratedAt]).toEqual([at, at]);
  });
});

const acct = (id: string) => ({ id, username: id.toUpperCase() });
const finished = (o: Partial<FinishedMatch> = {}, seats: Partial<Record<'0' | '1', Partial<FinishedMatch['seats']['0']>>> = {}): FinishedMatch => ({
  matchID: 'm',
  rated: true,
  winner: '0',
  reason: 'resigned',
  moves: 20,
  startedAt: 0,
  finishedAt: 60_000,
  ...o,
  seats: {
    '0': { name: 'A', account: acct('a'), bot: null, decisions: 5, ...seats['0'] },
    '1': { name: 'B', account: acct('b'), bot: null, decisions: 5, ...seats['1'] },
  },
});

describe('the rating rules', () => {
  it('rate only a match created rated between two distinct accounts, not aborted, each having decided', () => {
    expect(unratedBecause(finished())).toBeNull();
    expect(unratedBecause(finished({ rated: false }))).toBe('casual');
    expect(unratedBecause(finished({}, { '1': { account: null } }))).toBe('guest');
    expect(unratedBecause(finished({}, { '1': { bot: 'easy', account: null } }))).toBe('computer');
    expect(unratedBecause(finished({}, { '1': { account: acct('a') } }))).toBe('same-account');
    expect(unratedBecause(finished({ winner: null, reason: 'aborted', aborted: '1' }))).toBe('aborted-nixon');
    expect(unratedBecause(finished({ winner: null, reason: 'aborted', aborted: '0' }))).toBe('aborted-editor');
    expect(unratedBecause(finished({}, { '1': { decisions: 0 } }))).toBe('few-decisions');
    expect(unratedBecause(finished({}, { '0': { decisions: 1 }, '1': { decisions: 1 } }))).toBeNull();
    // Every code is one the client words (protocol/accounts.ts).
    expect(UNRATED_REASONS).toEqual(expect.arrayContaining(['casual', 'guest', 'computer', 'same-account', 'aborted-editor', 'aborted-nixon', 'few-decisions', 'pair-limit']));
  });

  it('the same two accounts count 3 rated games in 24 hours: a 4th is unrated, its rows say why and change no rating', () => {
    expect(PAIR_LIMIT).toEqual({ games: 3, windowMs: 24 * 3600 * 1000 });
    expect(unratedBecause(finished({ pairRated: 2 }))).toBeNull();
    expect(unratedBecause(finished({ pairRated: 3 }))).toBe('pair-limit');
    const capped = gameEnd(finished({ pairRated: 3 }), () => undefined);
    expect(capped.ratings).toEqual([]);
    expect(capped.results.map((r) => [r.rated, r.unratedReason, r.ratingAfter])).toEqual([[false, 'pair-limit', null], [false, 'pair-limit', null]]);
    expect(gameEnd(finished(), () => undefined).results.map((r) => r.unratedReason)).toEqual([null, null]);
  });

  it('the records name the winner the game names; an aborted game has none and changes no rating', () => {
    for (const winner of ['0', '1'] as const) {
      const out = gameEnd(finished({ winner }), () => undefined);
      expect(out.results.map((r) => [r.side, r.won])).toEqual([['0', winner === '0'], ['1', winner === '1']]);
      expect(out.ratings.find((r) => r.side === winner)!.rating.rating).toBeGreaterThan(1500);
    }
    const aborted = gameEnd(finished({ winner: null, reason: 'aborted' }), () => undefined);
    expect(aborted.ratings).toEqual([]);
    expect(aborted.results.map((r) => [r.side, r.won, r.rated, r.reason])).toEqual([['0', false, false, 'aborted'], ['1', false, false, 'aborted']]);
  });

  it("writes each account's record, rated or not, and side ratings only when rated", () => {
    const vsBot = gameEnd(finished({ rated: false }, { '1': { account: null, bot: 'hard', name: 'Computer' } }), () => undefined);
    expect(vsBot.ratings).toEqual([]);
    expect(vsBot.results).toEqual([expect.objectContaining({ side: '0', accountID: 'a', opponentLevel: 'hard', won: true, rated: false, ratingAfter: null })]);
    const rated = gameEnd(finished(), (id, side) => (id === 'a' && side === '0' ? { rating: 1700, rd: 80, vol: 0.06, games: 9, ratedAt: 0 } : undefined));
    expect(rated.ratings.map((r) => [r.accountID, r.side, r.rating.games])).toEqual([['a', '0', 10], ['b', '1', 1]]);
    expect(rated.results.map((r) => [r.side, r.ratingBefore])).toEqual([['0', 1700], ['1', 1500]]);
  });
});

const successor = (s: State, mark: number): State => ({ ...s, _stateID: s._stateID + 1, G: { ...s.G, mark } });
const moveCommit = (prev: State, next: State, seat: '0' | '1', extra: Partial<MoveCommit> = {}): MoveCommit => {
  const action = { type: 'MAKE_MOVE' as const, payload: { type: extra.gameover ? 'resign' : 'play', args: [], playerID: seat } };
  return { prevStateID: prev._stateID, seatsVersion: 0, state: next, action, log: [], updatedAt: 5_000 + next._stateID, snapshot: false, ...extra };
};

/**
 * A rated game stored as the server stores one (through the store's write of each move): `ids` the
 * Editor's and Nixon's accounts (made when new), `decisions` each, then a resignation giving `winner`
 * the game at `at`.
 */
async function storedGame(store: MatchStore, matchID: string, ids: [string, string], winner: '0' | '1', at: number, decisions = 3, unlisted = true): Promise<void> {
  for (const id of ids) await store.accounts.create({ id, username: id, key: id.toLowerCase(), password: null, createdAt: 1 });
  const { initialState, metadata } = buildMatch(Watergate, undefined, unlisted);
  metadata.rated = true;
  ids.forEach((id, i) => ((metadata.players as Record<string, object>)[String(i)] = { id: i, name: id, credentials: `c${i}`, data: { account: { id, username: id } } }));
  await store.createMatch({ matchID, initialState, metadata });
  let s = initialState;
  for (let i = 0; i < decisions; i++)
    for (const seat of ['0', '1'] as const) {
      const next = successor(s, i);
      await store.commitMove(matchID, moveCommit(s, next, seat));
      s = next;
    }
  await store.commitMove(matchID, moveCommit(s, successor(s, 99), winner === '0' ? '1' : '0', { gameover: { winner, reason: 'resigned' }, updatedAt: at }));
}

/**
 * `player` made established on the Editor side by storage-level games against `opponents` distinct
 * newcomers, `each` games apiece (3 a day: the pair limit, over the last days), won and lost in turn;
 * returns its games.
 */
async function establish(store: MatchStore, player: string, opponents: number, each: number = PAIR_LIMIT.games): Promise<number> {
  const now = Date.now();
  const days = Math.ceil(each / PAIR_LIMIT.games);
  let n = 0;
  for (let o = 0; o < opponents; o++)
    for (let g = 0; g < each; g++, n++) {
      const at = now - days * 25 * 3_600_000 + Math.floor(g / PAIR_LIMIT.games) * 25 * 3_600_000 + n * 1000;
      await storedGame(store, `est-${player}-${n}`, [player, `${player}-op${o}`], n % 2 === 0 ? '0' : '1', at, 1, false);
    }
  return n;
}

for (const backend of ['embedded', 'postgres', 'pglite'] as const) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`the game-end step in the store's write (${backend})`, () => {
    let store: MatchStore;
    let cleanup: () => Promise<void>;
    let schema = '';
    beforeAll(async () => {
      if (backend === 'pglite') {
        const dir = mkdtempSync(join(tmpdir(), 'wg-pglite-'));
        store = await openStore({ dataDir: dir, embedded: 'pglite' });
        cleanup = async () => rmSync(dir, { recursive: true, force: true });
      } else if (backend === 'postgres') {
        schema = uniqueSchema();
        store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
        cleanup = () => dropSchema(schema);
      } else ({ store, cleanup } = await openTestStore(backend));
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    /** A match between two new accounts (or the given seats' data), with `moves` decisions each already stored. */
    const seated = async (tag: string, o: { rated?: boolean; decisions?: [number, number]; autoFor?: '0' | '1'; abandoned?: '0' | '1'; ids?: [string, string] } = {}) => {
      const ids = o.ids ?? [`${tag}e`, `${tag}n`];
      for (const id of ids) await store.accounts.create({ id, username: id, key: id, password: null, createdAt: 1 });
      const { initialState, metadata } = buildMatch(Watergate, undefined, true);
      if (o.rated !== false) metadata.rated = true;
      ids.forEach((id, i) => ((metadata.players as Record<string, object>)[String(i)] = { id: i, name: id, credentials: `c${i}`, data: { account: { id, username: id } } }));
      if (o.abandoned) metadata.standIns = { [o.abandoned]: { level: 'normal', reason: 'abandoned', since: 1 } };
      const matchID = `m${tag}`;
      await store.createMatch({ matchID, initialState, metadata });
      let s = initialState;
      const [d0, d1] = o.decisions ?? [3, 3];
      for (let i = 0; i < Math.max(d0, d1); i++)
        for (const seat of ['0', '1'] as const)
          if (i < (seat === '0' ? d0 : d1)) {
            const next = successor(s, i);
            await store.commitMove(matchID, moveCommit(s, next, seat, { auto: o.autoFor === seat }));
            s = next;
          }
      return { matchID, ids, last: s };
    };
    const end = (last: State, winner: '0' | '1', updatedAt?: number) =>
      moveCommit(last, successor(last, 99), winner === '0' ? '1' : '0', { gameover: { winner, reason: 'resigned' }, ...(updatedAt === undefined ? {} : { updatedAt }) });

    it('a rated game moves the Editor rating of one account and the Nixon rating of the other, with both records', async () => {
      const { matchID, ids, last } = await seated('a');
      await store.commitMove(matchID, end(last, '0'));
      const r = await store.accounts.ratings(ids);
      expect(r.get(ids[0])).toEqual({ '0': expect.objectContaining({ games: 1 }) });
      expect(r.get(ids[1])).toEqual({ '1': expect.objectContaining({ games: 1 }) });
      expect(r.get(ids[0])!['0']!.rating).toBeGreaterThan(1500);
      expect(r.get(ids[1])!['1']!.rating).toBeLessThan(1500);
      const rec = await store.accounts.results(ids[1], 10);
      expect(rec).toEqual([expect.objectContaining({ matchID, side: '1', won: false, rated: true, opponentName: ids[0], decisions: 3, moves: 7, reason: 'resigned' })]);
      // One game: provisional, off the leaderboard.
      expect((await store.accounts.leaderboard('0', 1, 10)).map((b) => b.username)).not.toContain(ids[0]);
    });

    it('the fourth rated game of the same two accounts within 24 hours is unrated (pair-limit), ratings unchanged; a day later they count again', async () => {
      const [ed, nx] = [`pl${backend}E`, `pl${backend}N`];
      const t0 = Date.now() - 2 * IDLE_PERIOD_MS;
      const sides = (i: number): [string, string] => (i % 2 === 0 ? [ed, nx] : [nx, ed]); // the cap counts either way round
      for (let i = 0; i < 3; i++) await storedGame(store, `pl${i}`, sides(i), '0', t0 + i * 60_000);
      const before = await store.accounts.ratings([ed, nx]);
      await storedGame(store, 'pl3', sides(3), '0', t0 + 3 * 60_000);
      expect(await store.accounts.ratings([ed, nx])).toEqual(before);
      expect((await store.accounts.matchResults('pl3')).map((r) => [r.side, r.rated, r.unratedReason, r.ratingAfter])).toEqual([['0', false, 'pair-limit', null], ['1', false, 'pair-limit', null]]);
      expect((await store.accounts.matchResults('pl2')).map((r) => [r.rated, r.unratedReason])).toEqual([[true, null], [true, null]]);
      // 24 hours after the second game, only the third is within the window: rated again.
      await storedGame(store, 'pl4', sides(4), '0', t0 + 60_000 + PAIR_LIMIT.windowMs + 1);
      expect((await store.accounts.matchResults('pl4')).map((r) => r.rated)).toEqual([true, true]);
      expect((await store.accounts.ratings([ed])).get(ed)!['0']!.games).toBe(3);
    });

    it('the leaderboard lists established ratings of players with enough distinct opponents only', async () => {
      const games = await establish(store, `est${backend}`, LEADERBOARD_MIN_OPPONENTS + 3);
      const r = (await store.accounts.ratings([`est${backend}`])).get(`est${backend}`)!['0']!;
      expect(r.games).toBe(games);
      expect(r.rd).toBeLessThan(PROVISIONAL_RD);
      const board = await store.accounts.leaderboard('0', 1, 100);
      expect(board.map((b) => b.username)).toContain(`est${backend}`);
      // The stored rows carry when it was last rated, for the routes to widen.
      expect(board.find((b) => b.username === `est${backend}`)?.ratings['0']?.ratedAt).toBe(r.ratedAt);
      // Its opponents: provisional (3 games each); nobody with a provisional Nixon rating on the combined board.
      expect(board.map((b) => b.username).filter((u) => u.includes('-op'))).toEqual([]);
      expect((await store.accounts.leaderboard('combined', 1, 100)).map((b) => b.username)).not.toContain(`est${backend}`);
    });

    it('exactly once when many writers end the same game at once', async () => {
      const { matchID, ids, last } = await seated('b');
      // Other connections, as other processes would have (on PostgreSQL: their own pools).
      const others = backend === 'postgres' ? await Promise.all([1, 2].map(() => openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' }))) : [store];
      try {
        const tries = Array.from({ length: 10 }, (_, i) => others[i % others.length].commitMove(matchID, end(last, i % 2 === 0 ? '0' : '1')));
        const settled = await Promise.allSettled(tries);
        expect(settled.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
      } finally {
        if (backend === 'postgres') for (const o of others) await o.close();
      }
      const r = await store.accounts.ratings(ids);
      expect([r.get(ids[0])!['0']!.games, r.get(ids[1])!['1']!.games]).toEqual([1, 1]);
      expect(await store.accounts.results(ids[0], 10)).toHaveLength(1);
      expect(await store.accounts.results(ids[1], 10)).toHaveLength(1);
    });

    it("one player's games ending at once, each on its own connection, all count (a newcomer's first ones too)", async () => {
      const others = backend === 'postgres' ? await Promise.all([1, 2].map(() => openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' }))) : [store, store];
      try {
        for (let round = 0; round < 4; round++) {
          const editor = `busy${round}`;
          const games = [await seated(`r${round}a`, { ids: [editor, `r${round}a`] }), await seated(`r${round}b`, { ids: [editor, `r${round}b`] })];
          await Promise.all(games.map((g, i) => others[i].commitMove(g.matchID, end(g.last, '0'))));
          const r = (await store.accounts.ratings([editor])).get(editor)!['0']!;
          expect(r.games, `round ${round}`).toBe(2);
          const rows = await store.accounts.results(editor, 10);
          // The later game was rated from the rating the earlier one left (not both from the newcomer's).
          const [earlier, later] = [...rows].sort((x, y) => (x.ratingAfter! < y.ratingAfter! ? -1 : 1));
          expect(later.ratingBefore, `round ${round}`).toBeCloseTo(earlier.ratingAfter!, 6);
          expect(r.rating).toBeCloseTo(later.ratingAfter!, 6);
        }
      } finally {
        if (backend === 'postgres') for (const o of others) await o.close();
      }
    });

    it("too few decisions (the computer's moves do not count) or created unrated: recorded, not rated", async () => {
      for (const [tag, o] of [['c', { decisions: [3, 0] }], ['d', { autoFor: '1', decisions: [4, 4] }], ['e', { rated: false }]] as const) {
        const { matchID, ids, last } = await seated(tag, o as never);
        await store.commitMove(matchID, end(last, '1'));
        expect((await store.accounts.ratings(ids)).size, tag).toBe(0);
        expect((await store.accounts.results(ids[0], 10)).map((x) => [x.rated, x.unratedReason]), tag).toEqual([[false, tag === 'e' ? 'casual' : 'few-decisions']]);
      }
    });

    it('keeps when each side was last rated: a second game a year after the first moves the rating further than one a minute after', async () => {
      const day = IDLE_PERIOD_MS;
      const t0 = 1_700_000_000_000;
      const gain = async (tag: string, gap: number) => {
        const editor = `idle${tag}`;
        const first = await seated(`${tag}1`, { ids: [editor, `${tag}1`] });
        await store.commitMove(first.matchID, end(first.last, '0', t0));
        const r1 = (await store.accounts.ratings([editor])).get(editor)!['0']!;
        expect(r1.ratedAt).toBe(t0);
        const second = await seated(`${tag}2`, { ids: [editor, `${tag}2`] });
        await store.commitMove(second.matchID, end(second.last, '0', t0 + gap));
        const r2 = (await store.accounts.ratings([editor])).get(editor)!['0']!;
        expect(r2.ratedAt).toBe(t0 + gap);
        return { gain: r2.rating - r1.rating, rd: r2.rd };
      };
      const soon = await gain('s', 60_000);
      const late = await gain('l', 365 * day);
      expect(late.gain).toBeGreaterThan(soon.gain);
      expect(late.rd).toBeGreaterThan(soon.rd);
    });

    it('the stored result is the game\'s: a seat the computer stood in for wins when the game says it won', async () => {
      const { matchID, ids, last } = await seated('f', { abandoned: '0' });
      await store.commitMove(matchID, end(last, '0'));
      expect((await store.accounts.results(ids[0], 10))[0].won).toBe(true);
      expect((await store.accounts.results(ids[1], 10))[0].won).toBe(false);
      expect((await store.accounts.ratings(ids)).get(ids[0])!['0']!.rating).toBeGreaterThan(1500);
    });
  });
}

describe('side ratings stored before they kept when they were rated', () => {
  const old = async (exec: (sql: string) => Promise<unknown>, t: (name: string) => string) => {
    await exec(`ALTER TABLE ${t('wg_ratings')} DROP COLUMN rated_at`);
    await exec(`INSERT INTO ${t('wg_ratings')} (account_id, side, rating, rd, vol, games) VALUES ('old', '0', 1650, 80, 0.06, 2), ('old', '1', 1500, 350, 0.06, 0)`);
    const row = (side: string, at: number, rated: number) =>
      `('m${at}', '${side}', 'old', 'x', 0, 'resigned', ${rated}, 3, 9, ${at - 100}, ${at})`;
    await exec(`INSERT INTO ${t('wg_results')} (match_id, side, account_id, opponent_name, won, reason, rated, decisions, moves, started_at, finished_at)
      VALUES ${[row('0', 1_000, 1), row('0', 2_000, 1), row('0', 3_000, 0), row('1', 4_000, 0)].join(', ')}`);
  };
  const check = async (store: MatchStore) => {
    const r = (await store.accounts.ratings(['old'])).get('old')!;
    expect(r['0']).toEqual({ rating: 1650, rd: 80, vol: 0.06, games: 2, ratedAt: 2_000 }); // the last rated game's end
    expect(r['1']!.ratedAt).toBeNull(); // never rated
  };

  it('embedded: the column is added on opening and filled from the record', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-store-'));
    try {
      let store = await openStore({ dataDir: dir });
      await store.accounts.create({ id: 'old', username: 'old', key: 'old', password: null, createdAt: 1 });
      await store.close();
      const db = new Database(join(dir, 'watergate.sqlite'));
      await old(async (sql) => db.exec(sql), (n) => n);
      db.close();
      store = await openStore({ dataDir: dir });
      await check(store);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasPg)('postgres: the column is added on opening and filled from the record', async () => {
    const schema = uniqueSchema();
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      let store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
      await store.accounts.create({ id: 'old', username: 'old', key: 'old', password: null, createdAt: 1 });
      await store.close();
      await old((sql) => c.query(sql), (n) => `"${schema}".${n}`);
      store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
      await check(store);
      await store.close();
    } finally {
      await c.end();
      await dropSchema(schema);
    }
  });
});

describe('ratings as shown', () => {
  const day = IDLE_PERIOD_MS;
  const ed = { rating: 1700, rd: 60, vol: 0.06, games: 12, ratedAt: 10 * day };
  const nx = { rating: 1400, rd: 100, vol: 0.06, games: 3, ratedAt: 40 * day };

  it('profile and leaderboard show the deviation as it stands now, not as it was stored', () => {
    const now = 40 * day;
    const p = profileOf('Ann', { '0': ed, '1': nx }, [], now);
    expect(p.ratings.editor).toEqual({ rating: 1700, rd: atTime(ed, now).rd, games: 12, provisional: false });
    expect(p.ratings.editor.rd).toBeGreaterThan(70);
    expect(p.ratings.nixon).toEqual({ rating: 1400, rd: 100, games: 3, provisional: false });
    expect(profileOf('Bo', {}, [], now).ratings.nixon).toEqual({ rating: 1500, rd: 350, games: 0, provisional: true });
    // Idle long enough, an established rating is provisional again (its deviation widened past PROVISIONAL_RD).
    expect(profileOf('Ann', { '0': ed }, [], now + 400 * day).ratings.editor.provisional).toBe(true);
    expect(boardRow({ username: 'Ann', ratings: { '0': ed, '1': nx } }, '0', now)).toEqual({ username: 'Ann', ...p.ratings.editor });
    expect(boardRow({ username: 'Ann', ratings: { '0': ed, '1': nx } }, 'combined', now)).toEqual({ username: 'Ann', rating: 1550, rd: (p.ratings.editor.rd + 100) / 2, games: 15, provisional: false });
    // A side never played counts a newcomer's rating and deviation in the mean, and is provisional.
    expect(boardRow({ username: 'Ann', ratings: { '0': ed } }, 'combined', now)).toEqual({ username: 'Ann', rating: 1600, rd: (p.ratings.editor.rd + 350) / 2, games: 12, provisional: true });
  });
});

describe('a rated match over the sockets (embedded)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { leaderboardMinGames: 1, bots: { threads: 1 } });
  });
  afterAll(() => t.stop());

  it('a rated match without a clock can always end: a seat away for a day may be handed to the computer (and then loses); with a clock, or unrated, the setup is as asked', async () => {
    const ed = await signUp(t.url, 'Deadline');
    const setupOf = async (body: unknown) => {
      const { matchID } = (await ed.call('/games/watergate/create', body)).body;
      return (await t.store.head(matchID))!.metadata.setupData as { abandonMinutes?: number; clock?: unknown } | undefined;
    };
    expect((await setupOf({}))?.abandonMinutes).toBe(24 * 60);
    expect((await setupOf({ setupData: { abandonMinutes: 36 * 60 } }))?.abandonMinutes).toBe(36 * 60);
    // Never sooner than a day (the untimed control's floor, protocol/rated.ts): test/server/rated-rules.test.ts.
    expect((await ed.call('/games/watergate/create', { setupData: { abandonMinutes: 15 } })).status).toBe(400);
    expect((await setupOf({ setupData: { clock: { initialSeconds: 600, incrementSeconds: 10, onTimeout: 'lose' } } }))?.abandonMinutes).toBeUndefined();
    expect((await setupOf({ rated: false }))?.abandonMinutes).toBeUndefined();
  });

  it('after 3+ decisions each, a resignation moves both side ratings once; profile and leaderboard show it', async () => {
    const ed = await signUp(t.url, 'Editorial');
    const nx = await signUp(t.url, 'Tricky');
    const matchID = (await ed.call('/games/watergate/create', {})).body.matchID;
    const creds = { '0': (await ed.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials, '1': (await nx.call(`/games/watergate/${matchID}/join`, { playerID: '1' })).body.playerCredentials };
    await decideThenResign(t.url, matchID, creds, 3);
    const e = (await api(t.url, '/players/editorial')).body;
    const n = (await api(t.url, '/players/Tricky')).body;
    expect(e.ratings.editor.games).toBe(1);
    expect(e.ratings.editor.rating).toBeGreaterThan(1500);
    expect(e.ratings.nixon).toEqual({ rating: 1500, rd: 350, games: 0, provisional: true });
    expect(e.ratings.editor.provisional).toBe(true); // one game
    expect(n.ratings.nixon.games).toBe(1);
    expect(n.ratings.nixon.rating).toBeLessThan(1500);
    expect(e.history.editor).toEqual([{ at: expect.any(Number), rating: e.ratings.editor.rating }]);
    expect(e.bySide.editor).toEqual({ won: 1, lost: 0 });
    expect(n.byOpponent).toEqual([{ opponent: 'Editorial', won: 0, lost: 1 }]);
    expect(n.matches[0]).toMatchObject({ matchID, side: '1', opponent: 'Editorial', won: false, reason: 'resigned', rated: true, unratedReason: null, ratingBefore: 1500, provisional: true });
    expect(n.matches[0].ratingAfter).toBe(n.ratings.nixon.rating);
    // The result both players see at the end: each side's change (this match was created listed).
    const result = (await api(t.url, `/games/watergate/${matchID}/result`)).body;
    expect(result.seats).toEqual([
      { side: '0', username: 'Editorial', rated: true, unratedReason: null, ratingBefore: 1500, ratingAfter: e.ratings.editor.rating, provisional: true },
      { side: '1', username: 'Tricky', rated: true, unratedReason: null, ratingBefore: 1500, ratingAfter: n.ratings.nixon.rating, provisional: true },
    ]);
    // One game each: provisional, so nobody is on the leaderboard yet (docs/RATINGS.md).
    const board = (await api(t.url, '/leaderboard?role=editor')).body;
    expect(board).toMatchObject({ role: 'editor', minGames: 1, minOpponents: LEADERBOARD_MIN_OPPONENTS, provisionalRD: PROVISIONAL_RD, players: [] });
    expect((await api(t.url, '/leaderboard?role=nixon')).body.players).toEqual([]);
    expect((await api(t.url, '/leaderboard?role=both')).status).toBe(400);
    expect((await api(t.url, '/players/nobody-here')).status).toBe(404);
    // Public data: no account id, no settings.
    expect(JSON.stringify(e)).not.toMatch(/webhook|password|credentials/);
  });

  it('a game against the computer is unrated and counted against its level', async () => {
    const me = await signUp(t.url, 'Solo');
    const vs = (await me.call('/games/watergate/vs-computer', { botSeat: '1', level: 'easy' })).body;
    const creds = (await me.call(`/games/watergate/${vs.matchID}/join`, { playerID: '0' })).body.playerCredentials;
    const p = player(t.url, vs.matchID, '0', creds);
    await until(() => p.state() !== null, 'synced');
    (p.client.moves as Record<string, () => void>).resign();
    await until(() => p.state()!.ctx.gameover !== undefined, 'over');
    p.stop();
    const prof = (await api(t.url, '/players/Solo')).body;
    expect(prof.ratings.editor.games).toBe(0);
    expect(prof.byLevel).toEqual([{ level: 'easy', won: 0, lost: 1 }]);
    expect(prof.byOpponent).toEqual([]);
    expect(prof.matches[0]).toMatchObject({ matchID: vs.matchID, level: 'easy', rated: false, unratedReason: 'casual' });
  });
});

for (const backend of ['embedded', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`provisional ratings, the leaderboard and results over HTTP (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend, { leaderboardMinGames: 3 });
    });
    afterAll(() => t.stop());
    const board = async (role: string) => (await api(t.url, `/leaderboard?role=${role}`)).body.players.map((p: { username: string; provisional: boolean }) => `${p.username}${p.provisional ? '?' : ''}`);

    it('lists an established rating with enough distinct opponents; a provisional one, or one with too few opponents, is flagged or left off', async () => {
      await establish(t.store, 'Steady', LEADERBOARD_MIN_OPPONENTS + 3);
      // As many games, as sure a rating, against one opponent fewer than the board asks.
      await establish(t.store, 'Narrow', LEADERBOARD_MIN_OPPONENTS - 1, 6);
      await establish(t.store, 'Newish', 2);
      const [steady, narrow, newish] = await Promise.all(['Steady', 'Narrow', 'Newish'].map(async (u) => (await api(t.url, `/players/${u}`)).body));
      expect(steady.ratings.editor.provisional).toBe(false);
      expect(narrow.ratings.editor.provisional).toBe(false);
      expect(narrow.ratings.editor.rd).toBeLessThan(PROVISIONAL_RD);
      expect(newish.ratings.editor).toMatchObject({ games: 6, provisional: true });
      expect(newish.ratings.editor.rd).toBeGreaterThanOrEqual(PROVISIONAL_RD);
      expect(await board('editor')).toEqual(['Steady']);
      expect(await board('combined')).toEqual([]); // nobody has an established Nixon rating
      expect(newish.matches[0]).toMatchObject({ rated: true, provisional: true });
    });

    it('the fourth rated game of a pair in a day: its result and both profiles say "pair-limit", ratings unchanged', async () => {
      const now = Date.now() - 3_600_000;
      for (let i = 0; i < 3; i++) await storedGame(t.store, `twins${i}`, ['TwinA', 'TwinB'], '0', now + i * 1000, 1, false);
      const stored = async () => (await t.store.accounts.ratings(['TwinA', 'TwinB'])).get('TwinA');
      const before = await stored();
      await storedGame(t.store, 'twins3', ['TwinA', 'TwinB'], '0', now + 3000, 1, false);
      const a = (await api(t.url, '/players/TwinA')).body;
      expect(await stored()).toEqual(before);
      expect(a.ratings.editor).toMatchObject({ games: 3, rating: before!['0']!.rating, provisional: true }); // three wins: about 1753, provisional
      expect(a.matches[0]).toMatchObject({ matchID: 'twins3', rated: false, unratedReason: 'pair-limit', ratingBefore: null, ratingAfter: null });
      expect((await api(t.url, '/players/TwinB')).body.matches[0]).toMatchObject({ matchID: 'twins3', unratedReason: 'pair-limit' });
      const r = await api(t.url, '/games/watergate/twins3/result');
      expect(r.body.seats.map((x: { side: string; username: string; rated: boolean; unratedReason: string }) => [x.side, x.username, x.rated, x.unratedReason])).toEqual([['0', 'TwinA', false, 'pair-limit'], ['1', 'TwinB', false, 'pair-limit']]);
      expect((await api(t.url, '/games/watergate/twins2/result')).body.seats[0]).toMatchObject({ rated: true, provisional: true });
      expect((await api(t.url, '/games/watergate/no-such-match/result')).body).toEqual({ matchID: 'no-such-match', seats: [] });
    });

    it("an unlisted match's result is for its players only", async () => {
      const ann = await signUp(t.url, 'HiddenAnn');
      const bob = await signUp(t.url, 'HiddenBob');
      const ids = await Promise.all([ann, bob].map(async (x) => (await t.store.accounts.byKey(x.username.toLowerCase()))!.id));
      const t0 = Date.now() - 60_000;
      await storedGame(t.store, 'hidden1', [ids[0], ids[1]], '1', t0, 1, true);
      expect((await api(t.url, '/games/watergate/hidden1/result')).body).toEqual({ matchID: 'hidden1', seats: [] });
      expect((await (await signUp(t.url, 'Stranger')).call('/games/watergate/hidden1/result')).body).toEqual({ matchID: 'hidden1', seats: [] });
      const mine = await ann.call('/games/watergate/hidden1/result');
      expect(mine.status).toBe(200);
      expect(mine.body.seats.map((x: { username: string; rated: boolean }) => [x.username, x.rated])).toEqual([['HiddenAnn', true], ['HiddenBob', true]]);
    });
  });
}
