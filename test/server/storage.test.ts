/**
 * The match store on every backend: a move is one write that is refused when the head or the seats
 * moved on, the state is the snapshot plus the later moves, seats change only under a lock (and say so
 * in their version), and each backend's own guarantees (one process per embedded file, one bot claim
 * per match across PostgreSQL clients, the upgrade of the first server's tables).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from 'boardgame.io';
import { Watergate } from '../../game/index';
import { buildMatch } from '../../server/lobby/matches';
import { StaleStateError } from '../../server/storage/errors';
import { listSql as pgListSql, timedSql as pgTimedSql } from '../../server/storage/pg-store';
import { listSql as sqliteListSql, TIMED_SQL as SQLITE_TIMED_SQL } from '../../server/storage/sqlite';
import { openStore } from '../../server/storage/index';
import type { ListCursor, ListOptions, MatchStore, MoveCommit } from '../../server/storage/types';
import { dropSchema, openTestStore, PG_URL, postgresAvailable, uniqueSchema, type Backend } from './helpers';

const hasPg = await postgresAvailable();

const action = (n: number) => ({ type: 'MAKE_MOVE' as const, payload: { type: 'play', args: [n], playerID: '0' } });
const successor = (s: State, mark: number): State => ({ ...s, _stateID: s._stateID + 1, G: { ...s.G, mark } });
const commit = (prev: State, next: State, seatsVersion = 0, extra: Partial<MoveCommit> = {}): MoveCommit => ({
  prevStateID: prev._stateID,
  seatsVersion,
  state: next,
  action: action(next._stateID),
  log: [{ action: action(next._stateID), _stateID: prev._stateID, turn: 1, phase: 'cards' } as never],
  updatedAt: 1_000 + next._stateID,
  snapshot: false,
  ...extra,
});

for (const backend of ['embedded', 'postgres', 'pglite'] as (Backend | 'pglite')[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`match store (${backend})`, () => {
    let store: MatchStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      if (backend === 'pglite') {
        const dir = mkdtempSync(join(tmpdir(), 'wg-pglite-'));
        store = await openStore({ dataDir: dir, embedded: 'pglite' });
        cleanup = async () => rmSync(dir, { recursive: true, force: true });
      } else ({ store, cleanup } = await openTestStore(backend));
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const fresh = async () => {
      const matchID = `m${Math.random().toString(36).slice(2)}`;
      const { initialState, metadata } = buildMatch(Watergate, undefined, false);
      await store.createMatch({ matchID, initialState, metadata });
      return { id: matchID, initialState, metadata };
    };

    it('keeps a snapshot and the moves after it; the head, log and metadata follow every move', async () => {
      const { id, initialState, metadata } = await fresh();
      const s1 = successor(initialState, 1);
      const s2 = successor(s1, 2);
      const s3 = successor(s2, 3);
      await store.commitMove(id, commit(initialState, s1));
      await store.commitMove(id, commit(s1, s2, 0, { snapshot: true }));
      await store.commitMove(id, commit(s2, s3, 0, { gameover: { winner: '1' } }));
      const got = (await store.load(id, { log: true, initialState: true }))!;
      expect(got.stateID).toBe(s3._stateID);
      expect(got.snapshot).toEqual(s2);
      expect(got.moves).toEqual([{ stateID: s3._stateID, action: action(s3._stateID), log: commit(s2, s3).log, auto: false, clock: null }]);
      expect(got.initialState).toEqual(initialState);
      expect(got.log!.map((e) => e._stateID)).toEqual([initialState._stateID, s1._stateID, s2._stateID]);
      expect(got.metadata).toEqual({ ...metadata, updatedAt: 1_000 + s3._stateID, gameover: { winner: '1' } });
      expect(await store.movesAfter(id, s1._stateID)).toHaveLength(2);
      const head = (await store.head(id))!;
      expect(head).toMatchObject({ stateID: s3._stateID, seatsVersion: 0 });
      expect(await store.listMatches({ where: { isGameover: true } })).toContain(id);
      // Without the log, only the moves after the snapshot are read.
      expect((await store.load(id))!.moves.map((m) => m.stateID)).toEqual([s3._stateID]);
    });

    it('keeps with each move of a timed match the clock as the move found it (what a take-back restores), in the same write', async () => {
      const { id, initialState } = await fresh();
      const c0 = { remaining: { '0': 1000, '1': 1000 }, running: '0' as const, since: 5, stateID: initialState._stateID, deadline: 1005 };
      await store.updateMetadata(id, (m) => ({ ...m, clock: c0 }));
      const s1 = successor(initialState, 1);
      const c1 = { ...c0, running: '1' as const, since: 6, stateID: s1._stateID, deadline: 1006 };
      await store.commitMove(id, commit(initialState, s1, 0, { clock: c1, auto: true }));
      const s2 = successor(s1, 2);
      await store.commitMove(id, commit(s1, s2));
      const rows = await store.movesAfter(id, initialState._stateID);
      expect(rows.map((r) => [r.clock, r.auto])).toEqual([[c0, true], [null, false]]);
      expect((await store.head(id))!.metadata.clock).toEqual(c1);
    });

    it('refuses a write on a state that is no longer the head, and writes nothing', async () => {
      const { id, initialState } = await fresh();
      const s1 = successor(initialState, 1);
      await store.commitMove(id, commit(initialState, s1));
      const other = successor(initialState, 99);
      await expect(store.commitMove(id, commit(initialState, other))).rejects.toBeInstanceOf(StaleStateError);
      await expect(store.commitMove(id, commit(initialState, { ...initialState, _stateID: initialState._stateID + 5 }))).rejects.toThrow(/stale write refused/);
      await expect(store.commitMove('nosuchmatch', commit(initialState, s1))).rejects.toThrow(/no longer exists/);
      const got = (await store.load(id, { log: true }))!;
      expect(got.stateID).toBe(s1._stateID);
      expect(got.moves).toHaveLength(1);
      expect(got.log).toHaveLength(1);
    });

    it('refuses a move authorised against seats that changed since, and counts only seat changes', async () => {
      const { id, initialState } = await fresh();
      await store.updateMetadata(id, (m) => ({ ...m, players: { ...m.players, 0: { id: 0, name: 'Ann', credentials: 'c0' } } }));
      expect((await store.head(id))!.seatsVersion).toBe(1);
      // Presence and other fields leave the seats' version alone.
      await store.updateMetadata(id, (m) => ({ ...m, players: { ...m.players, 0: { ...m.players[0], isConnected: true } } }));
      await store.updateMetadata(id, (m) => ({ ...m, updatedAt: 5 }));
      expect((await store.head(id))!.seatsVersion).toBe(1);
      await expect(store.commitMove(id, commit(initialState, successor(initialState, 1), 0))).rejects.toBeInstanceOf(StaleStateError);
      await store.commitMove(id, commit(initialState, successor(initialState, 1), 1));
      expect((await store.head(id))!.stateID).toBe(initialState._stateID + 1);
    });

    it('lets exactly one of many concurrent writers of the same next state win', async () => {
      const { id, initialState } = await fresh();
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.commitMove(id, commit(initialState, successor(initialState, i)))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof StaleStateError)).toHaveLength(9);
      expect(await store.movesAfter(id, initialState._stateID)).toHaveLength(1);
    });

    it('saves the moves of many matches sent at once, each on its own: a stale one among them is refused alone', async () => {
      const matches = await Promise.all(Array.from({ length: 6 }, () => fresh()));
      const marked = (n: number) => ({ log: [{ mark: n } as never] });
      const stale = matches[5];
      await store.commitMove(stale.id, commit(stale.initialState, successor(stale.initialState, 1), 0, marked(1)));
      const results = await Promise.allSettled(matches.map((m, i) => store.commitMove(m.id, commit(m.initialState, successor(m.initialState, 10 + i), 0, marked(10 + i)))));
      expect(results.slice(0, 5).map((r) => r.status)).toEqual(Array(5).fill('fulfilled'));
      expect(results[5].status === 'rejected' && results[5].reason).toBeInstanceOf(StaleStateError);
      for (const [i, m] of matches.entries()) {
        expect((await store.head(m.id))!.stateID).toBe(m.initialState._stateID + 1);
        // Each match holds its one move; the stale match kept its first, not the late one.
        expect((await store.movesAfter(m.id, m.initialState._stateID)).map((r) => r.log)).toEqual([marked(i === 5 ? 1 : 10 + i).log]);
      }
    });

    it('changes metadata under a lock: a throw changes nothing, "play again" creates its match in the same transaction', async () => {
      const { id } = await fresh();
      await expect(
        store.updateMetadata(id, () => {
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      const next = buildMatch(Watergate, undefined, false);
      const written = await store.updateMetadata(id, (m) => ({ metadata: { ...m, nextMatchID: `${id}-next` }, create: { matchID: `${id}-next`, ...next } }));
      expect(written!.nextMatchID).toBe(`${id}-next`);
      expect((await store.head(`${id}-next`))!.stateID).toBe(next.initialState._stateID);
      // A second "play again" that would create the same match fails whole: the link is not rewritten.
      await expect(store.updateMetadata(id, (m) => ({ metadata: { ...m, nextMatchID: 'other' }, create: { matchID: `${id}-next`, ...next } }))).rejects.toThrow(/already exists/);
      expect((await store.head(id))!.metadata.nextMatchID).toBe(`${id}-next`);
      expect(await store.updateMetadata('nosuchmatch', (m) => m)).toBeUndefined();
      expect(await store.updateMetadata(id, () => null)).toBeNull();
      expect(await store.head(id)).toBeUndefined();
    });

    it('lists matches by game, gameover and update time, and wipes them with their moves', async () => {
      const a = await fresh();
      const b = await fresh();
      await store.updateMetadata(b.id, (m) => ({ ...m, gameover: { winner: '1' }, updatedAt: 10 }));
      const all = await store.listMatches({ gameName: 'watergate' });
      expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(await store.listMatches({ gameName: 'chess' })).toEqual([]);
      expect(await store.listMatches({ gameName: 'watergate', where: { isGameover: true } })).toContain(b.id);
      expect(await store.listMatches({ gameName: 'watergate', where: { isGameover: false } })).not.toContain(b.id);
      expect(await store.listMatches({ where: { updatedBefore: 11 } })).toEqual([b.id]);
      await store.commitMove(a.id, commit(a.initialState, successor(a.initialState, 1)));
      await store.wipe(a.id);
      expect(await store.load(a.id)).toBeUndefined();
      expect(await store.movesAfter(a.id, -1)).toEqual([]);
      expect(await store.listMatches()).not.toContain(a.id);
    });

    it('pages the public list from its index: listed matches only, newest update first, ties by id, with the filters', async () => {
      const game = `list${Math.random().toString(36).slice(2, 8)}`;
      const make = async (id: string, updatedAt: number, extra: { unlisted?: boolean; gameover?: unknown } = {}) => {
        const { initialState, metadata } = buildMatch(Watergate, undefined, extra.unlisted ?? false);
        await store.createMatch({ matchID: `${game}-${id}`, initialState, metadata: { ...metadata, gameName: game, updatedAt, ...(extra.gameover ? { gameover: extra.gameover } : {}) } });
        return `${game}-${id}`;
      };
      const listed = [await make('a', 100), await make('b', 105), await make('c', 105), await make('d', 105), await make('e', 110), await make('f', 90)];
      const hidden = [await make('u1', 200, { unlisted: true }), await make('u2', 105, { unlisted: true })];
      const over = await make('g', 95, { gameover: { winner: '0' } });
      const pages: string[][] = [];
      let after: ListCursor | undefined;
      for (;;) {
        const page = await store.listPage({ gameName: game, limit: 2, after });
        pages.push(page.matches.map((m) => m.matchID));
        if (!page.more) break;
        const last = page.matches[page.matches.length - 1];
        after = { updatedAt: last.metadata.updatedAt, matchID: last.matchID };
      }
      const [a, b, c, d, e, f] = listed;
      // The tie at 105 is split across pages without losing or repeating a match.
      expect(pages).toEqual([[e, b], [c, d], [a, over], [f]]);
      expect(pages.flat()).not.toEqual(expect.arrayContaining([hidden[0]]));
      const first = await store.listPage({ gameName: game, limit: 100 });
      expect(first.more).toBe(false);
      expect(first.matches.find((m) => m.matchID === b)!.metadata).toMatchObject({ gameName: game, updatedAt: 105 });
      expect((await store.listPage({ gameName: game, limit: 100, where: { isGameover: false } })).matches.map((m) => m.matchID)).not.toContain(over);
      expect((await store.listPage({ gameName: game, limit: 100, where: { isGameover: true } })).matches.map((m) => m.matchID)).toEqual([over]);
      expect((await store.listPage({ gameName: game, limit: 100, where: { updatedAfter: 100, updatedBefore: 110 } })).matches.map((m) => m.matchID)).toEqual([b, c, d]);
      // Made private, or removed: out of the list; made public again: back.
      await store.updateMetadata(b, (m) => ({ ...m, unlisted: true }));
      await store.updateMetadata(c, () => null);
      expect((await store.listPage({ gameName: game, limit: 100 })).matches.map((m) => m.matchID)).toEqual([e, d, a, over, f]);
      await store.updateMetadata(hidden[1], (m) => ({ ...m, unlisted: false }));
      expect((await store.listPage({ gameName: game, limit: 100 })).matches.map((m) => m.matchID)).toContain(hidden[1]);
    });

    it('a move of a timed match rewrites its clock in the same write, keeping the rest of the metadata; timed matches are found', async () => {
      const { id, initialState } = await fresh();
      await store.updateMetadata(id, (m) => ({ ...m, setupData: { clock: { initialSeconds: 60 } }, away: { '1': 5 } }));
      const clock = { remaining: { '0': 1, '1': 2 }, running: '1' as const, since: 3, stateID: initialState._stateID + 1, deadline: 5 };
      await store.commitMove(id, { ...commit(initialState, successor(initialState, 1)), clock });
      const head = (await store.head(id))!;
      expect(head.metadata.clock).toEqual(clock);
      expect(head.metadata.away).toEqual({ '1': 5 });
      expect(head.metadata.setupData).toEqual({ clock: { initialSeconds: 60 } });
      // A move without a clock leaves the stored one as it was.
      await store.commitMove(id, commit(successor(initialState, 1), successor(successor(initialState, 1), 2)));
      expect((await store.head(id))!.metadata.clock).toEqual(clock);
      const timed = await store.timedMatches();
      expect(timed.find((t) => t.matchID === id)).toMatchObject({ stateID: initialState._stateID + 2, metadata: { clock } });
      await store.updateMetadata(id, (m) => ({ ...m, gameover: { winner: '0' } }));
      expect((await store.timedMatches()).map((t) => t.matchID)).not.toContain(id);
    });

    it('refuses to create a match twice under one ID', async () => {
      const { id, initialState, metadata } = await fresh();
      await expect(store.createMatch({ matchID: id, initialState, metadata })).rejects.toThrow(/already exists/);
    });
  });
}

describe('embedded storage (SQLite)', () => {
  it('belongs to one server process: a second one on the same DATA_DIR fails at start, clearly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-excl-'));
    const first = await openStore({ dataDir: dir });
    try {
      await expect(openStore({ dataDir: dir })).rejects.toThrow(/in use by another server process/);
    } finally {
      await first.close();
    }
    const again = await openStore({ dataDir: dir });
    await again.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('embedded storage written before the list had its own column', () => {
  it('fills the column from the metadata at start: listed matches listed, unlisted ones not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-listed-'));
    let store = await openStore({ dataDir: dir });
    for (const [name, unlisted] of [['open', false], ['private', true]] as const) {
      const { initialState, metadata } = buildMatch(Watergate, undefined, unlisted);
      await store.createMatch({ matchID: name, initialState, metadata });
    }
    await store.close();
    const db = new Database(join(dir, 'watergate.sqlite'));
    db.exec('DROP INDEX wg_matches_listed; ALTER TABLE wg_matches DROP COLUMN listed;');
    db.close();
    store = await openStore({ dataDir: dir });
    try {
      expect((await store.listPage({ limit: 10 })).matches.map((m) => m.matchID)).toEqual(['open']);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Every process scans for clock deadlines every 30 s and sweeps stale matches: on a server that keeps
 * its games, reading the whole table each time (on SQLite, on the event loop) grows with every game
 * ever played. Both backends: a store holding many finished matches and a few unfinished ones answers
 * the scans rightly, from the partial indexes (added at start to storage written before them).
 */
describe('the scans read their own indexes, not every match ever played', () => {
  const FINISHED = 5_000;
  const OPEN = 20;
  // Copies i ≤ OPEN unfinished (updated at 1_000 + i), the rest finished at 100_000 + i: 49 before the purge's limit.
  const stale: ListOptions = { where: { isGameover: false, updatedBefore: 50_000 } };
  const purge: ListOptions = { where: { isGameover: true, updatedBefore: 100_000 + OPEN + 50 } };
  const copies = (f: string, t: string) =>
    `SELECT 'x' || i, game_name, snapshot_id, state_id, metadata, CASE WHEN i <= ${OPEN} THEN ${f} ELSE ${t} END, NULL, CASE WHEN i <= ${OPEN} THEN 1000 + i ELSE 100000 + i END, listed`;
  const cols = 'match_id, game_name, snapshot_id, state_id, metadata, gameover, result, updated_at, listed';
  const expectRightAnswers = async (store: MatchStore) => {
    expect(await store.listMatches(stale)).toHaveLength(OPEN);
    expect(await store.listMatches(purge)).toHaveLength(49);
    expect(await store.timedMatches()).toEqual([]);
  };

  it('embedded (SQLite)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-scans-'));
    const file = join(dir, 'watergate.sqlite');
    try {
      let store = await openStore({ dataDir: dir });
      const { initialState, metadata } = buildMatch(Watergate, undefined, false);
      await store.createMatch({ matchID: 'live', initialState, metadata });
      await store.close();
      const db = new Database(file);
      db.exec(`DROP INDEX wg_matches_open; DROP INDEX wg_matches_finished;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${FINISHED + OPEN})
        INSERT INTO wg_matches (${cols}) ${copies('0', '1')} FROM n, wg_matches WHERE match_id = 'live';`);
      db.close();
      store = await openStore({ dataDir: dir });
      await expectRightAnswers(store);
      await store.close();
      const ro = new Database(file, { readonly: true });
      const plan = ({ sql, params }: { sql: string; params: unknown[] }) =>
        (ro.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
      try {
        for (const [q, index] of [[sqliteListSql(stale), 'wg_matches_open'], [sqliteListSql(purge), 'wg_matches_finished'], [{ sql: SQLITE_TIMED_SQL, params: [] as unknown[] }, 'wg_matches_open']] as const) {
          const p = plan(q);
          expect(p).toContain(`INDEX ${index}`);
          expect(p).not.toMatch(/SCAN wg_matches(?! USING)/);
        }
      } finally {
        ro.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasPg)('PostgreSQL', async () => {
    const schema = uniqueSchema();
    const m = `"${schema}".wg_matches`;
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      let store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
      const { initialState, metadata } = buildMatch(Watergate, undefined, false);
      await store.createMatch({ matchID: 'live', initialState, metadata });
      await store.close();
      await c.query(`DROP INDEX "${schema}".wg_matches_open; DROP INDEX "${schema}".wg_matches_finished`);
      await c.query(`INSERT INTO ${m} (${cols}) ${copies('false', 'true')} FROM generate_series(1, ${FINISHED + OPEN}) i, ${m} WHERE match_id = 'live'`);
      store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
      try {
        await expectRightAnswers(store);
      } finally {
        await store.close();
      }
      await c.query(`ANALYZE ${m}`);
      const plan = async ({ sql, params }: { sql: string; params: unknown[] }) => (await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
      for (const [q, index] of [[pgListSql(m, stale), 'wg_matches_open'], [pgListSql(m, purge), 'wg_matches_finished'], [{ sql: pgTimedSql(m), params: [] as unknown[] }, 'wg_matches_open']] as const) {
        const p = await plan(q);
        expect(p).toContain(index);
        expect(p).not.toContain('Seq Scan');
      }
    } finally {
      await c.end();
      await dropSchema(schema);
    }
  });
});

describe.skipIf(!hasPg)('PostgreSQL storage', () => {
  it("lets one client at a time claim a match's bot; the claim ends with its connection", async () => {
    const schema = uniqueSchema();
    const a = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
    const b = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
    try {
      expect(await a.claimBot('m1')).toBe(true);
      expect(await a.claimBot('m2')).toBe(true);
      expect(await b.claimBot('m1')).toBe(false);
      await a.releaseBot('m1');
      expect(await b.claimBot('m1')).toBe(true);
      await a.close(); // a process ending: its claims go with it
      expect(await b.claimBot('m2')).toBe(true);
    } finally {
      await b.close();
      await dropSchema(schema);
    }
  });

  it("upgrades the first server's tables: matches in play keep their state and log", async () => {
    const schema = uniqueSchema();
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    const { initialState, metadata } = buildMatch(Watergate, undefined, false);
    const s1 = successor(initialState, 1);
    const entry = (sid: number, extra = {}) => JSON.stringify({ action: action(sid + 1), _stateID: sid, turn: 1, phase: 'cards', ...extra });
    try {
      await c.query(`CREATE SCHEMA "${schema}"`);
      await c.query(`CREATE TABLE "${schema}".wg_matches (match_id text PRIMARY KEY, game_name text NOT NULL, state text NOT NULL, state_id integer NOT NULL,
        initial_state text NOT NULL, metadata text NOT NULL, gameover boolean NOT NULL DEFAULT false, updated_at bigint NOT NULL)`);
      await c.query(`CREATE TABLE "${schema}".wg_log (match_id text NOT NULL REFERENCES "${schema}".wg_matches (match_id) ON DELETE CASCADE, seq integer NOT NULL, entry text NOT NULL, PRIMARY KEY (match_id, seq))`);
      await c.query(`INSERT INTO "${schema}".wg_matches VALUES ('old', 'watergate', $1, $2, $3, $4, false, 7)`, [JSON.stringify(s1), s1._stateID, JSON.stringify(initialState), JSON.stringify(metadata)]);
      await c.query(`INSERT INTO "${schema}".wg_log VALUES ('old', 0, $1), ('old', 1, $2)`, [entry(initialState._stateID), entry(initialState._stateID, { action: { type: 'GAME_EVENT', payload: { type: 'endTurn' } }, automatic: true })]);
      const store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
      try {
        const got = (await store.load('old', { log: true, initialState: true }))!;
        expect(got.stateID).toBe(s1._stateID);
        expect(got.snapshot).toEqual(s1);
        expect(got.initialState).toEqual(initialState);
        expect(got.log).toHaveLength(2);
        expect(await store.movesAfter('old', -1)).toEqual([{ stateID: s1._stateID, action: action(initialState._stateID + 1), log: got.log, auto: false, clock: null }]);
        await store.commitMove('old', commit(s1, successor(s1, 2)));
        expect((await store.head('old'))!.stateID).toBe(s1._stateID + 1);
        // The list's own column is filled from the metadata: the old listed match is listed.
        expect((await store.listPage({ limit: 10 })).matches.map((m) => m.matchID)).toEqual(['old']);
      } finally {
        await store.close();
      }
    } finally {
      await c.end();
      await dropSchema(schema);
    }
  });
});
