/**
 * boardgame.io's StorageAPI.Async over SQL (PGlite or PostgreSQL). Every write is one transaction.
 *
 * - setState only accepts the direct successor of the stored _stateID and throws StaleStateError otherwise,
 *   so two writers can never silently overwrite each other (the stock adapters drop or overwrite).
 * - Seats (name, credentials, data) change only through `updateMetadata`, a locked read-modify-write used
 *   by our Lobby routes; boardgame.io's own `setMetadata` (connection status, gameover) cannot undo a seat
 *   claim made after it read the metadata.
 */
import { Async } from 'boardgame.io/internal';
import type { LogEntry, Server, State } from 'boardgame.io';
import { StaleStateError } from './errors';
import type { SqlBackend, SqlQuery } from './sql';

type MatchData = Server.MatchData;
type FetchOpts = { state?: boolean; metadata?: boolean; log?: boolean; initialState?: boolean };
type ListOpts = { gameName?: string; where?: { isGameover?: boolean; updatedBefore?: number; updatedAfter?: number } };
type Row = { state: string; initial_state: string; metadata: string; state_id: number };

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

export class MatchStore extends Async {
  private readonly m: string;
  private readonly l: string;

  constructor(
    readonly sql: SqlBackend,
    readonly schema = 'public',
  ) {
    super();
    if (!IDENT.test(schema)) throw new Error(`invalid schema name "${schema}"`);
    this.m = `"${schema}".wg_matches`;
    this.l = `"${schema}".wg_log`;
  }

  /** Creates the tables; an advisory lock keeps two processes starting on an empty database from racing. */
  async connect(): Promise<void> {
    await this.sql.transaction(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock(724521)');
      await q.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      await q.query(`CREATE TABLE IF NOT EXISTS ${this.m} (
        match_id text PRIMARY KEY,
        game_name text NOT NULL,
        state text NOT NULL,
        state_id integer NOT NULL,
        initial_state text NOT NULL,
        metadata text NOT NULL,
        gameover boolean NOT NULL DEFAULT false,
        updated_at bigint NOT NULL)`);
      await q.query(`CREATE TABLE IF NOT EXISTS ${this.l} (
        match_id text NOT NULL REFERENCES ${this.m} (match_id) ON DELETE CASCADE,
        seq integer NOT NULL,
        entry text NOT NULL,
        PRIMARY KEY (match_id, seq))`);
      await q.query(`CREATE INDEX IF NOT EXISTS wg_matches_list ON ${this.m} (game_name, updated_at)`);
    });
  }

  async close(): Promise<void> {
    await this.sql.close();
  }

  async createMatch(matchID: string, opts: { initialState: State; metadata: MatchData }): Promise<void> {
    await this.insertMatch(this.sql, matchID, opts.initialState, opts.metadata);
  }

  /** Inserts a new match (also inside another transaction, e.g. "play again"); refuses an existing ID. */
  async insertMatch(q: SqlQuery, matchID: string, initialState: State, metadata: MatchData): Promise<void> {
    const s = JSON.stringify(initialState);
    const rows = await q.query(
      `INSERT INTO ${this.m} (match_id, game_name, state, state_id, initial_state, metadata, gameover, updated_at)
       VALUES ($1, $2, $3, $4, $3, $5, $6, $7) ON CONFLICT (match_id) DO NOTHING RETURNING match_id`,
      [matchID, metadata.gameName, s, initialState._stateID, JSON.stringify(metadata), metadata.gameover != null, metadata.updatedAt],
    );
    if (rows.rows.length === 0) throw new Error(`match ${matchID} already exists`);
  }

  async setState(matchID: string, state: State, deltalog?: LogEntry[]): Promise<void> {
    await this.sql.transaction(async (q) => {
      const { rows } = await q.query<{ state_id: number }>(`SELECT state_id FROM ${this.m} WHERE match_id = $1 FOR UPDATE`, [matchID]);
      const stored = rows[0]?.state_id ?? null;
      const log = deltalog ?? [];
      const text = JSON.stringify(state);
      // boardgame.io rewrites an unchanged state after a move the game rejected: same ID, same content.
      if (stored === state._stateID && log.length === 0) {
        const { rows: same } = await q.query(`SELECT 1 FROM ${this.m} WHERE match_id = $1 AND state = $2`, [matchID, text]);
        if (same.length > 0) return;
      }
      if (stored === null || state._stateID !== stored + 1) throw new StaleStateError(matchID, stored, state._stateID);
      await q.query(`UPDATE ${this.m} SET state = $2, state_id = $3 WHERE match_id = $1`, [matchID, text, state._stateID]);
      if (log.length > 0) {
        const { rows: n } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.l} WHERE match_id = $1`, [matchID]);
        let seq = n[0].n;
        for (const entry of log) await q.query(`INSERT INTO ${this.l} (match_id, seq, entry) VALUES ($1, $2, $3)`, [matchID, seq++, JSON.stringify(entry)]);
      }
    });
  }

  /**
   * boardgame.io's metadata write (connection status, gameover, updatedAt). Seat ownership and the
   * "play again" link are kept as stored: only `updateMetadata` changes those.
   */
  async setMetadata(matchID: string, metadata: MatchData): Promise<void> {
    await this.updateMetadata(matchID, (stored) => {
      const players: MatchData['players'] = {};
      for (const [id, seat] of Object.entries(stored.players)) {
        const incoming = metadata.players[id as unknown as number];
        players[id as unknown as number] = incoming && 'isConnected' in incoming ? { ...seat, isConnected: incoming.isConnected } : seat;
      }
      return { ...metadata, players, nextMatchID: stored.nextMatchID ?? metadata.nextMatchID };
    });
  }

  /**
   * Locked read-modify-write of a match's metadata. `change` returns the new metadata, or null to delete
   * the match; it may throw (e.g. an HttpError 409) to change nothing. Returns what was written.
   * A missing match yields `missing()` (by default: undefined, nothing written).
   */
  async updateMetadata(
    matchID: string,
    change: (current: MatchData, q: SqlQuery) => MatchData | null | Promise<MatchData | null>,
  ): Promise<MatchData | null | undefined> {
    return this.sql.transaction(async (q) => {
      const { rows } = await q.query<{ metadata: string }>(`SELECT metadata FROM ${this.m} WHERE match_id = $1 FOR UPDATE`, [matchID]);
      if (rows.length === 0) return undefined;
      const next = await change(JSON.parse(rows[0].metadata) as MatchData, q);
      if (next === null) {
        await q.query(`DELETE FROM ${this.m} WHERE match_id = $1`, [matchID]);
        return null;
      }
      await q.query(`UPDATE ${this.m} SET metadata = $2, gameover = $3, updated_at = $4 WHERE match_id = $1`, [
        matchID,
        JSON.stringify(next),
        next.gameover != null,
        next.updatedAt,
      ]);
      return next;
    });
  }

  async fetch<O extends FetchOpts>(matchID: string, opts: O): Promise<any> {
    const cols = ['state_id'];
    if (opts.state) cols.push('state');
    if (opts.initialState) cols.push('initial_state');
    if (opts.metadata) cols.push('metadata');
    const { rows } = await this.sql.query<Row>(`SELECT ${cols.join(', ')} FROM ${this.m} WHERE match_id = $1`, [matchID]);
    const out: { state?: State; initialState?: State; metadata?: MatchData; log?: LogEntry[] } = {};
    const row = rows[0];
    if (!row) return out;
    if (opts.state) out.state = JSON.parse(row.state);
    if (opts.initialState) out.initialState = JSON.parse(row.initial_state);
    if (opts.metadata) out.metadata = JSON.parse(row.metadata);
    if (opts.log) {
      const { rows: entries } = await this.sql.query<{ entry: string }>(`SELECT entry FROM ${this.l} WHERE match_id = $1 ORDER BY seq`, [matchID]);
      out.log = entries.map((e) => JSON.parse(e.entry));
    }
    return out;
  }

  async wipe(matchID: string): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.m} WHERE match_id = $1`, [matchID]);
  }

  async listMatches(opts: ListOpts = {}): Promise<string[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, v: unknown) => {
      params.push(v);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (opts.gameName !== undefined) add('game_name = ?', opts.gameName);
    if (opts.where?.isGameover !== undefined) add('gameover = ?', opts.where.isGameover);
    if (opts.where?.updatedBefore !== undefined) add('updated_at < ?', opts.where.updatedBefore);
    if (opts.where?.updatedAfter !== undefined) add('updated_at > ?', opts.where.updatedAfter);
    const { rows } = await this.sql.query<{ match_id: string }>(
      `SELECT match_id FROM ${this.m}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY updated_at DESC, match_id`,
      params,
    );
    return rows.map((r) => r.match_id);
  }
}
