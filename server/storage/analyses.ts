/**
 * A finished match's analysis, kept with the match (server/analysis/): one row per match, deleted with it.
 * The row is first a claim (no body yet: one process is computing, since `claimed_at`), then the analysis.
 * A claim older than `staleBefore` is taken over (its process died); a failed computation gives it back.
 * The same table and statements in SQLite and PostgreSQL's dialects, beside their stores.
 */
import type Database from 'better-sqlite3';
import type { SqlQuery } from './sql';

export interface StoredAnalysis {
  claimedAt: number;
  /** The analysis as served (JSON), or null while it is being computed. */
  body: string | null;
}

export interface AnalysisRows {
  get(matchID: string): Promise<StoredAnalysis | undefined>;
  /** True if this caller may compute it now: no row yet, or an unfinished claim older than `staleBefore`. */
  claim(matchID: string, now: number, staleBefore: number): Promise<boolean>;
  save(matchID: string, body: string): Promise<void>;
  /** Gives an unfinished claim back (a finished analysis stays). */
  release(matchID: string): Promise<void>;
}

const table = (name: string, matches: string, text: string, int: string) => `CREATE TABLE IF NOT EXISTS ${name} (
  match_id ${text} PRIMARY KEY REFERENCES ${matches} (match_id) ON DELETE CASCADE,
  claimed_at ${int} NOT NULL,
  body ${text})`;

export function sqliteAnalyses(db: Database.Database): AnalysisRows {
  db.exec(table('wg_analyses', 'wg_matches', 'TEXT', 'INTEGER'));
  const get = db.prepare('SELECT claimed_at, body FROM wg_analyses WHERE match_id = ?');
  const claim = db.prepare(`INSERT INTO wg_analyses (match_id, claimed_at) VALUES (?, ?)
    ON CONFLICT (match_id) DO UPDATE SET claimed_at = excluded.claimed_at WHERE wg_analyses.body IS NULL AND wg_analyses.claimed_at < ?`);
  const save = db.prepare('UPDATE wg_analyses SET body = ? WHERE match_id = ?');
  const release = db.prepare('DELETE FROM wg_analyses WHERE match_id = ? AND body IS NULL');
  return {
    async get(matchID) {
      const r = get.get(matchID) as { claimed_at: number; body: string | null } | undefined;
      return r && { claimedAt: Number(r.claimed_at), body: r.body };
    },
    claim: async (matchID, now, staleBefore) => claim.run(matchID, now, staleBefore).changes === 1,
    save: async (matchID, body) => void save.run(body, matchID),
    release: async (matchID) => void release.run(matchID),
  };
}

/** PostgreSQL: the table is made in the store's connect transaction (`create`), the rows read through `sql`. */
export function pgAnalyses(sql: SqlQuery, schema: string): AnalysisRows & { create(q: SqlQuery): Promise<void> } {
  const a = `"${schema}".wg_analyses`;
  return {
    create: async (q) => void (await q.query(table(a, `"${schema}".wg_matches`, 'text', 'bigint'))),
    async get(matchID) {
      const { rows } = await sql.query<{ claimed_at: string; body: string | null }>(`SELECT claimed_at, body FROM ${a} WHERE match_id = $1`, [matchID]);
      return rows[0] && { claimedAt: Number(rows[0].claimed_at), body: rows[0].body };
    },
    async claim(matchID, now, staleBefore) {
      const { rows } = await sql.query(
        `INSERT INTO ${a} AS x (match_id, claimed_at) VALUES ($1, $2)
         ON CONFLICT (match_id) DO UPDATE SET claimed_at = EXCLUDED.claimed_at WHERE x.body IS NULL AND x.claimed_at < $3 RETURNING 1`,
        [matchID, now, staleBefore],
      );
      return rows.length === 1;
    },
    save: async (matchID, body) => void (await sql.query(`UPDATE ${a} SET body = $1 WHERE match_id = $2`, [body, matchID])),
    release: async (matchID) => void (await sql.query(`DELETE FROM ${a} WHERE match_id = $1 AND body IS NULL`, [matchID])),
  };
}
