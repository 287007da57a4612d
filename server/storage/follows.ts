/**
 * Follows and web-push subscriptions (blocks and challenges: social.ts) (server/social/follows.ts, server/notify/push.ts), kept beside the
 * accounts and removed with them (ON DELETE CASCADE): who follows whom, when each account last had a
 * page open, each account's push subscriptions (each also removed with the session that made it: signing
 * out of a shared browser stops its pushes), the push sent per account and match (one an hour, claimed
 * here so that with several processes only one sends it), and the server's VAPID key pair (made once, by
 * whichever process starts first). The same tables and statements in SQLite's and PostgreSQL's dialects.
 */
import type Database from 'better-sqlite3';
import type { SqlBackend, SqlQuery } from './sql';
import { mergeMetadata, type MatchData, type StoredRow } from './types';

/** A followed account as its follower's list needs it: its seats in unfinished matches say who is playing. */
export interface Followed {
  accountID: string;
  username: string;
  /** When it last had a page of ours open (signed in), or null. */
  activeAt: number | null;
  seats: { matchID: string; seat: string; metadata: MatchData }[];
}

/** A browser's push subscription (the Push API's endpoint and its two keys, base64url). */
export interface PushSubscriptionRow {
  endpoint: string;
  accountID: string;
  /** The session (its stored hash) that subscribed: signing out there, or everywhere, ends the subscription with it. */
  sessionID: string;
  p256dh: string;
  auth: string;
  /** The language of the page that subscribed: the notices' words. */
  lang: string;
  createdAt: number;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export type FollowResult = 'added' | 'already' | 'full';

export interface FollowRows {
  follow(follower: string, followed: string, now: number, max: number): Promise<FollowResult>;
  unfollow(follower: string, followed: string): Promise<boolean>;
  following(follower: string): Promise<Followed[]>;
  /** Notes that the account has a page open now. */
  active(accountID: string, now: number): Promise<void>;
  /** Adds (or moves to this account) a subscription, unless the account already has `max` others. */
  addPush(s: PushSubscriptionRow, max: number): Promise<boolean>;
  pushSubscriptions(accountID: string): Promise<PushSubscriptionRow[]>;
  /** Removes a subscription: the account's own (`accountID` given), or any (the push service said it is gone). */
  dropPush(endpoint: string, accountID?: string): Promise<boolean>;
  /** True if no push for this account and match went out since `now - windowMs`: this caller sends it. */
  claimPush(accountID: string, matchID: string, now: number, windowMs: number): Promise<boolean>;
  /** The stored key pair; `make` gives one when none is stored yet (the first to store it wins). */
  vapidKeys(make: () => VapidKeys): Promise<VapidKeys>;
}

const tables = (t: Names, text: string, int: string) => [
  `CREATE TABLE IF NOT EXISTS ${t.f} (follower_id ${text} NOT NULL REFERENCES ${t.a} (id) ON DELETE CASCADE,
    followed_id ${text} NOT NULL REFERENCES ${t.a} (id) ON DELETE CASCADE, created_at ${int} NOT NULL, PRIMARY KEY (follower_id, followed_id))`,
  `CREATE INDEX IF NOT EXISTS ${t.fIndex} ON ${t.f} (followed_id)`,
  `CREATE TABLE IF NOT EXISTS ${t.act} (account_id ${text} PRIMARY KEY REFERENCES ${t.a} (id) ON DELETE CASCADE, at ${int} NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ${t.ps} (endpoint ${text} PRIMARY KEY, account_id ${text} NOT NULL REFERENCES ${t.a} (id) ON DELETE CASCADE,
    session_id ${text} NOT NULL REFERENCES ${t.s} (id) ON DELETE CASCADE, p256dh ${text} NOT NULL, auth ${text} NOT NULL, lang ${text} NOT NULL, created_at ${int} NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS ${t.psIndex} ON ${t.ps} (account_id)`,
  `CREATE INDEX IF NOT EXISTS ${t.psSession} ON ${t.ps} (session_id)`,
  `CREATE TABLE IF NOT EXISTS ${t.sent} (account_id ${text} NOT NULL REFERENCES ${t.a} (id) ON DELETE CASCADE, match_id ${text} NOT NULL,
    sent_at ${int} NOT NULL, PRIMARY KEY (account_id, match_id))`,
  `CREATE TABLE IF NOT EXISTS ${t.v} (id integer PRIMARY KEY CHECK (id = 1), public_key ${text} NOT NULL, private_key ${text} NOT NULL)`,
];

interface Names {
  a: string;
  f: string;
  fIndex: string;
  act: string;
  ps: string;
  psIndex: string;
  psSession: string;
  s: string;
  sent: string;
  v: string;
  l: string;
  m: string;
}

const names = (q: (n: string) => string, bare: (n: string) => string): Names => ({
  a: q('wg_accounts'),
  f: q('wg_follows'),
  fIndex: bare('wg_follows_followed'),
  act: q('wg_active'),
  ps: q('wg_push_subs'),
  psIndex: bare('wg_push_subs_account'),
  psSession: bare('wg_push_subs_session'),
  s: q('wg_sessions'),
  sent: q('wg_push_sent'),
  v: q('wg_vapid'),
  l: q('wg_account_seats'),
  m: q('wg_matches'),
});

const followedQuery = (t: Names, p: string) =>
  `SELECT a.id, a.username, act.at FROM ${t.f} f JOIN ${t.a} a ON a.id = f.followed_id LEFT JOIN ${t.act} act ON act.account_id = a.id
   WHERE f.follower_id = ${p} ORDER BY lower(a.username)`;
const seatsQuery = (t: Names, p: string, open: string) =>
  `SELECT l.account_id, l.match_id, l.seat, m.metadata, m.updated_at, m.result FROM ${t.f} f JOIN ${t.l} l ON l.account_id = f.followed_id
   JOIN ${t.m} m ON m.match_id = l.match_id WHERE f.follower_id = ${p} AND ${open}`;

type SeatRow = { account_id: string; match_id: string; seat: string } & Pick<StoredRow, 'metadata' | 'updated_at' | 'result'>;

function assemble(accounts: { id: string; username: string; at: unknown }[], seats: SeatRow[]): Followed[] {
  const out = accounts.map((r) => ({ accountID: r.id, username: r.username, activeAt: r.at === null || r.at === undefined ? null : Number(r.at), seats: [] as Followed['seats'] }));
  const byID = new Map(out.map((f) => [f.accountID, f]));
  for (const s of seats) byID.get(s.account_id)?.seats.push({ matchID: s.match_id, seat: s.seat, metadata: mergeMetadata(s) });
  return out;
}

const subRow = (r: Record<string, unknown>): PushSubscriptionRow => ({
  endpoint: String(r.endpoint),
  accountID: String(r.account_id),
  sessionID: String(r.session_id),
  p256dh: String(r.p256dh),
  auth: String(r.auth),
  lang: String(r.lang),
  createdAt: Number(r.created_at),
});

export function sqliteFollows(db: Database.Database): FollowRows {
  const t = names((n) => n, (n) => n);
  for (const s of tables(t, 'TEXT', 'INTEGER')) db.exec(s);
  const count = db.prepare(`SELECT count(*) AS n FROM ${t.f} WHERE follower_id = ?`);
  const insert = db.prepare(`INSERT INTO ${t.f} (follower_id, followed_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`);
  const follow = db.transaction((a: string, b: string, now: number, max: number): FollowResult => {
    if ((count.get(a) as { n: number }).n >= max) return db.prepare(`SELECT 1 FROM ${t.f} WHERE follower_id = ? AND followed_id = ?`).get(a, b) ? 'already' : 'full';
    return insert.run(a, b, now).changes === 1 ? 'added' : 'already';
  });
  const others = db.prepare(`SELECT count(*) AS n FROM ${t.ps} WHERE account_id = ? AND endpoint <> ?`);
  const addPush = db.transaction((s: PushSubscriptionRow, max: number) => {
    if ((others.get(s.accountID, s.endpoint) as { n: number }).n >= max) return false;
    db.prepare(`INSERT INTO ${t.ps} (endpoint, account_id, session_id, p256dh, auth, lang, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (endpoint) DO UPDATE SET account_id = excluded.account_id, session_id = excluded.session_id, p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang, created_at = excluded.created_at`).run(s.endpoint, s.accountID, s.sessionID, s.p256dh, s.auth, s.lang, s.createdAt);
    return true;
  });
  return {
    follow: async (a, b, now, max) => follow(a, b, now, max),
    unfollow: async (a, b) => db.prepare(`DELETE FROM ${t.f} WHERE follower_id = ? AND followed_id = ?`).run(a, b).changes === 1,
    following: async (a) => assemble(db.prepare(followedQuery(t, '?')).all(a) as never, db.prepare(seatsQuery(t, '?', 'm.gameover = 0')).all(a) as SeatRow[]),
    active: async (id, now) => void db.prepare(`INSERT INTO ${t.act} (account_id, at) VALUES (?, ?) ON CONFLICT (account_id) DO UPDATE SET at = excluded.at`).run(id, now),
    addPush: async (s, max) => addPush(s, max),
    pushSubscriptions: async (id) => (db.prepare(`SELECT * FROM ${t.ps} WHERE account_id = ? ORDER BY created_at`).all(id) as Record<string, unknown>[]).map(subRow),
    dropPush: async (endpoint, id) =>
      (id === undefined ? db.prepare(`DELETE FROM ${t.ps} WHERE endpoint = ?`).run(endpoint) : db.prepare(`DELETE FROM ${t.ps} WHERE endpoint = ? AND account_id = ?`).run(endpoint, id)).changes === 1,
    async claimPush(id, matchID, now, windowMs) {
      // The account's other claims past their hour are of no use any more: the table holds an hour's pushes.
      db.prepare(`DELETE FROM ${t.sent} WHERE account_id = ? AND sent_at <= ? AND match_id <> ?`).run(id, now - windowMs, matchID);
      return (
        db
          .prepare(`INSERT INTO ${t.sent} (account_id, match_id, sent_at) VALUES (?, ?, ?) ON CONFLICT (account_id, match_id) DO UPDATE SET sent_at = excluded.sent_at WHERE ${t.sent}.sent_at <= ?`)
          .run(id, matchID, now, now - windowMs).changes === 1
      );
    },
    async vapidKeys(make) {
      const read = () => db.prepare(`SELECT public_key, private_key FROM ${t.v} WHERE id = 1`).get() as { public_key: string; private_key: string } | undefined;
      let r = read();
      if (!r) {
        const k = make();
        db.prepare(`INSERT INTO ${t.v} (id, public_key, private_key) VALUES (1, ?, ?) ON CONFLICT DO NOTHING`).run(k.publicKey, k.privateKey);
        r = read()!;
      }
      return { publicKey: r.public_key, privateKey: r.private_key };
    },
  };
}

/** PostgreSQL: the tables are made in the store's connect transaction (`create`), after the accounts'. */
export function pgFollows(sql: SqlBackend, schema: string): FollowRows & { create(q: SqlQuery): Promise<void> } {
  const t = names((n) => `"${schema}".${n}`, (n) => n);
  return {
    async create(q) {
      for (const s of tables(t, 'text', 'bigint')) await q.query(s);
    },
    follow: (a, b, now, max) =>
      sql.transaction(async (q) => {
        // The follower's row locked: two follows at once cannot both pass the count.
        await q.query(`SELECT 1 FROM ${t.a} WHERE id = $1 FOR UPDATE`, [a]);
        const { rows } = await q.query<{ n: string; has: boolean }>(`SELECT count(*) AS n, bool_or(followed_id = $2) AS has FROM ${t.f} WHERE follower_id = $1`, [a, b]);
        if (rows[0].has) return 'already';
        if (Number(rows[0].n) >= max) return 'full';
        const ins = await q.query(`INSERT INTO ${t.f} (follower_id, followed_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1`, [a, b, now]);
        return ins.rows.length === 1 ? 'added' : 'already';
      }),
    unfollow: async (a, b) => (await sql.query(`DELETE FROM ${t.f} WHERE follower_id = $1 AND followed_id = $2 RETURNING 1`, [a, b])).rows.length === 1,
    async following(a) {
      const accounts = await sql.query<{ id: string; username: string; at: unknown }>(followedQuery(t, '$1'), [a]);
      const seats = await sql.query<SeatRow>(seatsQuery(t, '$1', 'NOT m.gameover'), [a]);
      return assemble(accounts.rows, seats.rows);
    },
    active: async (id, now) => void (await sql.query(`INSERT INTO ${t.act} (account_id, at) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET at = EXCLUDED.at`, [id, now])),
    addPush: (s, max) =>
      sql.transaction(async (q) => {
        await q.query(`SELECT 1 FROM ${t.a} WHERE id = $1 FOR UPDATE`, [s.accountID]);
        const { rows } = await q.query<{ n: string }>(`SELECT count(*) AS n FROM ${t.ps} WHERE account_id = $1 AND endpoint <> $2`, [s.accountID, s.endpoint]);
        if (Number(rows[0].n) >= max) return false;
        await q.query(
          `INSERT INTO ${t.ps} (endpoint, account_id, session_id, p256dh, auth, lang, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (endpoint) DO UPDATE SET account_id = EXCLUDED.account_id, session_id = EXCLUDED.session_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, lang = EXCLUDED.lang, created_at = EXCLUDED.created_at`,
          [s.endpoint, s.accountID, s.sessionID, s.p256dh, s.auth, s.lang, s.createdAt],
        );
        return true;
      }),
    pushSubscriptions: async (id) => (await sql.query(`SELECT * FROM ${t.ps} WHERE account_id = $1 ORDER BY created_at`, [id])).rows.map(subRow),
    dropPush: async (endpoint, id) =>
      (id === undefined
        ? await sql.query(`DELETE FROM ${t.ps} WHERE endpoint = $1 RETURNING 1`, [endpoint])
        : await sql.query(`DELETE FROM ${t.ps} WHERE endpoint = $1 AND account_id = $2 RETURNING 1`, [endpoint, id])
      ).rows.length === 1,
    async claimPush(id, matchID, now, windowMs) {
      await sql.query(`DELETE FROM ${t.sent} WHERE account_id = $1 AND sent_at <= $2 AND match_id <> $3`, [id, now - windowMs, matchID]);
      return (
        await sql.query(
          `INSERT INTO ${t.sent} AS s (account_id, match_id, sent_at) VALUES ($1, $2, $3)
           ON CONFLICT (account_id, match_id) DO UPDATE SET sent_at = EXCLUDED.sent_at WHERE s.sent_at <= $4 RETURNING 1`,
          [id, matchID, now, now - windowMs],
        )
      ).rows.length === 1;
    },
    async vapidKeys(make) {
      const read = async () => (await sql.query<{ public_key: string; private_key: string }>(`SELECT public_key, private_key FROM ${t.v} WHERE id = 1`)).rows[0];
      let r = await read();
      if (!r) {
        const k = make();
        await sql.query(`INSERT INTO ${t.v} (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT DO NOTHING`, [k.publicKey, k.privateKey]);
        r = (await read())!;
      }
      return { publicKey: r.public_key, privateKey: r.private_key };
    },
  };
}
