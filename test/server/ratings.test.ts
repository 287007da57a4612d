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
import { Watergate, legalMoves, type WatergateState } from '../../game/index';
import { buildMatch } from '../../server/lobby/matches';
import { atTime, IDLE_PERIOD_MS, newRating, ratePeriod, rateGame } from '../../server/ratings/glicko';
import { gameEnd, unratedBecause, type FinishedMatch } from '../../server/ratings/rules';
import { boardRow, profileOf } from '../../server/accounts/players';
import { openStore } from '../../server/storage/index';
import type { MatchStore, MoveCommit } from '../../server/storage/types';
import { api, openTestStore, PG_URL, player, postgresAvailable, startTestServer, until, uniqueSchema, dropSchema, type TestServer } from './helpers';
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
    expect(unratedBecause(finished({ rated: false }))).toBe('created unrated');
    expect(unratedBecause(finished({}, { '1': { account: null } }))).toBe('a seat without an account');
    expect(unratedBecause(finished({}, { '1': { bot: 'easy', account: null } }))).toBe('against the computer');
    expect(unratedBecause(finished({}, { '1': { account: acct('a') } }))).toBe('one account on both seats');
    expect(unratedBecause(finished({ winner: null, reason: 'aborted' }))).toBe('aborted');
    expect(unratedBecause(finished({}, { '1': { decisions: 0 } }))).toBe('fewer than 1 decisions');
    expect(unratedBecause(finished({}, { '0': { decisions: 1 }, '1': { decisions: 1 } }))).toBeNull();
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
      expect((await store.accounts.leaderboard('0', 1, 10)).map((b) => b.username)).toContain(ids[0]);
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
        expect((await store.accounts.results(ids[0], 10)).map((x) => x.rated), tag).toEqual([false]);
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
      // The leaderboard and the stored rows carry it for the routes to widen.
      const board = await store.accounts.leaderboard('0', 2, 100);
      expect(board.find((b) => b.username === 'idlel')?.ratings['0']?.ratedAt).toBe(t0 + 365 * day);
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
    expect(p.ratings.editor).toEqual({ rating: 1700, rd: atTime(ed, now).rd, games: 12 });
    expect(p.ratings.editor.rd).toBeGreaterThan(70);
    expect(p.ratings.nixon).toEqual({ rating: 1400, rd: 100, games: 3 });
    expect(profileOf('Bo', {}, [], now).ratings.nixon).toEqual({ rating: 1500, rd: 350, games: 0 });
    expect(boardRow({ username: 'Ann', ratings: { '0': ed, '1': nx } }, '0', now)).toEqual({ username: 'Ann', ...p.ratings.editor });
    expect(boardRow({ username: 'Ann', ratings: { '0': ed, '1': nx } }, 'combined', now)).toEqual({ username: 'Ann', rating: 1550, rd: (p.ratings.editor.rd + 100) / 2, games: 15 });
    // A side never played counts a newcomer's rating and deviation in the mean.
    expect(boardRow({ username: 'Ann', ratings: { '0': ed } }, 'combined', now)).toEqual({ username: 'Ann', rating: 1600, rd: (p.ratings.editor.rd + 350) / 2, games: 12 });
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
    const ps = { '0': player(t.url, matchID, '0', creds['0']), '1': player(t.url, matchID, '1', creds['1']) };
    await until(() => ps['0'].state() !== null && ps['1'].state() !== null, 'synced');
    const made = { '0': 0, '1': 0 };
    while (made['0'] < 3 || made['1'] < 3) {
      const s = ps['0'].state()!;
      const seat = s.G.prompt!.player as '0' | '1';
      const mine = ps[seat].state()!;
      const m = legalMoves(mine.G as unknown as WatergateState, seat).find((x) => x.move !== 'resign')!;
      (ps[seat].client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
      await until(() => ps['0'].state()!._stateID > s._stateID, 'the move landed');
      made[seat]++;
    }
    (ps['1'].client.moves as Record<string, () => void>).resign();
    await until(() => ps['0'].state()!.ctx.gameover !== undefined, 'over');
    ps['0'].stop();
    ps['1'].stop();
    const e = (await api(t.url, '/players/editorial')).body;
    const n = (await api(t.url, '/players/Tricky')).body;
    expect(e.ratings.editor.games).toBe(1);
    expect(e.ratings.editor.rating).toBeGreaterThan(1500);
    expect(e.ratings.nixon).toEqual({ rating: 1500, rd: 350, games: 0 });
    expect(n.ratings.nixon.games).toBe(1);
    expect(n.ratings.nixon.rating).toBeLessThan(1500);
    expect(e.history.editor).toEqual([{ at: expect.any(Number), rating: e.ratings.editor.rating }]);
    expect(e.bySide.editor).toEqual({ won: 1, lost: 0 });
    expect(n.byOpponent).toEqual([{ opponent: 'Editorial', won: 0, lost: 1 }]);
    expect(n.matches[0]).toMatchObject({ matchID, side: '1', opponent: 'Editorial', won: false, reason: 'resigned', rated: true });
    const board = (await api(t.url, '/leaderboard?role=editor')).body;
    expect(board).toMatchObject({ role: 'editor', minGames: 1 });
    expect(board.players[0]).toMatchObject({ username: 'Editorial', games: 1 });
    expect((await api(t.url, '/leaderboard?role=nixon')).body.players.map((p: { username: string }) => p.username)).toEqual(['Tricky']);
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
    expect(prof.matches[0]).toMatchObject({ matchID: vs.matchID, level: 'easy', rated: false });
  });
});
