/**
 * The embedded default: SQLite (better-sqlite3) in DATA_DIR/watergate.sqlite, the same layout as
 * pg-store.ts. Write-ahead log with synchronous=NORMAL: a committed move survives kill -9 of the server
 * (the log is in the operating system's hands at commit); only a power cut may lose the last moves.
 * A lock file held in exclusive mode makes a second server on the same DATA_DIR fail at start instead
 * of serving the same matches from a second memory (several processes need PostgreSQL); the log is
 * checkpointed by a thread of its own (./sqlite-checkpoint.ts).
 * better-sqlite3 is synchronous: each call below finishes before any other JavaScript runs, which is what
 * makes `updateMetadata` atomic without an explicit lock.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteAnalyses, type AnalysisRows } from './analyses';
import { sqliteEvents, type EventRows } from './events';
import { sqliteMail, type MailRows } from './mail';
import { sqliteSocial, type SocialRows } from './social';
import { sqliteFollows, type FollowRows } from './follows';
import { lockDataDir, startCheckpointer, type Checkpointer } from './sqlite-checkpoint';
import { StaleStateError, StorageUnavailableError, ServerBusyError } from './errors';
import { createAccountTables, SqliteAccounts } from './accounts-sqlite';
import { changeResult, loadedMatch, mergeMetadata, seatsKey, type Head, type ListOptions, type ListPage, type PageOptions, type LoadedMatch, type MatchData, type MatchStore, type MetadataChange, type MoveCommit, type MoveRow, type NewMatch, type StorageObserver, type StoredRow, type ChatLine, type DeadHold, type TimedMatch } from './types';

type MatchRow = Pick<StoredRow, 'metadata' | 'updated_at' | 'result' | 'state_id' | 'seats_version'>;

/**
 * How long a move may wait for the others of its turn (SqliteStore.commitMove): a long turn (the backlog
 * after a pause) is written in groups as it goes, not held to its end. Most of the saving is in the
 * first few moves of a group (docs/LOAD.md "Group commit").
 */
const GROUP = { moves: 32, waitMs: 2 };

/** A move waiting for its turn's transaction (SqliteStore.commitMove). */
interface PendingMove {
  matchID: string;
  c: MoveCommit;
  resolve(): void;
  reject(e: unknown): void;
}

/** A failure of SQLite as the callers word it: the disk full, failing or the file locked is the same clear "try again" as a database away. */
function storageError(e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code)) return new ServerBusyError('the database is busy: try again in a moment', e);
  return typeof code === 'string' && /^SQLITE_(FULL|IOERR|CANTOPEN|READONLY|NOMEM)/.test(code) ? new StorageUnavailableError(e) : e;
}

/**
 * The store's connection as every embedded server runs it: write-ahead log, commits that neither
 * checkpoint nor cut the log back (./sqlite-checkpoint.ts does the checkpoints), a large page cache.
 */
export function configureConnection(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // The log is checkpointed by a thread of its own (./sqlite-checkpoint.ts), never inside a commit on
  // the event loop. Nor is it ever cut back by a commit: with a size limit, the commit that restarts
  // a log grown past it truncates the file, and the file system frees the blocks inside that call — on
  // a disk mounted with `discard` the event loop then waits for the device (removing a log at the
  // server's stop took 117–168 ms so: docs/LOAD.md "Where the event loop waits in the kernel"). The
  // file keeps its largest size, reused from its start after each checkpoint, until the server stops.
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('journal_size_limit = -1');
  // Each match in play keeps a few hot pages (its head row, the last leaf of its moves): SQLite's
  // default 2 MB cache holds those of a few hundred matches, 64 MB those of 10,000 (the event loop
  // then reads no page back from the operating system: strace at 1,000 matches); used only as filled.
  db.pragma('cache_size = -65536');
}

/**
 * The public list's own column and index (added to a file written before them): `listed` is the
 * opposite of metadata.unlisted, so a page of the list reads listed matches only, from the index.
 */
function addListed(db: Database.Database): void {
  const cols = db.prepare(`SELECT name FROM pragma_table_info('wg_matches')`).all() as { name: string }[];
  if (!cols.some((c) => c.name === 'listed')) {
    db.exec(`ALTER TABLE wg_matches ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
      UPDATE wg_matches SET listed = CASE WHEN json_extract(metadata, '$.unlisted') THEN 0 ELSE 1 END;`);
  }
  db.exec('CREATE INDEX IF NOT EXISTS wg_matches_listed ON wg_matches (game_name, updated_at DESC, match_id) WHERE listed = 1');
}

/**
 * The scans every process makes (the clocks' look for deadlines every 30 s, the stale sweep) read
 * unfinished matches, and finished ones by age, each from a partial index of its own instead of the
 * whole table, which grows with every game played. Neither is touched by a move but the last: a row
 * enters the open one when created and moves to the finished one when its game ends.
 */
function addScanIndexes(db: Database.Database): void {
  db.exec(`CREATE INDEX IF NOT EXISTS wg_matches_open ON wg_matches (match_id) WHERE gameover = 0;
    CREATE INDEX IF NOT EXISTS wg_matches_finished ON wg_matches (updated_at) WHERE gameover = 1;`);
}

/** The listing of matches (the stale sweep's), its filter on `gameover` written out so the partial indexes serve it. */
export function listSql(opts: ListOptions): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (opts.gameName !== undefined) (where.push('game_name = ?'), params.push(opts.gameName));
  if (opts.where?.isGameover !== undefined) where.push(opts.where.isGameover ? 'gameover = 1' : 'gameover = 0');
  if (opts.where?.updatedBefore !== undefined) (where.push('updated_at < ?'), params.push(opts.where.updatedBefore));
  if (opts.where?.updatedAfter !== undefined) (where.push('updated_at > ?'), params.push(opts.where.updatedAfter));
  return { sql: `SELECT match_id FROM wg_matches${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY updated_at DESC, match_id`, params };
}

/** Unfinished matches with a clock among their settings. */
export const TIMED_SQL = `SELECT match_id, metadata, updated_at, result, state_id, seats_version FROM wg_matches WHERE gameover = 0 AND json_extract(metadata, '$.setupData.clock') IS NOT NULL`;

/**
 * Each move row keeps the clock as the move found it (added to a file written before it), so that a
 * take-back can restore the clocks of the position it returns to.
 */
function addMoveClock(db: Database.Database): void {
  const cols = db.prepare(`SELECT name FROM pragma_table_info('wg_moves')`).all() as { name: string }[];
  if (!cols.some((c) => c.name === 'clock')) db.exec('ALTER TABLE wg_moves ADD COLUMN clock TEXT');
}

/** How often the checkpointing thread copies the write-ahead log back into the database. */
const CHECKPOINT_EVERY_MS = 1000;

export class SqliteStore implements MatchStore {
  readonly kind = 'embedded' as const;
  readonly shared = false;
  observe?: StorageObserver;
  private db!: Database.Database;
  private lock?: Database.Database;
  private checkpointer?: Checkpointer;
  private st!: Record<'insert' | 'insertState' | 'head' | 'row' | 'rowInit' | 'advance' | 'finish' | 'snapshot' | 'addMove' | 'clockOf' | 'moves' | 'meta' | 'del' | 'addChat' | 'chat', Database.Statement>;

  private readonly pages = new Map<string, Database.Statement>();
  accounts!: SqliteAccounts;
  analyses!: AnalysisRows;
  events!: EventRows;
  mail!: MailRows;
  social!: SocialRows;
  follows!: FollowRows;

  constructor(private readonly dir: string) {}

  private timed<T>(op: string, fn: () => T): Promise<T> {
    const t0 = performance.now();
    try {
      return Promise.resolve(fn());
    } catch (e) {
      return Promise.reject(storageError(e));
    } finally {
      this.observe?.(op, (performance.now() - t0) / 1000);
    }
  }

  async connect(): Promise<void> {
    if (this.db) return;
    mkdirSync(this.dir, { recursive: true });
    let lock: Database.Database;
    try {
      lock = lockDataDir(this.dir);
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_BUSY')
        throw new Error(`${this.dir} is in use by another server process (the embedded storage serves one process; several need DATABASE_URL)`);
      throw e;
    }
    const file = join(this.dir, 'watergate.sqlite');
    // A short wait, not none: the checkpointing thread's connection may hold a lock for a moment.
    const db = new Database(file, { timeout: 100 });
    try {
      configureConnection(db);
      db.pragma('foreign_keys = ON');
      // SQLite rewrites a whole row on any update: the head row that changes with every move stays small,
      // and the big texts that rarely change live apart (wg_states).
      db.exec(`CREATE TABLE IF NOT EXISTS wg_matches (
        match_id TEXT PRIMARY KEY,
        game_name TEXT NOT NULL,
        snapshot_id INTEGER NOT NULL,
        state_id INTEGER NOT NULL,
        seats_version INTEGER NOT NULL DEFAULT 0,
        metadata TEXT NOT NULL,
        gameover INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        updated_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS wg_states (
        match_id TEXT PRIMARY KEY REFERENCES wg_matches (match_id) ON DELETE CASCADE,
        initial_state TEXT NOT NULL,
        state TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS wg_moves (
        match_id TEXT NOT NULL REFERENCES wg_matches (match_id) ON DELETE CASCADE,
        state_id INTEGER NOT NULL,
        action TEXT NOT NULL,
        log TEXT NOT NULL,
        PRIMARY KEY (match_id, state_id)) WITHOUT ROWID;
      -- Every index on updated_at is rewritten by every move: the public list has its own (addListed),
      -- the scans theirs, on unfinished and finished matches apart (addScanIndexes), so the general
      -- (game_name, updated_at) index of files written before is dropped (a seventh less CPU a commit).
      DROP INDEX IF EXISTS wg_matches_list;
      CREATE TABLE IF NOT EXISTS wg_chat (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id TEXT NOT NULL REFERENCES wg_matches (match_id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        sender TEXT NOT NULL,
        body TEXT NOT NULL,
        at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS wg_chat_match ON wg_chat (match_id, seq);`);
      addListed(db);
      addScanIndexes(db);
      addMoveClock(db);
      // Presence leases (match/presence.ts), their own step: a heartbeat per process, and which matches
      // each holds a seat of connected. No link to wg_matches: a hold outlives its match until swept.
      db.exec(`CREATE TABLE IF NOT EXISTS wg_procs (proc TEXT PRIMARY KEY, beat_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS wg_holds (proc TEXT NOT NULL, match_id TEXT NOT NULL, PRIMARY KEY (proc, match_id)) WITHOUT ROWID;`);
      createAccountTables(db);
    } catch (e) {
      db.close();
      lock.close();
      throw e;
    }
    this.db = db;
    this.lock = lock;
    this.checkpointer = startCheckpointer(file, CHECKPOINT_EVERY_MS, (why) => {
      // Without the thread the log would grow without end: the commits checkpoint it themselves again.
      console.error(JSON.stringify({ level: 40, time: Date.now(), msg: 'the checkpointing thread ended: commits checkpoint the log again', why }));
      if (this.db?.open) this.db.pragma('wal_autocheckpoint = 10000');
    });
    this.analyses = sqliteAnalyses(db);
    this.events = sqliteEvents(db);
    this.mail = sqliteMail(db);
    this.social = sqliteSocial(db);
    this.follows = sqliteFollows(db);
    const cols = 'metadata, updated_at, result, state_id, seats_version';
    // The clock is set inside the stored metadata, not the metadata rewritten: a presence change
    // written meanwhile is kept.
    const advance = (end: string) =>
      db.prepare(`UPDATE wg_matches SET state_id = @next, updated_at = @at${end},
        snapshot_id = CASE WHEN @snap THEN @next ELSE snapshot_id END,
        metadata = CASE WHEN @clock IS NULL THEN metadata ELSE json_set(metadata, '$.clock', json(@clock)) END
        WHERE match_id = @id AND state_id = @prev AND seats_version = @seats`);
    this.st = {
      insert: db.prepare(`INSERT INTO wg_matches (match_id, game_name, snapshot_id, state_id, metadata, gameover, result, updated_at, listed)
        VALUES (@id, @game, @sid, @sid, @meta, @over, @result, @at, @listed) ON CONFLICT (match_id) DO NOTHING`),
      insertState: db.prepare('INSERT INTO wg_states (match_id, initial_state, state) VALUES (?, ?, ?)'),
      head: db.prepare(`SELECT ${cols} FROM wg_matches WHERE match_id = ?`),
      row: db.prepare(`SELECT ${cols}, state, snapshot_id FROM wg_matches JOIN wg_states USING (match_id) WHERE match_id = ?`),
      rowInit: db.prepare(`SELECT ${cols}, state, snapshot_id, initial_state FROM wg_matches JOIN wg_states USING (match_id) WHERE match_id = ?`),
      advance: advance(''),
      // Only the last move sets `gameover`: SQLite rewrites every index on a column an UPDATE sets,
      // and wg_matches_open is on it.
      finish: advance(', gameover = 1, result = @result'),
      snapshot: db.prepare('UPDATE wg_states SET state = ? WHERE match_id = ?'),
      addMove: db.prepare('INSERT INTO wg_moves (match_id, state_id, action, log, auto, clock) VALUES (?, ?, ?, ?, ?, ?)'),
      clockOf: db.prepare(`SELECT json_extract(metadata, '$.clock') AS clock FROM wg_matches WHERE match_id = ?`),
      moves: db.prepare('SELECT state_id, action, log, auto, clock FROM wg_moves WHERE match_id = ? AND state_id > ? ORDER BY state_id'),
      meta: db.prepare('UPDATE wg_matches SET metadata = @meta, gameover = @over, result = @result, updated_at = @at, listed = @listed, seats_version = seats_version + @bump WHERE match_id = @id'),
      del: db.prepare('DELETE FROM wg_matches WHERE match_id = ?'),
      addChat: db.prepare('INSERT INTO wg_chat (match_id, id, sender, body, at) VALUES (?, ?, ?, ?, ?)'),
      chat: db.prepare('SELECT id, sender, body, at FROM (SELECT * FROM wg_chat WHERE match_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq'),
    };
    this.accounts = new SqliteAccounts(db, (m) => this.insert(m));
  }

  async close(): Promise<void> {
    this.flushMoves();
    await this.checkpointer?.close();
    if (this.db?.open) this.db.close();
    if (this.lock?.open) this.lock.close();
  }

  async ping(): Promise<void> {
    if (!this.db?.open) throw new Error('the embedded storage is closed');
    this.db.prepare('SELECT 1').get();
  }

  private insert({ matchID, initialState, metadata }: NewMatch): void {
    const state = JSON.stringify(initialState);
    const over = metadata.gameover != null;
    const r = this.st.insert.run({ id: matchID, game: metadata.gameName, sid: initialState._stateID, meta: JSON.stringify(metadata), over: over ? 1 : 0, result: over ? JSON.stringify(metadata.gameover) : null, at: metadata.updatedAt, listed: metadata.unlisted ? 0 : 1 });
    if (r.changes === 0) throw new Error(`match ${matchID} already exists`);
    this.st.insertState.run(matchID, state, state);
  }

  createMatch(m: NewMatch): Promise<void> {
    return this.timed('create', () => this.db.transaction(() => this.insert(m))());
  }

  updateMetadata(matchID: string, change: MetadataChange): Promise<MatchData | null | undefined> {
    return this.timed('metadata', () =>
      this.db.transaction((): MatchData | null | undefined => {
        const row = this.st.head.get(matchID) as MatchRow | undefined;
        if (!row) return undefined;
        const current = mergeMetadata(row);
        const { metadata: next, create, links } = changeResult(change(current));
        if (next === null) {
          this.st.del.run(matchID);
          return null;
        }
        const over = next.gameover != null;
        this.st.meta.run({ id: matchID, meta: JSON.stringify(next), over: over ? 1 : 0, result: over ? JSON.stringify(next.gameover) : null, at: next.updatedAt, listed: next.unlisted ? 0 : 1, bump: seatsKey(next) === seatsKey(current) ? 0 : 1 });
        if (create) this.insert(create);
        if (links) this.accounts.link(links);
        return next;
      })(),
    );
  }

  /**
   * Group commit: the moves of every match that arrive in one turn of the event loop are written in one
   * transaction at its end (setImmediate; sooner in a long turn, see GROUP), each in a savepoint of its
   * own, so one refused or failing move leaves the others written. A commit's cost is mostly per
   * transaction (the log's frames of the pages it changed, its locks): the moves of a busy turn share the
   * locks and the list index's last page (docs/LOAD.md "Group commit"). Each promise settles after the
   * transaction is committed: a move is still never delivered before it is stored.
   */
  commitMove(matchID: string, c: MoveCommit): Promise<void> {
    return new Promise((resolve, reject) => {
      const n = this.moves.push({ matchID, c, resolve, reject });
      if (n === 1) {
        this.movesSince = performance.now();
        setImmediate(this.flushMoves);
      } else if (n >= GROUP.moves || performance.now() - this.movesSince >= GROUP.waitMs) this.flushMoves();
    });
  }

  private moves: PendingMove[] = [];
  /** When the first of the waiting moves arrived. */
  private movesSince = 0;

  /** Writes the waiting moves (see commitMove); also at close, so none is left unwritten. */
  private readonly flushMoves = (): void => {
    const batch = this.moves;
    if (batch.length === 0) return;
    this.moves = [];
    const t0 = performance.now();
    const failed: unknown[] = [];
    try {
      if (!this.db?.open) throw new Error('the embedded storage is closed');
      this.batchTx ??= this.db.transaction((b: PendingMove[], out: unknown[]) => {
        b.forEach((m, i) => {
          try {
            this.moveTx(m.matchID, m.c);
          } catch (e) {
            out[i] = e;
          }
        });
      });
      this.batchTx(batch, failed);
    } catch (e) {
      // The transaction itself failed (its commit: the disk full, the file locked): none was written.
      for (const m of batch) m.reject(storageError(e));
      return;
    } finally {
      this.observe?.('move', (performance.now() - t0) / 1000);
    }
    batch.forEach((m, i) => (i in failed ? m.reject(storageError(failed[i])) : m.resolve()));
  };
  private batchTx?: (b: PendingMove[], out: unknown[]) => void;

  /** A move's own transaction, a savepoint inside the group's (made once: better-sqlite3 builds a wrapper for each `transaction` call). */
  private readonly moveTx = (matchID: string, c: MoveCommit): void => {
    this.commitMoveTx ??= this.db.transaction((id: string, m: MoveCommit) => {
      const over = m.gameover !== undefined;
      // A timed match's clock as the move found it, read in the write's transaction before it is rewritten.
      const found = m.clock ? ((this.st.clockOf.get(id) as { clock: string | null } | undefined)?.clock ?? null) : null;
      const r = (over ? this.st.finish : this.st.advance).run({
        id,
        prev: m.prevStateID,
        next: m.state._stateID,
        seats: m.seatsVersion,
        at: m.updatedAt,
        ...(over ? { result: JSON.stringify(m.gameover) } : {}),
        snap: m.snapshot ? 1 : 0,
        clock: m.clock ? JSON.stringify(m.clock) : null,
      });
      if (r.changes === 0) {
        const head = this.st.head.get(id) as MatchRow | undefined;
        throw new StaleStateError(id, head?.state_id ?? null, m.state._stateID);
      }
      if (m.snapshot) this.st.snapshot.run(JSON.stringify(m.state), id);
      this.st.addMove.run(id, m.state._stateID, JSON.stringify(m.action), JSON.stringify(m.log), m.auto ? 1 : 0, found);
      // The players' records and ratings, in the same transaction as the move that ended the game.
      if (over) this.accounts.ended(id, m.gameover, m.updatedAt);
    });
    this.commitMoveTx(matchID, c);
  };
  private commitMoveTx?: (matchID: string, c: MoveCommit) => void;

  private moveRows(matchID: string, after: number): MoveRow[] {
    return (this.st.moves.all(matchID, after) as { state_id: number; action: string; log: string; auto: number; clock: string | null }[]).map((r) => ({
      stateID: r.state_id,
      action: JSON.parse(r.action),
      log: JSON.parse(r.log),
      auto: r.auto === 1,
      clock: r.clock === null ? null : JSON.parse(r.clock),
    }));
  }

  load(matchID: string, opts: { log?: boolean; initialState?: boolean } = {}): Promise<LoadedMatch | undefined> {
    return this.timed('load', () => {
      const row = (opts.initialState ? this.st.rowInit : this.st.row).get(matchID) as StoredRow | undefined;
      return row && loadedMatch(row, this.moveRows(matchID, opts.log ? -1 : row.snapshot_id), opts);
    });
  }

  head(matchID: string): Promise<Head | undefined> {
    return this.timed('head', () => {
      const row = this.st.head.get(matchID) as MatchRow | undefined;
      return row && { stateID: row.state_id, seatsVersion: row.seats_version, metadata: mergeMetadata(row) };
    });
  }

  movesAfter(matchID: string, stateID: number): Promise<MoveRow[]> {
    return this.timed('moves', () => this.moveRows(matchID, stateID));
  }

  async timedMatches(): Promise<TimedMatch[]> {
    const rows = this.db.prepare(TIMED_SQL).all() as ({ match_id: string } & MatchRow)[];
    return rows.map((r) => ({ matchID: r.match_id, stateID: r.state_id, metadata: mergeMetadata(r) }));
  }

  async listMatches(opts: ListOptions = {}): Promise<string[]> {
    const { sql, params } = listSql(opts);
    const rows = this.db.prepare(sql).all(...params) as { match_id: string }[];
    return rows.map((r) => r.match_id);
  }

  listPage(opts: PageOptions): Promise<ListPage> {
    return this.timed('list', () => {
      const where = ['listed = 1'];
      const params: unknown[] = [];
      if (opts.gameName !== undefined) (where.push('game_name = ?'), params.push(opts.gameName));
      if (opts.where?.isGameover !== undefined) (where.push('gameover = ?'), params.push(opts.where.isGameover ? 1 : 0));
      if (opts.where?.updatedBefore !== undefined) (where.push('updated_at < ?'), params.push(opts.where.updatedBefore));
      if (opts.where?.updatedAfter !== undefined) (where.push('updated_at > ?'), params.push(opts.where.updatedAfter));
      if (opts.after) (where.push('(updated_at < ? OR (updated_at = ? AND match_id > ?))'), params.push(opts.after.updatedAt, opts.after.updatedAt, opts.after.matchID));
      // A few shapes (which filters are given), each prepared once: every lobby page asks every 3 s.
      const sql = `SELECT match_id, metadata, updated_at, result FROM wg_matches WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, match_id LIMIT ?`;
      let st = this.pages.get(sql);
      if (!st) this.pages.set(sql, (st = this.db.prepare(sql)));
      const rows = st.all(...params, opts.limit + 1) as ({ match_id: string } & MatchRow)[];
      return { matches: rows.slice(0, opts.limit).map((r) => ({ matchID: r.match_id, metadata: mergeMetadata(r) })), more: rows.length > opts.limit };
    });
  }

  addChat(matchID: string, line: ChatLine): Promise<void> {
    return this.timed('chat', () => void this.st.addChat.run(matchID, line.id, line.sender, line.payload, line.at));
  }

  async chat(matchID: string, limit: number): Promise<ChatLine[]> {
    return (this.st.chat.all(matchID, limit) as { id: string; sender: string; body: string; at: number }[]).map((r) => ({ id: r.id, sender: r.sender, payload: r.body, at: r.at }));
  }

  async wipe(matchID: string): Promise<void> {
    this.st.del.run(matchID);
  }

  async beat(proc: string, now: number): Promise<void> {
    this.db.prepare('INSERT INTO wg_procs (proc, beat_at) VALUES (?, ?) ON CONFLICT (proc) DO UPDATE SET beat_at = excluded.beat_at').run(proc, now);
  }

  async hold(proc: string, matchID: string): Promise<void> {
    this.db.prepare('INSERT INTO wg_holds (proc, match_id) VALUES (?, ?) ON CONFLICT DO NOTHING').run(proc, matchID);
  }

  async unhold(proc: string, matchID: string): Promise<void> {
    this.db.prepare('DELETE FROM wg_holds WHERE proc = ? AND match_id = ?').run(proc, matchID);
  }

  async deadHolds(self: string, before: number): Promise<DeadHold[]> {
    const rows = this.db
      .prepare('SELECT h.proc, h.match_id, p.beat_at FROM wg_holds h LEFT JOIN wg_procs p USING (proc) WHERE h.proc <> ? AND (p.beat_at IS NULL OR p.beat_at < ?)')
      .all(self, before) as { proc: string; match_id: string; beat_at: number | null }[];
    return rows.map((r) => ({ proc: r.proc, matchID: r.match_id, beatAt: r.beat_at }));
  }

  async forgetDead(before: number): Promise<void> {
    this.db.prepare('DELETE FROM wg_procs WHERE beat_at < ? AND NOT EXISTS (SELECT 1 FROM wg_holds h WHERE h.proc = wg_procs.proc)').run(before);
  }

  /** One process owns the file (exclusive mode): it runs every bot. */
  async claimBot(): Promise<boolean> {
    return true;
  }

  async releaseBot(): Promise<void> {}
}
