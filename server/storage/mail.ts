/**
 * What the server keeps for e-mail (server/mail/, docs/ARCHITECTURE.md "E-mail"), beside the accounts:
 * - an account's address (one at most), verified or not, with its language and per-kind settings;
 * - single-use tokens (address verification, password reset), stored as their SHA-256 only;
 * - the outgoing queue: rendered messages claimed by one process at a time (a lease), retried with
 *   backoff, kept until sent or given up — so a restart loses nothing and two processes never send one
 *   row twice (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one writer);
 * - the notices' "once per window" marks (server/notices/): any channel may ask `once(...)`;
 * - the matches waiting for each account's daily digest;
 * - a random key of the database's own that signs unsubscribe links.
 * The same tables and statements in SQLite and PostgreSQL's dialects, as analyses.ts does.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { SqlQuery } from './sql';

export type TokenKind = 'verify' | 'reset';

export interface MailAddress {
  accountID: string;
  address: string;
  verified: boolean;
  lang: string;
  /** Per kind of notice (server/mail/kinds.ts): false when switched off; absent: on. */
  prefs: Record<string, boolean>;
}

export interface QueuedMail {
  id: string;
  accountID: string | null;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (JSON object), e.g. List-Unsubscribe. */
  headers: Record<string, string>;
  attempts: number;
}

export interface MailRows {
  address(accountID: string): Promise<MailAddress | undefined>;
  /** The account with this verified address (`key`: the address folded to lower case). */
  byAddress(key: string): Promise<string | undefined>;
  /** Sets a new, unverified address (the old one and its tokens go). */
  setAddress(accountID: string, address: string, key: string, lang: string): Promise<void>;
  /** Marks it verified unless another account has verified it: whether it now is. */
  verify(accountID: string, address: string): Promise<boolean>;
  removeAddress(accountID: string): Promise<void>;
  setPrefs(accountID: string, prefs: Record<string, boolean>, lang?: string): Promise<void>;
  addToken(t: { hash: string; accountID: string; kind: TokenKind; address: string; expiresAt: number }): Promise<void>;
  /** The token, once (deleted as it is read); undefined when unknown, of another kind or expired. */
  takeToken(hash: string, kind: TokenKind, now: number): Promise<{ accountID: string; address: string } | undefined>;
  /** Every token of that kind of the account (a used reset ends the others). */
  dropTokens(accountID: string, kind: TokenKind): Promise<void>;
  enqueue(m: Omit<QueuedMail, 'attempts'>, now: number): Promise<void>;
  /** Up to `n` due rows, each leased to the caller until `leaseUntil` (no other claim gets them meanwhile). */
  claim(n: number, now: number, leaseUntil: number): Promise<QueuedMail[]>;
  sent(id: string): Promise<void>;
  /** A failed attempt: tried again at `nextAt`, or given up (`nextAt` null) and removed. */
  failed(id: string, nextAt: number | null, error: string): Promise<void>;
  /** Rows not yet sent (for tests and /metrics). */
  pending(): Promise<number>;
  /**
   * Whether this is the first `key` (a channel, an account, a match) in `windowMs`: marks it when so,
   * in one statement, so two callers never both get true.
   */
  once(key: string, now: number, windowMs: number): Promise<boolean>;
  /** The key that signs unsubscribe links (made once per database). */
  signingKey(): Promise<string>;
  /** A match waiting for the account's daily digest (once per match until the digest goes). */
  addDigest(accountID: string, matchID: string, now: number): Promise<void>;
  /**
   * Takes (deletes and returns) every waiting match of up to `n` accounts whose oldest one waited since
   * `before` or earlier: each match goes into exactly one digest, whichever process takes it.
   */
  takeDigests(before: number, n: number): Promise<Map<string, string[]>>;
}

const tables = (p: string, text: string, int: string) => [
  `CREATE TABLE IF NOT EXISTS ${p}mail_addresses (account_id ${text} PRIMARY KEY REFERENCES ${p}accounts (id) ON DELETE CASCADE,
    address ${text} NOT NULL, address_key ${text} NOT NULL, verified_at ${int}, lang ${text} NOT NULL, prefs ${text} NOT NULL DEFAULT '{}')`,
  // An address verified by one account only: the key of "forgot password" by address.
  `CREATE UNIQUE INDEX IF NOT EXISTS ${p.replace(/^.*\./, '')}mail_addresses_verified ON ${p}mail_addresses (address_key) WHERE verified_at IS NOT NULL`,
  `CREATE TABLE IF NOT EXISTS ${p}mail_tokens (hash ${text} PRIMARY KEY, account_id ${text} NOT NULL REFERENCES ${p}accounts (id) ON DELETE CASCADE,
    kind ${text} NOT NULL, address ${text} NOT NULL, expires_at ${int} NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ${p}mail_queue (id ${text} PRIMARY KEY, account_id ${text} REFERENCES ${p}accounts (id) ON DELETE CASCADE,
    kind ${text} NOT NULL, to_addr ${text} NOT NULL, subject ${text} NOT NULL, body_text ${text} NOT NULL, body_html ${text} NOT NULL,
    headers ${text} NOT NULL, created_at ${int} NOT NULL, next_at ${int} NOT NULL, attempts ${int} NOT NULL DEFAULT 0,
    leased_until ${int} NOT NULL DEFAULT 0, error ${text})`,
  `CREATE INDEX IF NOT EXISTS ${p.replace(/^.*\./, '')}mail_queue_due ON ${p}mail_queue (next_at)`,
  `CREATE TABLE IF NOT EXISTS ${p}notice_marks (key ${text} PRIMARY KEY, at ${int} NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ${p}mail_key (id ${int} PRIMARY KEY CHECK (id = 1), key ${text} NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ${p}mail_digest (account_id ${text} NOT NULL REFERENCES ${p}accounts (id) ON DELETE CASCADE,
    match_id ${text} NOT NULL, at ${int} NOT NULL, PRIMARY KEY (account_id, match_id))`,
];

const grouped = (rows: { account_id: string; match_id: string }[]) => {
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.account_id, [...(out.get(r.account_id) ?? []), r.match_id]);
  return out;
};

const addressOf = (r: Record<string, unknown> | undefined): MailAddress | undefined =>
  r && { accountID: String(r.account_id), address: String(r.address), verified: r.verified_at !== null, lang: String(r.lang), prefs: JSON.parse(String(r.prefs)) as Record<string, boolean> };

const queued = (r: Record<string, unknown>): QueuedMail => ({
  id: String(r.id),
  accountID: r.account_id === null ? null : String(r.account_id),
  kind: String(r.kind),
  to: String(r.to_addr),
  subject: String(r.subject),
  text: String(r.body_text),
  html: String(r.body_html),
  headers: JSON.parse(String(r.headers)) as Record<string, string>,
  attempts: Number(r.attempts),
});

export function sqliteMail(db: Database.Database): MailRows {
  for (const t of tables('wg_', 'TEXT', 'INTEGER')) db.exec(t);
  db.prepare('INSERT INTO wg_mail_key (id, key) VALUES (1, ?) ON CONFLICT DO NOTHING').run(randomBytes(32).toString('base64url'));
  const q = {
    address: db.prepare('SELECT * FROM wg_mail_addresses WHERE account_id = ?'),
    byAddress: db.prepare('SELECT account_id FROM wg_mail_addresses WHERE address_key = ? AND verified_at IS NOT NULL'),
    set: db.prepare(`INSERT INTO wg_mail_addresses (account_id, address, address_key, verified_at, lang) VALUES (?, ?, ?, NULL, ?)
      ON CONFLICT (account_id) DO UPDATE SET address = excluded.address, address_key = excluded.address_key, verified_at = NULL, lang = excluded.lang`),
    verify: db.prepare(`UPDATE wg_mail_addresses SET verified_at = ? WHERE account_id = ? AND address = ?
      AND NOT EXISTS (SELECT 1 FROM wg_mail_addresses o WHERE o.address_key = wg_mail_addresses.address_key AND o.verified_at IS NOT NULL AND o.account_id <> wg_mail_addresses.account_id)`),
    remove: db.prepare('DELETE FROM wg_mail_addresses WHERE account_id = ?'),
    prefs: db.prepare('UPDATE wg_mail_addresses SET prefs = ?, lang = COALESCE(?, lang) WHERE account_id = ?'),
    addToken: db.prepare('INSERT INTO wg_mail_tokens (hash, account_id, kind, address, expires_at) VALUES (?, ?, ?, ?, ?)'),
    takeToken: db.prepare('DELETE FROM wg_mail_tokens WHERE hash = ? RETURNING account_id, kind, address, expires_at'),
    dropTokens: db.prepare('DELETE FROM wg_mail_tokens WHERE account_id = ? AND kind = ?'),
    dropAllTokens: db.prepare('DELETE FROM wg_mail_tokens WHERE account_id = ?'),
    expired: db.prepare('DELETE FROM wg_mail_tokens WHERE expires_at < ?'),
    enqueue: db.prepare(`INSERT INTO wg_mail_queue (id, account_id, kind, to_addr, subject, body_text, body_html, headers, created_at, next_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    claim: db.prepare(`UPDATE wg_mail_queue SET leased_until = ? WHERE id IN (SELECT id FROM wg_mail_queue WHERE next_at <= ? AND leased_until <= ? ORDER BY next_at LIMIT ?) RETURNING *`),
    sent: db.prepare('DELETE FROM wg_mail_queue WHERE id = ?'),
    retry: db.prepare('UPDATE wg_mail_queue SET attempts = attempts + 1, next_at = ?, leased_until = 0, error = ? WHERE id = ?'),
    pending: db.prepare('SELECT count(*) AS n FROM wg_mail_queue'),
    once: db.prepare('INSERT INTO wg_notice_marks (key, at) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET at = excluded.at WHERE wg_notice_marks.at <= ? RETURNING 1'),
    key: db.prepare('SELECT key FROM wg_mail_key WHERE id = 1'),
    addDigest: db.prepare('INSERT INTO wg_mail_digest (account_id, match_id, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
    takeDigests: db.prepare(`DELETE FROM wg_mail_digest WHERE account_id IN (
      SELECT account_id FROM wg_mail_digest GROUP BY account_id HAVING min(at) <= ? LIMIT ?) RETURNING account_id, match_id`),
  };
  return {
    address: async (id) => addressOf(q.address.get(id) as Record<string, unknown> | undefined),
    byAddress: async (key) => (q.byAddress.get(key) as { account_id: string } | undefined)?.account_id,
    setAddress: async (id, address, key, lang) =>
      void db.transaction(() => {
        q.set.run(id, address, key, lang);
        q.dropAllTokens.run(id);
      })(),
    verify: async (id, address) => q.verify.run(Date.now(), id, address).changes === 1,
    removeAddress: async (id) =>
      void db.transaction(() => {
        q.remove.run(id);
        q.dropAllTokens.run(id);
      })(),
    setPrefs: async (id, prefs, lang) => void q.prefs.run(JSON.stringify(prefs), lang ?? null, id),
    addToken: async (t) =>
      void db.transaction(() => {
        q.expired.run(Date.now());
        q.addToken.run(t.hash, t.accountID, t.kind, t.address, t.expiresAt);
      })(),
    async takeToken(hash, kind, now) {
      const r = q.takeToken.get(hash) as { account_id: string; kind: string; address: string; expires_at: number } | undefined;
      return r && r.kind === kind && Number(r.expires_at) > now ? { accountID: r.account_id, address: r.address } : undefined;
    },
    dropTokens: async (id, kind) => void q.dropTokens.run(id, kind),
    enqueue: async (m, now) => void q.enqueue.run(m.id, m.accountID, m.kind, m.to, m.subject, m.text, m.html, JSON.stringify(m.headers), now, now),
    claim: async (n, now, leaseUntil) => (q.claim.all(leaseUntil, now, now, n) as Record<string, unknown>[]).map(queued),
    sent: async (id) => void q.sent.run(id),
    failed: async (id, nextAt, error) => void (nextAt === null ? q.sent.run(id) : q.retry.run(nextAt, error, id)),
    pending: async () => Number((q.pending.get() as { n: number }).n),
    once: async (key, now, windowMs) => q.once.get(key, now, now - windowMs) !== undefined,
    signingKey: async () => (q.key.get() as { key: string }).key,
    addDigest: async (id, matchID, now) => void q.addDigest.run(id, matchID, now),
    takeDigests: async (before, n) => grouped(q.takeDigests.all(before, n) as { account_id: string; match_id: string }[]),
  };
}

/** PostgreSQL: the tables are made in the store's connect transaction (`create`), the rows read through `sql`. */
export function pgMail(sql: SqlQuery, schema: string): MailRows & { create(q: SqlQuery): Promise<void> } {
  const p = `"${schema}".wg_`;
  let key: string | undefined;
  return {
    async create(q) {
      for (const t of tables(p, 'text', 'bigint')) await q.query(t);
      await q.query(`INSERT INTO ${p}mail_key (id, key) VALUES (1, $1) ON CONFLICT DO NOTHING`, [randomBytes(32).toString('base64url')]);
    },
    async address(id) {
      const { rows } = await sql.query(`SELECT * FROM ${p}mail_addresses WHERE account_id = $1`, [id]);
      return addressOf(rows[0]);
    },
    async byAddress(k) {
      const { rows } = await sql.query<{ account_id: string }>(`SELECT account_id FROM ${p}mail_addresses WHERE address_key = $1 AND verified_at IS NOT NULL`, [k]);
      return rows[0]?.account_id;
    },
    async setAddress(id, address, k, lang) {
      await sql.query(
        `WITH d AS (DELETE FROM ${p}mail_tokens WHERE account_id = $1)
         INSERT INTO ${p}mail_addresses (account_id, address, address_key, verified_at, lang) VALUES ($1, $2, $3, NULL, $4)
         ON CONFLICT (account_id) DO UPDATE SET address = EXCLUDED.address, address_key = EXCLUDED.address_key, verified_at = NULL, lang = EXCLUDED.lang`,
        [id, address, k, lang],
      );
    },
    async verify(id, address) {
      try {
        const { rows } = await sql.query(`UPDATE ${p}mail_addresses SET verified_at = $1 WHERE account_id = $2 AND address = $3 RETURNING 1`, [Date.now(), id, address]);
        return rows.length === 1;
      } catch (e) {
        // The unique index: another account verified this address first.
        if ((e as { code?: string }).code === '23505') return false;
        throw e;
      }
    },
    removeAddress: async (id) => void (await sql.query(`WITH d AS (DELETE FROM ${p}mail_tokens WHERE account_id = $1) DELETE FROM ${p}mail_addresses WHERE account_id = $1`, [id])),
    setPrefs: async (id, prefs, lang) => void (await sql.query(`UPDATE ${p}mail_addresses SET prefs = $1, lang = COALESCE($2, lang) WHERE account_id = $3`, [JSON.stringify(prefs), lang ?? null, id])),
    async addToken(t) {
      await sql.query(`DELETE FROM ${p}mail_tokens WHERE expires_at < $1`, [Date.now()]);
      await sql.query(`INSERT INTO ${p}mail_tokens (hash, account_id, kind, address, expires_at) VALUES ($1, $2, $3, $4, $5)`, [t.hash, t.accountID, t.kind, t.address, t.expiresAt]);
    },
    async takeToken(hash, kind, now) {
      const { rows } = await sql.query<{ account_id: string; kind: string; address: string; expires_at: string }>(`DELETE FROM ${p}mail_tokens WHERE hash = $1 RETURNING account_id, kind, address, expires_at`, [hash]);
      const r = rows[0];
      return r && r.kind === kind && Number(r.expires_at) > now ? { accountID: r.account_id, address: r.address } : undefined;
    },
    dropTokens: async (id, kind) => void (await sql.query(`DELETE FROM ${p}mail_tokens WHERE account_id = $1 AND kind = $2`, [id, kind])),
    enqueue: async (m, now) =>
      void (await sql.query(
        `INSERT INTO ${p}mail_queue (id, account_id, kind, to_addr, subject, body_text, body_html, headers, created_at, next_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
        [m.id, m.accountID, m.kind, m.to, m.subject, m.text, m.html, JSON.stringify(m.headers), now],
      )),
    async claim(n, now, leaseUntil) {
      // SKIP LOCKED: another process claiming at the same instant takes other rows, never these.
      const { rows } = await sql.query(
        `UPDATE ${p}mail_queue SET leased_until = $1 WHERE id IN (
           SELECT id FROM ${p}mail_queue WHERE next_at <= $2 AND leased_until <= $2 ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING *`,
        [leaseUntil, now, n],
      );
      return rows.map(queued);
    },
    sent: async (id) => void (await sql.query(`DELETE FROM ${p}mail_queue WHERE id = $1`, [id])),
    failed: async (id, nextAt, error) =>
      void (await (nextAt === null
        ? sql.query(`DELETE FROM ${p}mail_queue WHERE id = $1`, [id])
        : sql.query(`UPDATE ${p}mail_queue SET attempts = attempts + 1, next_at = $1, leased_until = 0, error = $2 WHERE id = $3`, [nextAt, error, id]))),
    pending: async () => Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM ${p}mail_queue`)).rows[0].n),
    async once(k, now, windowMs) {
      const { rows } = await sql.query(
        `INSERT INTO ${p}notice_marks AS x (key, at) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET at = EXCLUDED.at WHERE x.at <= $3 RETURNING 1`,
        [k, now, now - windowMs],
      );
      return rows.length === 1;
    },
    async signingKey() {
      key ??= (await sql.query<{ key: string }>(`SELECT key FROM ${p}mail_key WHERE id = 1`)).rows[0].key;
      return key;
    },
    addDigest: async (id, matchID, now) => void (await sql.query(`INSERT INTO ${p}mail_digest (account_id, match_id, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [id, matchID, now])),
    async takeDigests(before, n) {
      // Two processes deleting the same rows: the second waits for the first's and then finds them gone.
      const { rows } = await sql.query<{ account_id: string; match_id: string }>(
        `DELETE FROM ${p}mail_digest WHERE account_id IN (SELECT account_id FROM ${p}mail_digest GROUP BY account_id HAVING min(at) <= $1 LIMIT $2) RETURNING account_id, match_id`,
        [before, n],
      );
      return grouped(rows);
    },
  };
}
