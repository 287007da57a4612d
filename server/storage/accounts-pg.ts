/** The accounts' tables in PostgreSQL (or PGlite): same shape as accounts-sqlite.ts; see accounts.ts. */
import { randomBytes } from 'node:crypto';
import { newRating } from '../ratings/glicko';
import { gameEnd, PAIR_LIMIT, SEEN_TOGETHER, SIDES, unratedBecause, type Side } from '../ratings/rules';
import { notSeenTogether, seenTogetherSql, SEEN, seenHash, type Seen, refuseGone, backfillRatedAt, boardEntry, boardQuery, seasonQuery, seasonTally, type SeasonTally, finishedMatch, NOT_DECISIONS, ratingOf, seenBy, type AccountSettings, type AccountStore, type BoardEntry, type Pairing, type Passkey, type Rating, type ResultRow, type SeatLink, type Ticket, type ApiToken, tokenRow, TOKEN_USE_GRANULARITY_MS } from './accounts';
import { passkeyRow, PAIR_RATED_SQL, RESULT_COLUMNS, resultRow, ticketRow } from './accounts-sqlite';
import { lookalikeKey } from './lookalike';
import { notBlocked } from './social';
import type { SqlQuery } from './sql';
import { mergeMetadata, type NewMatch, type StoredRow } from './types';

const t = (schema: string) => ({
  a: `"${schema}".wg_accounts`,
  s: `"${schema}".wg_sessions`,
  p: `"${schema}".wg_passkeys`,
  c: `"${schema}".wg_challenges`,
  l: `"${schema}".wg_account_seats`,
  r: `"${schema}".wg_ratings`,
  x: `"${schema}".wg_results`,
  q: `"${schema}".wg_pairing`,
  m: `"${schema}".wg_matches`,
  mv: `"${schema}".wg_moves`,
  sn: `"${schema}".wg_seen`,
  sk: `"${schema}".wg_seen_key`,
  tk: `"${schema}".wg_api_tokens`,
  bl: `"${schema}".wg_blocks`,
});

export async function createAccountTables(q: SqlQuery, schema: string): Promise<void> {
  const n = t(schema);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.a} (id text PRIMARY KEY, username text NOT NULL, name_key text NOT NULL UNIQUE,
    password text, settings text NOT NULL DEFAULT '{}', created_at bigint NOT NULL)`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.s} (id text PRIMARY KEY, account_id text NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE,
    created_at bigint NOT NULL, expires_at bigint NOT NULL)`);
  await q.query(`CREATE INDEX IF NOT EXISTS wg_sessions_account ON ${n.s} (account_id)`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.p} (id text PRIMARY KEY, account_id text NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE,
    public_key text NOT NULL, counter bigint NOT NULL, transports text NOT NULL, created_at bigint NOT NULL)`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.c} (id text PRIMARY KEY, challenge text NOT NULL, account_id text, expires_at bigint NOT NULL)`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.l} (match_id text NOT NULL REFERENCES ${n.m} (match_id) ON DELETE CASCADE, seat text NOT NULL,
    account_id text NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE, PRIMARY KEY (match_id, seat))`);
  await q.query(`CREATE INDEX IF NOT EXISTS wg_account_seats_account ON ${n.l} (account_id)`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.r} (account_id text NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE, side text NOT NULL,
    rating double precision NOT NULL, rd double precision NOT NULL, vol double precision NOT NULL, games integer NOT NULL, rated_at bigint, PRIMARY KEY (account_id, side))`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.x} (match_id text NOT NULL, side text NOT NULL, account_id text NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE,
    opponent_id text, opponent_name text NOT NULL, opponent_level text, won integer NOT NULL, reason text NOT NULL, rated integer NOT NULL,
    rating_before double precision, rating_after double precision, rd_after double precision, decisions integer NOT NULL, moves integer NOT NULL,
    started_at bigint NOT NULL, finished_at bigint NOT NULL, PRIMARY KEY (match_id, side))`);
  await q.query(`CREATE INDEX IF NOT EXISTS wg_results_account ON ${n.x} (account_id, finished_at)`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.q} (id text PRIMARY KEY, account_id text REFERENCES ${n.a} (id) ON DELETE CASCADE, name text NOT NULL,
    rating double precision NOT NULL, side text NOT NULL, clock text NOT NULL, rated integer NOT NULL, created_at bigint NOT NULL, seen_at bigint NOT NULL,
    match_id text, seat text, credentials text, mark text)`);
  // Which moves the computer made for a seat (a stand-in, the clock): not the player's decisions.
  await q.query(`ALTER TABLE ${n.mv} ADD COLUMN IF NOT EXISTS auto boolean NOT NULL DEFAULT false`);
  // When each side rating was last rated (its deviation widens with the time since).
  await q.query(`ALTER TABLE ${n.r} ADD COLUMN IF NOT EXISTS rated_at bigint`);
  await q.query(backfillRatedAt({ ratings: n.r, results: n.x }));
  // Why a game was not rated, as a code (rules.ts unratedBecause); older rows have none.
  await q.query(`ALTER TABLE ${n.x} ADD COLUMN IF NOT EXISTS unrated_reason text`);
  await q.query(`CREATE INDEX IF NOT EXISTS wg_results_pair ON ${n.x} (account_id, opponent_id, finished_at)`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.sn} (account_id text NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE, kind text NOT NULL, hash text NOT NULL,
    seen_at bigint NOT NULL, PRIMARY KEY (account_id, kind, hash))`);
  await q.query(`CREATE INDEX IF NOT EXISTS wg_seen_hash ON ${n.sn} (hash)`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.sk} (id integer PRIMARY KEY CHECK (id = 1), key text NOT NULL)`);
  await q.query(`INSERT INTO ${n.sk} (id, key) VALUES (1, $1) ON CONFLICT DO NOTHING`, [randomBytes(32).toString('base64url')]);
  // Look-alike usernames (lookalike.ts) and what an owner sees of a passkey: added after the first release.
  await q.query(`ALTER TABLE ${n.a} ADD COLUMN IF NOT EXISTS skeleton text`);
  await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS wg_accounts_skeleton ON ${n.a} (skeleton)`);
  await q.query(`ALTER TABLE ${n.p} ADD COLUMN IF NOT EXISTS name text`);
  await q.query(`ALTER TABLE ${n.p} ADD COLUMN IF NOT EXISTS last_used_at bigint`);
  // Bot accounts and their personal API tokens (server/bots/api/): added after the first release.
  await q.query(`ALTER TABLE ${n.a} ADD COLUMN IF NOT EXISTS bot boolean NOT NULL DEFAULT false`);
  await q.query(`CREATE TABLE IF NOT EXISTS ${n.tk} (id text PRIMARY KEY, account_id text NOT NULL REFERENCES ${n.a} (id) ON DELETE CASCADE,
    hash text NOT NULL UNIQUE, name text NOT NULL, scopes text NOT NULL, created_at bigint NOT NULL, last_used_at bigint)`);
  await q.query(`CREATE INDEX IF NOT EXISTS wg_api_tokens_account ON ${n.tk} (account_id)`);
  // Accounts from before look-alike keys get theirs, oldest first; one whose key an older account already
  // has (a look-alike pair made before the check) keeps none, and the older account keeps the name.
  const { rows } = await q.query<{ id: string; username: string }>(`SELECT id, username FROM ${n.a} WHERE skeleton IS NULL ORDER BY created_at, id`);
  for (const r of rows) {
    const k = lookalikeKey(r.username);
    await q.query(`UPDATE ${n.a} SET skeleton = $1 WHERE id = $2 AND NOT EXISTS (SELECT 1 FROM ${n.a} WHERE skeleton = $1)`, [k, r.id]);
  }
}

type Row = Record<string, unknown>;
const accountOf = (r: Row) => ({
  id: String(r.id),
  username: String(r.username),
  createdAt: Number(r.created_at),
  settings: JSON.parse(String(r.settings)) as AccountSettings,
  hasPassword: r.password !== null,
  bot: r.bot === true,
  password: (r.password as string | null) ?? null,
});
const passkeyOf = (r: Row): Passkey => passkeyRow(r);

export class PgAccounts implements AccountStore {
  private readonly n;
  constructor(
    private readonly sql: SqlQuery & { transaction<T>(fn: (q: SqlQuery) => Promise<T>): Promise<T> },
    schema: string,
    /** Inserts a new match inside the caller's transaction (the store's own insert). */
    private readonly insertMatch: (q: SqlQuery, m: NewMatch) => Promise<void>,
  ) {
    this.n = t(schema);
  }

  async create(a: { id: string; username: string; key: string; password: string | null; createdAt: number }): Promise<boolean> {
    const { rows } = await this.sql.query(`INSERT INTO ${this.n.a} (id, username, name_key, skeleton, password, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id`, [
      a.id,
      a.username,
      a.key,
      lookalikeKey(a.username),
      a.password,
      a.createdAt,
    ]);
    return rows.length === 1;
  }
  async byKey(key: string) {
    const { rows } = await this.sql.query(`SELECT * FROM ${this.n.a} WHERE name_key = $1`, [key]);
    return rows[0] && accountOf(rows[0]);
  }
  async byID(id: string) {
    const { rows } = await this.sql.query(`SELECT * FROM ${this.n.a} WHERE id = $1`, [id]);
    return rows[0] && accountOf(rows[0]);
  }
  async setPassword(id: string, password: string): Promise<void> {
    await this.sql.query(`UPDATE ${this.n.a} SET password = $2 WHERE id = $1`, [id, password]);
  }
  async setSettings(id: string, settings: AccountSettings): Promise<void> {
    await this.sql.query(`UPDATE ${this.n.a} SET settings = $2 WHERE id = $1`, [id, JSON.stringify(settings)]);
  }
  async remove(id: string, deletedName: string): Promise<SeatLink[]> {
    return this.sql.transaction(async (q) => {
      // The account's row locked first: a seat being linked to it (link, FOR SHARE) commits before, or finds it gone.
      await q.query(`SELECT 1 FROM ${this.n.a} WHERE id = $1 FOR UPDATE`, [id]);
      const { rows } = await q.query<{ match_id: string; seat: Side }>(`SELECT match_id, seat FROM ${this.n.l} WHERE account_id = $1`, [id]);
      await q.query(`UPDATE ${this.n.x} SET opponent_id = NULL, opponent_name = $2 WHERE opponent_id = $1`, [id, deletedName]);
      await q.query(`DELETE FROM ${this.n.a} WHERE id = $1`, [id]);
      return rows.map((r) => ({ matchID: r.match_id, seat: r.seat, accountID: id }));
    });
  }

  async addSession(s: { hash: string; accountID: string; createdAt: number; expiresAt: number }): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.n.s} WHERE expires_at < $1`, [s.createdAt]);
    await this.sql.query(`INSERT INTO ${this.n.s} (id, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`, [s.hash, s.accountID, s.createdAt, s.expiresAt]);
  }
  async session(hash: string, now: number) {
    const { rows } = await this.sql.query(
      `SELECT a.*, s.expires_at AS session_expires_at, s.created_at AS session_created_at FROM ${this.n.s} s JOIN ${this.n.a} a ON a.id = s.account_id WHERE s.id = $1 AND s.expires_at > $2`,
      [hash, now],
    );
    if (!rows[0]) return undefined;
    const { password: _p, ...a } = accountOf(rows[0]);
    return { account: a, expiresAt: Number(rows[0].session_expires_at), signedInAt: Number(rows[0].session_created_at) };
  }
  async renewSession(hash: string, expiresAt: number): Promise<void> {
    await this.sql.query(`UPDATE ${this.n.s} SET expires_at = $2 WHERE id = $1`, [hash, expiresAt]);
  }
  async dropSession(hash: string): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.n.s} WHERE id = $1`, [hash]);
  }
  async dropSessions(accountID: string, keep?: string): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.n.s} WHERE account_id = $1 AND id <> $2`, [accountID, keep ?? '']);
  }

  async addPasskey(p: Passkey): Promise<void> {
    await this.sql.query(`INSERT INTO ${this.n.p} (id, account_id, public_key, counter, transports, created_at, name, last_used_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      p.id,
      p.accountID,
      p.publicKey,
      p.counter,
      JSON.stringify(p.transports),
      p.createdAt,
      p.name,
      p.lastUsedAt,
    ]);
  }
  async passkey(id: string) {
    const { rows } = await this.sql.query(`SELECT * FROM ${this.n.p} WHERE id = $1`, [id]);
    return rows[0] && passkeyOf(rows[0]);
  }
  async passkeys(accountID: string) {
    return (await this.sql.query(`SELECT * FROM ${this.n.p} WHERE account_id = $1 ORDER BY created_at`, [accountID])).rows.map(passkeyOf);
  }
  async usedPasskey(id: string, counter: number, at: number): Promise<void> {
    await this.sql.query(`UPDATE ${this.n.p} SET counter = $2, last_used_at = $3 WHERE id = $1`, [id, counter, at]);
  }
  async removePasskey(accountID: string, id: string): Promise<boolean> {
    return (await this.sql.query(`DELETE FROM ${this.n.p} WHERE account_id = $1 AND id = $2 RETURNING id`, [accountID, id])).rows.length === 1;
  }
  async removePasskeys(accountID: string): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.n.p} WHERE account_id = $1`, [accountID]);
  }
  async addToken(t: ApiToken & { hash: string }, max: number): Promise<boolean> {
    return this.sql.transaction(async (q) => {
      // The account's row locked: two concurrent adds cannot both pass the count.
      const { rows: acc } = await q.query(`SELECT 1 FROM ${this.n.a} WHERE id = $1 FOR UPDATE`, [t.accountID]);
      if (!acc[0]) return false;
      const { rows } = await q.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.n.tk} WHERE account_id = $1`, [t.accountID]);
      if (Number(rows[0].n) >= max) return false;
      await q.query(`INSERT INTO ${this.n.tk} (id, account_id, hash, name, scopes, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [t.id, t.accountID, t.hash, t.name, JSON.stringify(t.scopes), t.createdAt]);
      return true;
    });
  }
  async tokens(accountID: string): Promise<ApiToken[]> {
    const { rows } = await this.sql.query(`SELECT * FROM ${this.n.tk} WHERE account_id = $1 ORDER BY created_at, id`, [accountID]);
    return rows.map(tokenRow);
  }
  async removeToken(accountID: string, id: string): Promise<boolean> {
    const { rows } = await this.sql.query(`DELETE FROM ${this.n.tk} WHERE account_id = $1 AND id = $2 RETURNING id`, [accountID, id]);
    return rows.length === 1;
  }
  async tokenByHash(hash: string, now: number) {
    const { rows } = await this.sql.query(
      `SELECT t.*, a.id AS a_id, a.username, a.password, a.settings, a.created_at AS a_created_at, a.bot FROM ${this.n.tk} t JOIN ${this.n.a} a ON a.id = t.account_id WHERE t.hash = $1`,
      [hash],
    );
    const r = rows[0];
    if (!r) return undefined;
    const token = tokenRow(r);
    if (token.lastUsedAt === null || now - token.lastUsedAt >= TOKEN_USE_GRANULARITY_MS) await this.sql.query(`UPDATE ${this.n.tk} SET last_used_at = $2 WHERE id = $1`, [token.id, now]);
    const { password: _p, ...a } = accountOf({ ...r, id: r.a_id, created_at: r.a_created_at });
    return { token, account: a };
  }
  async makeBot(accountID: string): Promise<boolean> {
    return this.sql.transaction(async (q) => {
      // The account's row locked first, as `remove` and seat links do: a seat being linked commits before, or after the flag.
      const { rows: acc } = await q.query<{ bot: boolean }>(`SELECT bot FROM ${this.n.a} WHERE id = $1 FOR UPDATE`, [accountID]);
      if (!acc[0]) return false;
      const { rows } = await q.query(`SELECT 1 FROM ${this.n.l} WHERE account_id = $1 UNION ALL SELECT 1 FROM ${this.n.x} WHERE account_id = $1 LIMIT 1`, [accountID]);
      if (rows[0]) return acc[0].bot;
      await q.query(`UPDATE ${this.n.a} SET bot = true WHERE id = $1`, [accountID]);
      return true;
    });
  }

  async putChallenge(c: { id: string; challenge: string; accountID: string | null; expiresAt: number }): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.n.c} WHERE expires_at < $1`, [Date.now()]);
    await this.sql.query(`INSERT INTO ${this.n.c} (id, challenge, account_id, expires_at) VALUES ($1, $2, $3, $4)`, [c.id, c.challenge, c.accountID, c.expiresAt]);
  }
  async takeChallenge(id: string, now: number) {
    const { rows } = await this.sql.query<{ challenge: string; account_id: string | null; expires_at: string }>(`DELETE FROM ${this.n.c} WHERE id = $1 RETURNING challenge, account_id, expires_at`, [id]);
    const r = rows[0];
    return r && Number(r.expires_at) > now ? { challenge: r.challenge, accountID: r.account_id } : undefined;
  }

  async seats(accountID: string): Promise<SeatLink[]> {
    const { rows } = await this.sql.query<{ match_id: string; seat: Side }>(`SELECT match_id, seat FROM ${this.n.l} WHERE account_id = $1`, [accountID]);
    return rows.map((r) => ({ matchID: r.match_id, seat: r.seat, accountID }));
  }
  async heldSeats(accountID: string) {
    const { rows } = await this.sql.query<{ match_id: string; seat: Side } & Pick<StoredRow, 'metadata' | 'updated_at' | 'result'>>(
      `SELECT l.match_id, l.seat, m.metadata, m.updated_at, m.result FROM ${this.n.l} l JOIN ${this.n.m} m ON m.match_id = l.match_id WHERE l.account_id = $1`,
      [accountID],
    );
    return rows.map((r) => ({ matchID: r.match_id, seat: r.seat, accountID, metadata: mergeMetadata(r) }));
  }
  async unlink(matchID: string, seat: Side): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.n.l} WHERE match_id = $1 AND seat = $2`, [matchID, seat]);
  }
  /** Inside the caller's transaction: the seats a metadata change gave to accounts. */
  async link(q: SqlQuery, links: SeatLink[]): Promise<void> {
    for (const l of links) if ((await q.query(`SELECT 1 FROM ${this.n.a} WHERE id = $1 FOR SHARE`, [l.accountID])).rows.length === 0) refuseGone();
    for (const l of links)
      await q.query(`INSERT INTO ${this.n.l} (match_id, seat, account_id) VALUES ($1, $2, $3) ON CONFLICT (match_id, seat) DO UPDATE SET account_id = EXCLUDED.account_id`, [l.matchID, l.seat, l.accountID]);
  }

  private async ratingsIn(q: SqlQuery, ids: string[], lock = false): Promise<Map<string, Partial<Record<Side, Rating>>>> {
    const out = new Map<string, Partial<Record<Side, Rating>>>();
    if (ids.length === 0) return out;
    const { rows } = await q.query<{ account_id: string; side: Side }>(
      `SELECT * FROM ${this.n.r} WHERE account_id = ANY($1::text[]) ORDER BY account_id, side${lock ? ' FOR UPDATE' : ''}`,
      [ids],
    );
    for (const r of rows) out.set(r.account_id, { ...out.get(r.account_id), [r.side]: ratingOf(r) });
    return out;
  }
  ratings(ids: string[]) {
    return this.ratingsIn(this.sql, [...new Set(ids)].slice(0, 500));
  }
  async results(accountID: string, limit: number, o?: { seenBy: string | null }): Promise<ResultRow[]> {
    const only = o ? ` AND ${seenBy({ matches: this.n.m, p: '$3::text', publicRecord: "(m.metadata::jsonb ->> 'publicRecord') = 'true'" })}` : '';
    const { rows } = await this.sql.query(`SELECT ${RESULT_COLUMNS} FROM ${this.n.x} x WHERE x.account_id = $1${only} ORDER BY finished_at DESC LIMIT $2`, o ? [accountID, limit, o.seenBy] : [accountID, limit]);
    return rows.map((r) => resultRow(r as never));
  }
  async matchResults(matchID: string): Promise<ResultRow[]> {
    const { rows } = await this.sql.query(`SELECT ${RESULT_COLUMNS} FROM ${this.n.x} WHERE match_id = $1 ORDER BY side`, [matchID]);
    return rows.map((r) => resultRow(r as never));
  }
  async seasonTallies(from: number, to: number): Promise<SeasonTally[]> {
    const { rows } = await this.sql.query(seasonQuery({ accounts: this.n.a, results: this.n.x }, ['$1', '$2']), [from, to]);
    return rows.map(seasonTally);
  }
  async leaderboard(side: Side | 'combined', minGames: number, limit: number): Promise<BoardEntry[]> {
    const { rows } = await this.sql.query(boardQuery(side, { accounts: this.n.a, ratings: this.n.r, results: this.n.x }, ['$1', '$2']), [minGames, limit]);
    return rows.map((r) => boardEntry(r as Record<string, unknown>));
  }

  /**
   * Inside the transaction that stored a game-ending move: the players' records and, for a rated match,
   * both side ratings (their rows locked). Keyed by (match, side): a second attempt changes nothing.
   */
  async ended(q: SqlQuery, matchID: string, gameover: unknown, finishedAt: number): Promise<void> {
    const { rows } = await q.query<Pick<StoredRow, 'metadata' | 'updated_at' | 'result'>>(`SELECT metadata, updated_at, result FROM ${this.n.m} WHERE match_id = $1`, [matchID]);
    if (!rows[0]) return;
    const counts = (
      await q.query<{ seat: string; decisions: string }>(
        `SELECT action::jsonb -> 'payload' ->> 'playerID' AS seat, count(*) AS decisions FROM ${this.n.mv}
         WHERE match_id = $1 AND NOT auto AND NOT ((action::jsonb -> 'payload' ->> 'type') = ANY($2::text[])) GROUP BY 1`,
        [matchID, NOT_DECISIONS],
      )
    ).rows.map((r) => ({ seat: r.seat, decisions: Number(r.decisions) }));
    const moves = Number((await q.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.n.mv} WHERE match_id = $1`, [matchID])).rows[0].n);
    const m = finishedMatch(matchID, mergeMetadata(rows[0]), gameover, counts, moves, finishedAt);
    if (!m) return;
    const [a, b] = [m.seats['0'].account, m.seats['1'].account];
    if (a && b && unratedBecause(m) === null) {
      // Two games of the same pair ending at once (their side ratings are other rows) take turns, so that
      // each counts the other (PAIR_LIMIT).
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.n.x} ${[a.id, b.id].sort().join(' ')}`]);
      m.pairRated = Number((await q.query<{ n: string }>(PAIR_RATED_SQL(this.n.x, ['$1', '$2', '$3']), [a.id, b.id, finishedAt - PAIR_LIMIT.windowMs])).rows[0].n);
      m.seenTogether = await this.seenTogetherIn(q, a.id, b.id, finishedAt - SEEN_TOGETHER.windowMs);
    }
    if (unratedBecause(m) === null) {
      // A newcomer's side has no row to lock: made first (always in one order), so that another game of the
      // same player ending now waits for this one instead of rating from the same newcomer's rating.
      const fresh = newRating();
      const sides = SIDES.map((side) => ({ id: m.seats[side].account!.id, side })).sort((a, b) => (a.id === b.id ? (a.side < b.side ? -1 : 1) : a.id < b.id ? -1 : 1));
      for (const x of sides)
        await q.query(`INSERT INTO ${this.n.r} (account_id, side, rating, rd, vol, games) VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT DO NOTHING`, [x.id, x.side, fresh.rating, fresh.rd, fresh.vol]);
    }
    const now = await this.ratingsIn(q, [m.seats['0'].account?.id, m.seats['1'].account?.id].filter((x): x is string => !!x), true);
    const out = gameEnd(m, (id, side) => now.get(id)?.[side]);
    let added = 0;
    for (const r of out.results) {
      const ins = await q.query(
        `INSERT INTO ${this.n.x} (${RESULT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING RETURNING match_id`,
        [r.matchID, r.side, r.accountID, r.opponentID, r.opponentName, r.opponentLevel, r.won ? 1 : 0, r.reason, r.rated ? 1 : 0, r.ratingBefore, r.ratingAfter, r.rdAfter, r.decisions, r.moves, r.startedAt, r.finishedAt, r.unratedReason],
      );
      added += ins.rows.length;
    }
    if (added !== out.results.length) return;
    for (const r of out.ratings)
      await q.query(
        `INSERT INTO ${this.n.r} (account_id, side, rating, rd, vol, games, rated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, side) DO UPDATE SET rating = EXCLUDED.rating, rd = EXCLUDED.rd, vol = EXCLUDED.vol, games = EXCLUDED.games, rated_at = EXCLUDED.rated_at`,
        [r.accountID, r.side, r.rating.rating, r.rating.rd, r.rating.vol, r.rating.games, r.rating.ratedAt],
      );
  }

  private seenKey: string | undefined;
  /** Inside the caller's transaction: where the account was seen (hashed), keeping SEEN.keep of each kind. */
  private async seeIn(q: SqlQuery, accountID: string, seen: Seen[], now: number): Promise<void> {
    this.seenKey ??= String((await q.query<{ key: string }>(`SELECT key FROM ${this.n.sk} WHERE id = 1`)).rows[0].key);
    for (const x of seen)
      await q.query(`INSERT INTO ${this.n.sn} (account_id, kind, hash, seen_at) VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, kind, hash) DO UPDATE SET seen_at = EXCLUDED.seen_at`, [
        accountID, x.kind, seenHash(this.seenKey, x), now,
      ]);
    await q.query(
      `DELETE FROM ${this.n.sn} s WHERE s.account_id = $1 AND (s.seen_at < $2 OR s.hash NOT IN (SELECT k.hash FROM ${this.n.sn} k WHERE k.account_id = s.account_id AND k.kind = s.kind ORDER BY k.seen_at DESC LIMIT $3))`,
      [accountID, now - SEEN.forMs, SEEN.keep],
    );
  }

  private async seenTogetherIn(q: SqlQuery, a: string, b: string, since: number): Promise<boolean> {
    return (await q.query<{ x: boolean }>(`SELECT ${seenTogetherSql(this.n.sn, '$1::text', '$2::text', '$3')} AS x`, [a, b, since])).rows[0].x;
  }
  async seenOf(accountID: string): Promise<{ kind: Seen['kind']; hash: string; seenAt: number }[]> {
    const { rows } = await this.sql.query<{ kind: Seen['kind']; hash: string; seen_at: string }>(`SELECT kind, hash, seen_at FROM ${this.n.sn} WHERE account_id = $1 ORDER BY seen_at DESC`, [accountID]);
    return rows.map((r) => ({ kind: r.kind, hash: r.hash, seenAt: Number(r.seen_at) }));
  }
  async seenTogether(a: string, b: string, since: number): Promise<boolean> {
    return this.sql.transaction((q) => this.seenTogetherIn(q, a, b, since));
  }
  async see(accountID: string, seen: Seen[], now: number): Promise<void> {
    await this.sql.transaction((q) => this.seeIn(q, accountID, seen, now));
  }

  async putTicket(tk: Ticket, seen: Seen[] = []): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.n.q} WHERE (match_id IS NULL AND seen_at < $1) OR created_at < $2`, [tk.seenAt - 60_000, tk.seenAt - 3_600_000]);
    await this.sql.transaction(async (q) => {
      // One waiting ticket per account: its asks are taken one at a time (whichever process), each replacing the last.
      if (tk.accountID !== null) {
        await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.n.q} ${tk.accountID}`]);
        await q.query(`DELETE FROM ${this.n.q} WHERE account_id = $1 AND match_id IS NULL`, [tk.accountID]);
        await this.seeIn(q, tk.accountID, seen, tk.seenAt);
      }
      await q.query(`INSERT INTO ${this.n.q} (id, account_id, name, rating, side, clock, rated, created_at, seen_at, mark) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
        tk.id, tk.accountID, tk.name, tk.rating, tk.side, tk.clock, tk.rated ? 1 : 0, tk.createdAt, tk.seenAt, tk.mark,
      ]);
    });
  }
  async ticket(id: string, now: number) {
    const { rows } = await this.sql.query(`UPDATE ${this.n.q} SET seen_at = $2 WHERE id = $1 RETURNING *`, [id, now]);
    return rows[0] && ticketRow(rows[0]);
  }
  async dropTicket(id: string): Promise<void> {
    await this.sql.query(`DELETE FROM ${this.n.q} WHERE id = $1`, [id]);
  }
  pair(id: string, now: number, o: { window: number; liveMs: number; make: (a: Ticket, b: Ticket) => Pairing }): Promise<Ticket | undefined> {
    return this.sql.transaction(async (q) => {
      // Another process pairing this ticket right now holds its row: this attempt waits for the next poll.
      const { rows: mine } = await q.query(`SELECT * FROM ${this.n.q} WHERE id = $1 FOR UPDATE SKIP LOCKED`, [id]);
      if (!mine[0]) return undefined;
      const me = ticketRow(mine[0]);
      if (me.matchID !== null) return me;
      const { rows: them } = await q.query(
        `SELECT * FROM ${this.n.q} WHERE id <> $1 AND match_id IS NULL AND seen_at > $2 AND clock = $3 AND rated = $4
           AND (side = 'either' OR $5 = 'either' OR side <> $5) AND (account_id IS NULL OR $6::text IS NULL OR account_id <> $6) AND abs(rating - $7) <= $8
           AND ${notSeenTogether(this.n.sn, '$6::text', `${this.n.q}.account_id`, '$9')}
           AND ${notBlocked(this.n.bl, '$6::text', `${this.n.q}.account_id`)}
         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [id, now - o.liveMs, me.clock, me.rated ? 1 : 0, me.side, me.accountID, me.rating, o.window, now - SEEN.forMs],
      );
      if (!them[0]) return me;
      const p = o.make(me, ticketRow(them[0]));
      await this.insertMatch(q, p.create);
      await this.link(q, p.links);
      for (const s of p.seats) await q.query(`UPDATE ${this.n.q} SET match_id = $1, seat = $2, credentials = $3 WHERE id = $4`, [p.create.matchID, s.seat, s.credentials, s.ticketID]);
      return ticketRow((await q.query(`SELECT * FROM ${this.n.q} WHERE id = $1`, [id])).rows[0]);
    });
  }
}
