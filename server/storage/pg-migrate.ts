/**
 * Upgrades a PostgreSQL database written by the first server (until 2026-11: the whole state rewritten
 * per move in the match row, and a `wg_log` table of single log entries) to the layout of pg-store.ts,
 * in the connect transaction: the stored state becomes the snapshot at the head (moved to wg_states),
 * the log entries are grouped back into one row per move, and `wg_log` is dropped. Matches in play carry
 * on where they were.
 */
import type { SqlQuery } from './sql';

export async function migrateV1(q: SqlQuery, schema: string): Promise<void> {
  const m = `"${schema}".wg_matches`;
  const { rows } = await q.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'wg_matches'`,
    [schema],
  );
  const cols = new Set(rows.map((r) => r.column_name));
  if (cols.has('snapshot_id')) return;
  await q.query(`ALTER TABLE ${m} ADD COLUMN snapshot_id integer, ADD COLUMN seats_version integer NOT NULL DEFAULT 0, ADD COLUMN result text`);
  await q.query(`UPDATE ${m} SET snapshot_id = state_id, result = CASE WHEN gameover THEN (metadata::json -> 'gameover')::text END`);
  await q.query(`ALTER TABLE ${m} ALTER COLUMN snapshot_id SET NOT NULL`);
  await q.query(`INSERT INTO "${schema}".wg_states (match_id, initial_state, state) SELECT match_id, initial_state, state FROM ${m}`);
  await q.query(`ALTER TABLE ${m} DROP COLUMN state, DROP COLUMN initial_state`);
  const { rows: logTable } = await q.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'wg_log'`, [schema]);
  if (logTable.length === 0) return;
  await q.query(`CREATE TABLE "${schema}".wg_moves (
    match_id text NOT NULL REFERENCES ${m} (match_id) ON DELETE CASCADE,
    state_id integer NOT NULL,
    action text NOT NULL,
    log text NOT NULL,
    PRIMARY KEY (match_id, state_id))`);
  // A move's entries share the _stateID it was made on; the one that is not automatic holds its action.
  await q.query(`INSERT INTO "${schema}".wg_moves (match_id, state_id, action, log)
    SELECT match_id, sid + 1, (array_agg(e -> 'action' ORDER BY seq) FILTER (WHERE COALESCE((e ->> 'automatic')::boolean, false) = false))[1]::text,
           json_agg(e ORDER BY seq)::text
    FROM (SELECT match_id, seq, entry::json AS e, (entry::json ->> '_stateID')::int AS sid FROM "${schema}".wg_log) x
    GROUP BY match_id, sid
    HAVING bool_or(COALESCE((e ->> 'automatic')::boolean, false) = false)`);
  await q.query(`DROP TABLE "${schema}".wg_log`);
}

/**
 * The public list's own column and index (added to tables written before them): `listed` is the opposite
 * of metadata.unlisted, so a page of the list reads listed matches only, from the index. Idempotent.
 */
export async function addListed(q: SqlQuery, schema: string): Promise<void> {
  const m = `"${schema}".wg_matches`;
  const { rows } = await q.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'wg_matches' AND column_name = 'listed'`, [schema]);
  if (rows.length === 0) {
    await q.query(`ALTER TABLE ${m} ADD COLUMN listed boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE ${m} SET listed = NOT COALESCE((metadata::jsonb ->> 'unlisted')::boolean, false)`);
  }
  await q.query(`CREATE INDEX IF NOT EXISTS wg_matches_listed ON ${m} (game_name, updated_at DESC, match_id) WHERE listed`);
}

/**
 * The partial indexes the scans read (as in sqlite.ts): unfinished matches for the clocks' look for
 * deadlines and the stale sweep, finished ones by age for KEEP_FINISHED_DAYS. Idempotent.
 */
export async function addScanIndexes(q: SqlQuery, schema: string): Promise<void> {
  const m = `"${schema}".wg_matches`;
  await q.query(`CREATE INDEX IF NOT EXISTS wg_matches_open ON ${m} (match_id) WHERE NOT gameover`);
  await q.query(`CREATE INDEX IF NOT EXISTS wg_matches_finished ON ${m} (updated_at) WHERE gameover`);
}
