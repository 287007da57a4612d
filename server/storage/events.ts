/**
 * Events (Swiss tournaments, server/events/): one row per event holding its whole document — settings,
 * entrants, rounds, boards and their matches — as JSON, with a version. Every change is a conditional
 * write (`WHERE version = read version`): of two processes that paired the same round, or two joins at
 * once, exactly one write lands and the other rereads — the claim that makes one pairing per round
 * (docs/EVENTS.md). `next_at` is when the runner should look at the event again (its start, a round's
 * start or its no-show limit); every process's tick reads the events due. The same table and statements
 * in SQLite's and PostgreSQL's dialects, beside their stores.
 */
import type Database from 'better-sqlite3';
import type { SqlQuery } from './sql';

export interface EventRow {
  id: string;
  version: number;
  /** 'open' (taking entrants), 'running', 'finished' or 'cancelled'. */
  status: string;
  /** When the runner looks again (null: never — finished or cancelled). */
  nextAt: number | null;
  createdAt: number;
  doc: string;
}

export interface EventRows {
  insert(r: EventRow): Promise<void>;
  get(id: string): Promise<EventRow | undefined>;
  /** Newest first, at most `limit`. */
  list(limit: number): Promise<EventRow[]>;
  /** Writes `r` (its version + 1) only if the stored version is still `r.version`: whether it did. */
  update(r: EventRow): Promise<boolean>;
  /** Ids of events to look at now (next_at passed). */
  due(now: number, limit: number): Promise<string[]>;
}

const table = (name: string, text: string, int: string) => `CREATE TABLE IF NOT EXISTS ${name} (
  id ${text} PRIMARY KEY,
  version ${int} NOT NULL,
  status ${text} NOT NULL,
  next_at ${int},
  created_at ${int} NOT NULL,
  doc ${text} NOT NULL)`;

type Raw = { id: string; version: number | string; status: string; next_at: number | string | null; created_at: number | string; doc: string };
const row = (r: Raw): EventRow => ({ id: r.id, version: Number(r.version), status: r.status, nextAt: r.next_at === null ? null : Number(r.next_at), createdAt: Number(r.created_at), doc: r.doc });

export function sqliteEvents(db: Database.Database): EventRows {
  db.exec(table('wg_events', 'TEXT', 'INTEGER'));
  db.exec('CREATE INDEX IF NOT EXISTS wg_events_due ON wg_events (next_at) WHERE next_at IS NOT NULL');
  db.exec('CREATE INDEX IF NOT EXISTS wg_events_created ON wg_events (created_at)');
  const ins = db.prepare('INSERT INTO wg_events (id, version, status, next_at, created_at, doc) VALUES (?, ?, ?, ?, ?, ?)');
  const get = db.prepare('SELECT * FROM wg_events WHERE id = ?');
  const list = db.prepare('SELECT * FROM wg_events ORDER BY created_at DESC LIMIT ?');
  const upd = db.prepare('UPDATE wg_events SET version = version + 1, status = ?, next_at = ?, doc = ? WHERE id = ? AND version = ?');
  const due = db.prepare('SELECT id FROM wg_events WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at LIMIT ?');
  return {
    insert: async (r) => void ins.run(r.id, r.version, r.status, r.nextAt, r.createdAt, r.doc),
    get: async (id) => {
      const r = get.get(id) as Raw | undefined;
      return r && row(r);
    },
    list: async (limit) => (list.all(limit) as Raw[]).map(row),
    update: async (r) => upd.run(r.status, r.nextAt, r.doc, r.id, r.version).changes === 1,
    due: async (now, limit) => (due.all(now, limit) as { id: string }[]).map((x) => x.id),
  };
}

/** PostgreSQL: the table is made in the store's connect transaction (`create`), the rows read through `sql`. */
export function pgEvents(sql: SqlQuery, schema: string): EventRows & { create(q: SqlQuery): Promise<void> } {
  const t = `"${schema}".wg_events`;
  return {
    create: async (q) => {
      await q.query(table(t, 'text', 'bigint'));
      await q.query(`CREATE INDEX IF NOT EXISTS wg_events_due ON ${t} (next_at) WHERE next_at IS NOT NULL`);
      await q.query(`CREATE INDEX IF NOT EXISTS wg_events_created ON ${t} (created_at)`);
    },
    insert: async (r) => void (await sql.query(`INSERT INTO ${t} (id, version, status, next_at, created_at, doc) VALUES ($1, $2, $3, $4, $5, $6)`, [r.id, r.version, r.status, r.nextAt, r.createdAt, r.doc])),
    async get(id) {
      const { rows } = await sql.query<Raw>(`SELECT * FROM ${t} WHERE id = $1`, [id]);
      return rows[0] && row(rows[0]);
    },
    list: async (limit) => (await sql.query<Raw>(`SELECT * FROM ${t} ORDER BY created_at DESC LIMIT $1`, [limit])).rows.map(row),
    async update(r) {
      const { rows } = await sql.query(`UPDATE ${t} SET version = version + 1, status = $1, next_at = $2, doc = $3 WHERE id = $4 AND version = $5 RETURNING 1`, [r.status, r.nextAt, r.doc, r.id, r.version]);
      return rows.length === 1;
    },
    due: async (now, limit) => (await sql.query<{ id: string }>(`SELECT id FROM ${t} WHERE next_at IS NOT NULL AND next_at <= $1 ORDER BY next_at LIMIT $2`, [now, limit])).rows.map((x) => x.id),
  };
}
