/**
 * The match store in PostgreSQL's dialect, on a PostgreSQL server (several processes may share it) or on
 * PGlite. A move is one statement — one implicit transaction, one round trip: advance the head if it is
 * still the state the move was made on (and the seats are unchanged), and insert the move's row only if
 * that happened. Layout and reasons: types.ts and docs/ARCHITECTURE.md "Storage".
 */
import { pgAnalyses } from './analyses';
import { pgEvents } from './events';
import { pgMail } from './mail';
import { pgSocial } from './social';
import { pgFollows } from './follows';
import { StaleStateError } from './errors';
import { createAccountTables, PgAccounts } from './accounts-pg';
import { addListed, addScanIndexes, migrateV1 } from './pg-migrate';
import type { SqlBackend, SqlQuery } from './sql';
import { changeResult, loadedMatch, mergeMetadata, seatsKey, type Head, type ListOptions, type ListPage, type PageOptions, type LoadedMatch, type MatchData, type MatchStore, type MetadataChange, type MoveCommit, type MoveRow, type NewMatch, type StorageObserver, type StoredRow, type TimedMatch, type ChatLine, type DeadHold } from './types';

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

type MatchRow = Pick<StoredRow, 'metadata' | 'updated_at' | 'result' | 'state_id' | 'seats_version'>;

/** Unfinished matches with a clock among their settings (`m`: the matches table). */
export const timedSql = (m: string): string =>
  `SELECT match_id, metadata, updated_at, result, state_id, seats_version FROM ${m} WHERE NOT gameover AND (metadata::jsonb -> 'setupData' -> 'clock') IS NOT NULL`;

/** The listing of matches (the stale sweep's); `gameover` written out, not a parameter: the planner matches the partial indexes (addScanIndexes) by the text. */
export function listSql(m: string, opts: ListOptions): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, v: unknown) => {
    params.push(v);
    where.push(clause.replace('?', `$${params.length}`));
  };
  if (opts.gameName !== undefined) add('game_name = ?', opts.gameName);
  if (opts.where?.isGameover !== undefined) where.push(opts.where.isGameover ? 'gameover' : 'NOT gameover');
  if (opts.where?.updatedBefore !== undefined) add('updated_at < ?', opts.where.updatedBefore);
  if (opts.where?.updatedAfter !== undefined) add('updated_at > ?', opts.where.updatedAfter);
  return { sql: `SELECT match_id FROM ${m}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY updated_at DESC, match_id`, params };
}

export class PgStore implements MatchStore {
  readonly kind;
  readonly shared;
  observe?: StorageObserver;
  private readonly m: string;
  private readonly st: string;
  private readonly mv: string;
  private readonly ch: string;
  private readonly procs: string;
  private readonly holds: string;
  readonly accounts: PgAccounts;
  readonly analyses: ReturnType<typeof pgAnalyses>;
  readonly events: ReturnType<typeof pgEvents>;
  readonly mail: ReturnType<typeof pgMail>;
  readonly social: ReturnType<typeof pgSocial>;
  readonly follows: ReturnType<typeof pgFollows>;

  constructor(
    readonly sql: SqlBackend,
    readonly schema = 'public',
  ) {
    if (!IDENT.test(schema)) throw new Error(`invalid schema name "${schema}"`);
    this.kind = sql.kind;
    this.shared = sql.kind === 'postgres';
    this.m = `"${schema}".wg_matches`;
    this.st = `"${schema}".wg_states`;
    this.mv = `"${schema}".wg_moves`;
    this.ch = `"${schema}".wg_chat`;
    this.procs = `"${schema}".wg_procs`;
    this.holds = `"${schema}".wg_holds`;
    this.accounts = new PgAccounts(sql, schema, (q, m) => this.insert(q, m));
    this.analyses = pgAnalyses(sql, schema);
    this.events = pgEvents(sql, schema);
    this.mail = pgMail(sql, schema);
    this.social = pgSocial(sql, schema);
    this.follows = pgFollows(sql, schema);
  }

  private async timed<T>(op: string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.observe?.(op, (performance.now() - t0) / 1000);
    }
  }

  /** Creates (or upgrades) the tables; an advisory lock keeps processes starting together from racing. */
  async connect(): Promise<void> {
    await this.sql.transaction(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock(724521)');
      await q.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      // The head row changes with every move; the big texts that rarely change live apart (wg_states).
      await q.query(`CREATE TABLE IF NOT EXISTS ${this.m} (
        match_id text PRIMARY KEY,
        game_name text NOT NULL,
        snapshot_id integer NOT NULL,
        state_id integer NOT NULL,
        seats_version integer NOT NULL DEFAULT 0,
        metadata text NOT NULL,
        gameover boolean NOT NULL DEFAULT false,
        result text,
        updated_at bigint NOT NULL)`);
      await q.query(`CREATE TABLE IF NOT EXISTS ${this.st} (
        match_id text PRIMARY KEY REFERENCES ${this.m} (match_id) ON DELETE CASCADE,
        initial_state text NOT NULL,
        state text NOT NULL)`);
      await migrateV1(q, this.schema);
      await q.query(`CREATE TABLE IF NOT EXISTS ${this.mv} (
        match_id text NOT NULL REFERENCES ${this.m} (match_id) ON DELETE CASCADE,
        state_id integer NOT NULL,
        action text NOT NULL,
        log text NOT NULL,
        PRIMARY KEY (match_id, state_id))`);
      // The clock as each move found it: what a take-back restores (added to tables written before it).
      await q.query(`ALTER TABLE ${this.mv} ADD COLUMN IF NOT EXISTS clock text`);
      // As in sqlite.ts: only the public list's own index on updated_at (addListed), rewritten by every move.
      await q.query(`DROP INDEX IF EXISTS "${this.schema}".wg_matches_list`);
      await q.query(`CREATE TABLE IF NOT EXISTS ${this.ch} (
        match_id text NOT NULL REFERENCES ${this.m} (match_id) ON DELETE CASCADE,
        seq bigserial,
        id text NOT NULL,
        sender text NOT NULL,
        body text NOT NULL,
        at bigint NOT NULL,
        PRIMARY KEY (match_id, seq))`);
      await addListed(q, this.schema);
      await addScanIndexes(q, this.schema);
      // Presence leases (match/presence.ts), their own step: a heartbeat per process, and which matches
      // each holds a seat of connected. No link to wg_matches: a hold outlives its match until swept.
      await q.query(`CREATE TABLE IF NOT EXISTS ${this.procs} (proc text PRIMARY KEY, beat_at bigint NOT NULL)`);
      await q.query(`CREATE TABLE IF NOT EXISTS ${this.holds} (proc text NOT NULL, match_id text NOT NULL, PRIMARY KEY (proc, match_id))`);
      await createAccountTables(q, this.schema);
      await this.analyses.create(q);
      await this.events.create(q);
      await this.mail.create(q);
      await this.social.create(q);
      await this.follows.create(q);
    }, { slow: true });
  }

  close(): Promise<void> {
    return this.sql.close();
  }

  async ping(): Promise<void> {
    await this.sql.query('SELECT 1');
  }

  private async insert(q: SqlQuery, { matchID, initialState, metadata }: NewMatch): Promise<void> {
    const { rows } = await q.query(
      `WITH m AS (
         INSERT INTO ${this.m} (match_id, game_name, snapshot_id, state_id, metadata, gameover, result, updated_at, listed)
         VALUES ($1, $2, $4, $4, $5, $6, $7, $8, $9) ON CONFLICT (match_id) DO NOTHING RETURNING match_id)
       INSERT INTO ${this.st} (match_id, initial_state, state) SELECT match_id, $3, $3 FROM m RETURNING match_id`,
      [matchID, metadata.gameName, JSON.stringify(initialState), initialState._stateID, JSON.stringify(metadata), metadata.gameover != null, metadata.gameover != null ? JSON.stringify(metadata.gameover) : null, metadata.updatedAt, !metadata.unlisted],
    );
    if (rows.length === 0) throw new Error(`match ${matchID} already exists`);
  }

  createMatch(m: NewMatch): Promise<void> {
    return this.timed('create', () => this.insert(this.sql, m));
  }

  updateMetadata(matchID: string, change: MetadataChange): Promise<MatchData | null | undefined> {
    return this.timed('metadata', () =>
      this.sql.transaction(async (q) => {
        const { rows } = await q.query<MatchRow>(`SELECT metadata, updated_at, result, state_id, seats_version FROM ${this.m} WHERE match_id = $1 FOR UPDATE`, [matchID]);
        if (rows.length === 0) return undefined;
        const current = mergeMetadata(rows[0]);
        const { metadata: next, create, links } = changeResult(change(current));
        if (next === null) {
          await q.query(`DELETE FROM ${this.m} WHERE match_id = $1`, [matchID]);
          return null;
        }
        const bump = seatsKey(next) === seatsKey(current) ? 0 : 1;
        await q.query(`UPDATE ${this.m} SET metadata = $2, gameover = $3, result = $4, updated_at = $5, seats_version = seats_version + $6, listed = $7 WHERE match_id = $1`, [
          matchID,
          JSON.stringify(next),
          next.gameover != null,
          next.gameover != null ? JSON.stringify(next.gameover) : null,
          next.updatedAt,
          bump,
          !next.unlisted,
        ]);
        if (create) await this.insert(q, create);
        if (links) await this.accounts.link(q, links);
        return next;
      }),
    );
  }

  commitMove(matchID: string, c: MoveCommit): Promise<void> {
    return this.timed('move', async () => {
      const over = c.gameover !== undefined;
      const write = async (q: SqlQuery) =>
        (
          await q.query(
            `WITH found AS (SELECT CASE WHEN $11::text IS NULL THEN NULL ELSE (metadata::jsonb -> 'clock')::text END AS clock FROM ${this.m} WHERE match_id = $1),
         head AS (
           UPDATE ${this.m} SET state_id = $3, updated_at = $4, gameover = $5, result = $6,
             snapshot_id = CASE WHEN $7::text IS NULL THEN snapshot_id ELSE $3 END,
             metadata = CASE WHEN $11::text IS NULL THEN metadata ELSE jsonb_set(metadata::jsonb, '{clock}', $11::jsonb)::text END
           WHERE match_id = $1 AND state_id = $2 AND seats_version = $8 RETURNING match_id),
         snap AS (UPDATE ${this.st} SET state = $7 WHERE $7::text IS NOT NULL AND match_id = (SELECT match_id FROM head))
         INSERT INTO ${this.mv} (match_id, state_id, action, log, auto, clock) SELECT match_id, $3, $9, $10, $12, (SELECT clock FROM found) FROM head RETURNING state_id`,
            [
              matchID,
              c.prevStateID,
              c.state._stateID,
              c.updatedAt,
              over,
              over ? JSON.stringify(c.gameover) : null,
              c.snapshot ? JSON.stringify(c.state) : null,
              c.seatsVersion,
              JSON.stringify(c.action),
              JSON.stringify(c.log),
              c.clock ? JSON.stringify(c.clock) : null,
              c.auto === true,
            ],
          )
        ).rows.length > 0;
      // A move that ends the game writes the players' records and ratings in the same transaction.
      const saved = over
        ? await this.sql.transaction(async (q) => {
            const ok = await write(q);
            if (ok) await this.accounts.ended(q, matchID, c.gameover, c.updatedAt);
            return ok;
          })
        : await write(this.sql);
      if (!saved) {
        const head = await this.head(matchID);
        throw new StaleStateError(matchID, head?.stateID ?? null, c.state._stateID);
      }
    });
  }

  load(matchID: string, opts: { log?: boolean; initialState?: boolean } = {}): Promise<LoadedMatch | undefined> {
    return this.timed('load', async () => {
      const { rows } = await this.sql.query<StoredRow>(
        `SELECT s.state, m.snapshot_id, m.state_id, m.seats_version, m.metadata, m.updated_at, m.result${opts.initialState ? ', s.initial_state' : ''}
         FROM ${this.m} m JOIN ${this.st} s USING (match_id) WHERE m.match_id = $1`,
        [matchID],
      );
      const row = rows[0];
      if (!row) return undefined;
      return loadedMatch(row, await this.moveRows(matchID, opts.log ? -1 : row.snapshot_id), opts);
    });
  }

  async head(matchID: string): Promise<Head | undefined> {
    return this.timed('head', async () => {
      const { rows } = await this.sql.query<MatchRow>(`SELECT metadata, updated_at, result, state_id, seats_version FROM ${this.m} WHERE match_id = $1`, [matchID]);
      const row = rows[0];
      return row && { stateID: row.state_id, seatsVersion: row.seats_version, metadata: mergeMetadata(row) };
    });
  }

  private async moveRows(matchID: string, after: number): Promise<MoveRow[]> {
    const { rows } = await this.sql.query<{ state_id: number; action: string; log: string; auto: boolean; clock: string | null }>(
      `SELECT state_id, action, log, auto, clock FROM ${this.mv} WHERE match_id = $1 AND state_id > $2 ORDER BY state_id`,
      [matchID, after],
    );
    return rows.map((r) => ({ stateID: r.state_id, action: JSON.parse(r.action), log: JSON.parse(r.log), auto: r.auto === true, clock: r.clock === null ? null : JSON.parse(r.clock) }));
  }

  movesAfter(matchID: string, stateID: number): Promise<MoveRow[]> {
    return this.timed('moves', () => this.moveRows(matchID, stateID));
  }

  async timedMatches(): Promise<TimedMatch[]> {
    const { rows } = await this.sql.query<{ match_id: string } & MatchRow>(timedSql(this.m), []);
    return rows.map((r) => ({ matchID: r.match_id, stateID: r.state_id, metadata: mergeMetadata(r) }));
  }

  async listMatches(opts: ListOptions = {}): Promise<string[]> {
    const { sql, params } = listSql(this.m, opts);
    const { rows } = await this.sql.query<{ match_id: string }>(sql, params);
    return rows.map((r) => r.match_id);
  }

  listPage(opts: PageOptions): Promise<ListPage> {
    return this.timed('list', async () => {
      const where = ['listed'];
      const params: unknown[] = [];
      const add = (clause: string, ...v: unknown[]) => {
        where.push(clause.replace(/\?/g, () => `$${params.push(v.shift())}`));
      };
      if (opts.gameName !== undefined) add('game_name = ?', opts.gameName);
      if (opts.where?.isGameover !== undefined) add('gameover = ?', opts.where.isGameover);
      if (opts.where?.updatedBefore !== undefined) add('updated_at < ?', opts.where.updatedBefore);
      if (opts.where?.updatedAfter !== undefined) add('updated_at > ?', opts.where.updatedAfter);
      if (opts.after) add('(updated_at < ? OR (updated_at = ? AND match_id > ?))', opts.after.updatedAt, opts.after.updatedAt, opts.after.matchID);
      const { rows } = await this.sql.query<{ match_id: string } & MatchRow>(
        `SELECT match_id, metadata, updated_at, result FROM ${this.m} WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, match_id LIMIT $${params.length + 1}`,
        [...params, opts.limit + 1],
      );
      return { matches: rows.slice(0, opts.limit).map((r) => ({ matchID: r.match_id, metadata: mergeMetadata(r) })), more: rows.length > opts.limit };
    });
  }

  async addChat(matchID: string, line: ChatLine): Promise<void> {
    await this.timed('chat', () => this.sql.query(`INSERT INTO ${this.ch} (match_id, id, sender, body, at) VALUES ($1, $2, $3, $4, $5)`, [matchID, line.id, line.sender, line.payload, line.at]));
  }

  async chat(matchID: string, limit: number): Promise<ChatLine[]> {
    const { rows } = await this.sql.query<{ id: string; sender: string; body: string; at: string | number }>(
      `SELECT id, sender, body, at FROM (SELECT * FROM ${this.ch} WHERE match_id = $1 ORDER BY seq DESC LIMIT $2) x ORDER BY seq`,
      [matchID, limit],
    );
    return rows.map((r) => ({ id: r.id, sender: r.sender, payload: r.body, at: Number(r.at) }));
  }

  async wipe(matchID: string): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.m} WHERE match_id = $1`, [matchID]);
  }

  async beat(proc: string, now: number): Promise<void> {
    await this.sql.query(`INSERT INTO ${this.procs} (proc, beat_at) VALUES ($1, $2) ON CONFLICT (proc) DO UPDATE SET beat_at = EXCLUDED.beat_at`, [proc, now]);
  }

  async hold(proc: string, matchID: string): Promise<void> {
    await this.sql.query(`INSERT INTO ${this.holds} (proc, match_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [proc, matchID]);
  }

  async unhold(proc: string, matchID: string): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.holds} WHERE proc = $1 AND match_id = $2`, [proc, matchID]);
  }

  async deadHolds(self: string, before: number): Promise<DeadHold[]> {
    const { rows } = await this.sql.query<{ proc: string; match_id: string; beat_at: string | null }>(
      `SELECT h.proc, h.match_id, p.beat_at FROM ${this.holds} h LEFT JOIN ${this.procs} p USING (proc) WHERE h.proc <> $1 AND (p.beat_at IS NULL OR p.beat_at < $2)`,
      [self, before],
    );
    return rows.map((r) => ({ proc: r.proc, matchID: r.match_id, beatAt: r.beat_at === null ? null : Number(r.beat_at) }));
  }

  async forgetDead(before: number): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.procs} p WHERE beat_at < $1 AND NOT EXISTS (SELECT 1 FROM ${this.holds} h WHERE h.proc = p.proc)`, [before]);
  }

  async claimBot(matchID: string): Promise<boolean> {
    return this.sql.locks ? this.sql.locks.tryLock(`${this.schema}/bot`, matchID) : true;
  }

  async releaseBot(matchID: string): Promise<void> {
    await this.sql.locks?.unlock(`${this.schema}/bot`, matchID);
  }

  onClaimsLost(fn: () => void): void {
    this.sql.locks?.onLost(fn);
  }
}
