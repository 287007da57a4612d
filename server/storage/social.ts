/**
 * Blocks and challenges by name (server/social/blocks.ts, server/challenges/), kept with the accounts so
 * that they survive a restart and every process sees the same: one table of blocks (who blocked whom) and
 * one of challenges (pending until accepted, declined, canceled or expired). The same tables and
 * statements in SQLite and PostgreSQL's dialects, beside their stores (as analyses.ts). Both are deleted
 * with either account (ON DELETE CASCADE).
 */
import type Database from 'better-sqlite3';
import type { SqlQuery } from './sql';

export type ChallengeSide = 'editor' | 'nixon' | 'random';
export type ChallengeStatus = 'pending' | 'accepted' | 'declined' | 'canceled';

export interface Challenge {
  id: string;
  fromID: string;
  toID: string;
  /** Usernames (read with the row: an account renamed since shows its name now). */
  from: string;
  to: string;
  fromBot: boolean;
  toBot: boolean;
  /** The challenger's side. */
  side: ChallengeSide;
  /** A time control name (protocol/rated.ts TIME_CONTROLS). */
  clock: string;
  rated: boolean;
  takeBacks: boolean;
  /** Paired deals: two matches on one deal, sides swapped (server/events/duel.ts). */
  paired: boolean;
  status: ChallengeStatus;
  createdAt: number;
  expiresAt: number;
  matchID: string | null;
}

export type NewChallenge = Omit<Challenge, 'from' | 'to' | 'fromBot' | 'toBot' | 'status' | 'matchID'>;

export interface BlockEntry {
  username: string;
  createdAt: number;
}

export interface SocialRows {
  /** Blocks `blockedID` for `accountID` unless it already blocks `max`: whether it is blocked now. */
  block(accountID: string, blockedID: string, now: number, max: number): Promise<boolean>;
  unblock(accountID: string, blockedID: string): Promise<boolean>;
  blocks(accountID: string): Promise<BlockEntry[]>;
  /** Whether either account blocked the other. */
  blockedEither(a: string, b: string): Promise<boolean>;
  /**
   * One transaction: refused when either blocked the other ('blocked') or the challenger already has
   * `maxPending` pending, unexpired challenges out ('too-many'); otherwise stored.
   */
  addChallenge(c: NewChallenge, maxPending: number): Promise<'ok' | 'blocked' | 'too-many'>;
  challenge(id: string): Promise<Challenge | undefined>;
  /** The account's pending, unexpired challenges, in and out, oldest first. */
  challenges(accountID: string, now: number): Promise<Challenge[]>;
  /**
   * Moves a pending, unexpired challenge to `status` (with its match when accepted), once: the row after
   * the change, or undefined when it was not pending any more (or expired, or unknown).
   */
  settle(id: string, status: Exclude<ChallengeStatus, 'pending'>, now: number, matchID?: string): Promise<Challenge | undefined>;
}

/** Challenges kept this long after they expire (then removed on the next new one). */
const KEEP_AFTER_MS = 7 * 86_400_000;

const tables = (n: { b: string; c: string; a: string }, text: string, int: string) => [
  `CREATE TABLE IF NOT EXISTS ${n.b} (account_id ${text} NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE,
    blocked_id ${text} NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE, created_at ${int} NOT NULL, PRIMARY KEY (account_id, blocked_id))`,
  `CREATE INDEX IF NOT EXISTS wg_blocks_blocked ON ${n.b} (blocked_id)`,
  `CREATE TABLE IF NOT EXISTS ${n.c} (id ${text} PRIMARY KEY, from_id ${text} NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE,
    to_id ${text} NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE, side ${text} NOT NULL, clock ${text} NOT NULL, rated integer NOT NULL,
    take_backs integer NOT NULL, status ${text} NOT NULL, created_at ${int} NOT NULL, expires_at ${int} NOT NULL, match_id ${text})`,
  `CREATE INDEX IF NOT EXISTS wg_name_challenges_from ON ${n.c} (from_id, status)`,
  `CREATE INDEX IF NOT EXISTS wg_name_challenges_to ON ${n.c} (to_id, status)`,
];

/**
 * The pairing query's condition that neither ticket's account blocked the other (`me`, `them` their
 * account id expressions; `blocks` the table): quick pairing never seats two such accounts together.
 */
export const notBlocked = (blocks: string, me: string, them: string) =>
  `NOT EXISTS (SELECT 1 FROM ${blocks} bl WHERE (bl.account_id = ${me} AND bl.blocked_id = ${them}) OR (bl.account_id = ${them} AND bl.blocked_id = ${me}))`;

const SELECT = (c: string, a: string) =>
  `SELECT c.*, f.username AS from_name, f.bot AS from_bot, t.username AS to_name, t.bot AS to_bot FROM ${c} c JOIN ${a} f ON f.id = c.from_id JOIN ${a} t ON t.id = c.to_id`;

const challengeRow = (r: Record<string, unknown>): Challenge => ({
  id: String(r.id),
  fromID: String(r.from_id),
  toID: String(r.to_id),
  from: String(r.from_name),
  to: String(r.to_name),
  fromBot: Boolean(r.from_bot),
  toBot: Boolean(r.to_bot),
  side: r.side as ChallengeSide,
  clock: String(r.clock),
  rated: Boolean(r.rated),
  takeBacks: Boolean(r.take_backs),
  paired: Boolean(r.paired),
  status: r.status as ChallengeStatus,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  matchID: r.match_id === null || r.match_id === undefined ? null : String(r.match_id),
});

export function sqliteSocial(db: Database.Database): SocialRows {
  const n = { b: 'wg_blocks', c: 'wg_name_challenges', a: 'wg_accounts' };
  for (const s of tables(n, 'TEXT', 'INTEGER')) db.exec(s);
  // Added after the table: older databases gain the column (SQLite has no ADD COLUMN IF NOT EXISTS).
  if (!(db.prepare(`PRAGMA table_info(wg_name_challenges)`).all() as { name: string }[]).some((c) => c.name === 'paired')) db.exec('ALTER TABLE wg_name_challenges ADD COLUMN paired integer NOT NULL DEFAULT 0');
  const either = db.prepare(`SELECT 1 FROM wg_blocks WHERE (account_id = ? AND blocked_id = ?) OR (account_id = ? AND blocked_id = ?)`);
  const one = db.prepare(`${SELECT(n.c, n.a)} WHERE c.id = ?`);
  return {
    block: async (accountID, blockedID, now, max) =>
      db.transaction(() => {
        if (db.prepare('SELECT 1 FROM wg_blocks WHERE account_id = ? AND blocked_id = ?').get(accountID, blockedID)) return true;
        const { k } = db.prepare('SELECT count(*) AS k FROM wg_blocks WHERE account_id = ?').get(accountID) as { k: number };
        if (k >= max) return false;
        db.prepare('INSERT INTO wg_blocks (account_id, blocked_id, created_at) VALUES (?, ?, ?)').run(accountID, blockedID, now);
        return true;
      })(),
    unblock: async (accountID, blockedID) => db.prepare('DELETE FROM wg_blocks WHERE account_id = ? AND blocked_id = ?').run(accountID, blockedID).changes === 1,
    blocks: async (accountID) =>
      (db.prepare('SELECT a.username, b.created_at FROM wg_blocks b JOIN wg_accounts a ON a.id = b.blocked_id WHERE b.account_id = ? ORDER BY b.created_at, a.username').all(accountID) as { username: string; created_at: number }[]).map((r) => ({
        username: r.username,
        createdAt: Number(r.created_at),
      })),
    blockedEither: async (a, b) => either.get(a, b, b, a) !== undefined,
    addChallenge: async (c, maxPending) =>
      db.transaction((): 'ok' | 'blocked' | 'too-many' => {
        if (either.get(c.fromID, c.toID, c.toID, c.fromID)) return 'blocked';
        db.prepare('DELETE FROM wg_name_challenges WHERE expires_at < ?').run(c.createdAt - KEEP_AFTER_MS);
        const { k } = db.prepare(`SELECT count(*) AS k FROM wg_name_challenges WHERE from_id = ? AND status = 'pending' AND expires_at > ?`).get(c.fromID, c.createdAt) as { k: number };
        if (k >= maxPending) return 'too-many';
        db.prepare(`INSERT INTO wg_name_challenges (id, from_id, to_id, side, clock, rated, take_backs, paired, status, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`).run(
          c.id, c.fromID, c.toID, c.side, c.clock, c.rated ? 1 : 0, c.takeBacks ? 1 : 0, c.paired ? 1 : 0, c.createdAt, c.expiresAt,
        );
        return 'ok';
      })(),
    challenge: async (id) => {
      const r = one.get(id) as Record<string, unknown> | undefined;
      return r && challengeRow(r);
    },
    challenges: async (accountID, now) =>
      (db.prepare(`${SELECT(n.c, n.a)} WHERE (c.from_id = ? OR c.to_id = ?) AND c.status = 'pending' AND c.expires_at > ? ORDER BY c.created_at, c.id`).all(accountID, accountID, now) as Record<string, unknown>[]).map(challengeRow),
    settle: async (id, status, now, matchID) => {
      const done = db.prepare(`UPDATE wg_name_challenges SET status = ?, match_id = ? WHERE id = ? AND status = 'pending' AND expires_at > ?`).run(status, matchID ?? null, id, now).changes === 1;
      if (!done) return undefined;
      return challengeRow(one.get(id) as Record<string, unknown>);
    },
  };
}

/** PostgreSQL: the tables are made in the store's connect transaction (`create`), the rows read through `sql`. */
export function pgSocial(sql: SqlQuery & { transaction<T>(fn: (q: SqlQuery) => Promise<T>): Promise<T> }, schema: string): SocialRows & { create(q: SqlQuery): Promise<void> } {
  const n = { b: `"${schema}".wg_blocks`, c: `"${schema}".wg_name_challenges`, a: `"${schema}".wg_accounts` };
  const eitherSql = `SELECT 1 FROM ${n.b} WHERE (account_id = $1 AND blocked_id = $2) OR (account_id = $2 AND blocked_id = $1)`;
  const one = async (q: SqlQuery, id: string) => {
    const { rows } = await q.query(`${SELECT(n.c, n.a)} WHERE c.id = $1`, [id]);
    return rows[0] && challengeRow(rows[0]);
  };
  return {
    async create(q) {
      for (const s of tables(n, 'text', 'bigint')) await q.query(s);
      await q.query(`ALTER TABLE ${n.c} ADD COLUMN IF NOT EXISTS paired integer NOT NULL DEFAULT 0`);
    },
    block: (accountID, blockedID, now, max) =>
      sql.transaction(async (q) => {
        // The account's row locked: two concurrent blocks cannot both pass the count.
        await q.query(`SELECT 1 FROM ${n.a} WHERE id = $1 FOR UPDATE`, [accountID]);
        if ((await q.query(`SELECT 1 FROM ${n.b} WHERE account_id = $1 AND blocked_id = $2`, [accountID, blockedID])).rows[0]) return true;
        const { rows } = await q.query<{ k: string }>(`SELECT count(*) AS k FROM ${n.b} WHERE account_id = $1`, [accountID]);
        if (Number(rows[0].k) >= max) return false;
        await q.query(`INSERT INTO ${n.b} (account_id, blocked_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [accountID, blockedID, now]);
        return true;
      }),
    unblock: async (accountID, blockedID) => (await sql.query(`DELETE FROM ${n.b} WHERE account_id = $1 AND blocked_id = $2 RETURNING 1`, [accountID, blockedID])).rows.length === 1,
    blocks: async (accountID) =>
      (await sql.query<{ username: string; created_at: string }>(`SELECT a.username, b.created_at FROM ${n.b} b JOIN ${n.a} a ON a.id = b.blocked_id WHERE b.account_id = $1 ORDER BY b.created_at, a.username`, [accountID])).rows.map((r) => ({
        username: r.username,
        createdAt: Number(r.created_at),
      })),
    blockedEither: async (a, b) => (await sql.query(eitherSql, [a, b])).rows.length > 0,
    addChallenge: (c, maxPending) =>
      sql.transaction(async (q) => {
        // The challenger's row locked: two concurrent challenges cannot both pass the count.
        await q.query(`SELECT 1 FROM ${n.a} WHERE id = $1 FOR UPDATE`, [c.fromID]);
        if ((await q.query(eitherSql, [c.fromID, c.toID])).rows.length > 0) return 'blocked' as const;
        await q.query(`DELETE FROM ${n.c} WHERE expires_at < $1`, [c.createdAt - KEEP_AFTER_MS]);
        const { rows } = await q.query<{ k: string }>(`SELECT count(*) AS k FROM ${n.c} WHERE from_id = $1 AND status = 'pending' AND expires_at > $2`, [c.fromID, c.createdAt]);
        if (Number(rows[0].k) >= maxPending) return 'too-many' as const;
        await q.query(`INSERT INTO ${n.c} (id, from_id, to_id, side, clock, rated, take_backs, paired, status, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $10)`, [
          c.id, c.fromID, c.toID, c.side, c.clock, c.rated ? 1 : 0, c.takeBacks ? 1 : 0, c.paired ? 1 : 0, c.createdAt, c.expiresAt,
        ]);
        return 'ok' as const;
      }),
    challenge: (id) => one(sql, id),
    challenges: async (accountID, now) =>
      (await sql.query(`${SELECT(n.c, n.a)} WHERE (c.from_id = $1 OR c.to_id = $1) AND c.status = 'pending' AND c.expires_at > $2 ORDER BY c.created_at, c.id`, [accountID, now])).rows.map(challengeRow),
    async settle(id, status, now, matchID) {
      const { rows } = await sql.query(`UPDATE ${n.c} SET status = $1, match_id = $2 WHERE id = $3 AND status = 'pending' AND expires_at > $4 RETURNING id`, [status, matchID ?? null, id, now]);
      return rows[0] ? one(sql, id) : undefined;
    },
  };
}
