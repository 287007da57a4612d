/** The accounts' tables in the embedded SQLite file (same shape as accounts-pg.ts; see accounts.ts). */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { UnratedReason } from '../../protocol/accounts';
import { gameEnd, PAIR_LIMIT, SEEN_TOGETHER, unratedBecause, type Side } from '../ratings/rules';
import { notSeenTogether, seenTogetherSql, SEEN, seenHash, type Seen, refuseGone, backfillRatedAt, boardEntry, boardQuery, seasonQuery, seasonTally, type SeasonTally, finishedMatch, NOT_DECISIONS, ratingOf, seenBy, type Account, type AccountSettings, type AccountStore, type BoardEntry, type Pairing, type Passkey, type Rating, type ResultRow, type SeatLink, type Ticket, type ApiToken, tokenRow, TOKEN_USE_GRANULARITY_MS } from './accounts';
import { lookalikeKey } from './lookalike';
import { notBlocked } from './social';
import { mergeMetadata, type StoredRow } from './types';

export function createAccountTables(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS wg_accounts (id TEXT PRIMARY KEY, username TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
      password TEXT, settings TEXT NOT NULL DEFAULT '{}', created_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS wg_sessions (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES wg_accounts (id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS wg_sessions_account ON wg_sessions (account_id);
    CREATE TABLE IF NOT EXISTS wg_passkeys (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES wg_accounts (id) ON DELETE CASCADE,
      public_key TEXT NOT NULL, counter INTEGER NOT NULL, transports TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS wg_challenges (id TEXT PRIMARY KEY, challenge TEXT NOT NULL, account_id TEXT, expires_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS wg_account_seats (match_id TEXT NOT NULL REFERENCES wg_matches (match_id) ON DELETE CASCADE, seat TEXT NOT NULL,
      account_id TEXT NOT NULL REFERENCES wg_accounts (id) ON DELETE CASCADE, PRIMARY KEY (match_id, seat)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS wg_account_seats_account ON wg_account_seats (account_id);
    CREATE TABLE IF NOT EXISTS wg_ratings (account_id TEXT NOT NULL REFERENCES wg_accounts (id) ON DELETE CASCADE, side TEXT NOT NULL,
      rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL, games INTEGER NOT NULL, rated_at INTEGER, PRIMARY KEY (account_id, side)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS wg_results (match_id TEXT NOT NULL, side TEXT NOT NULL, account_id TEXT NOT NULL REFERENCES wg_accounts (id) ON DELETE CASCADE,
      opponent_id TEXT, opponent_name TEXT NOT NULL, opponent_level TEXT, won INTEGER NOT NULL, reason TEXT NOT NULL, rated INTEGER NOT NULL,
      rating_before REAL, rating_after REAL, rd_after REAL, decisions INTEGER NOT NULL, moves INTEGER NOT NULL,
      started_at INTEGER NOT NULL, finished_at INTEGER NOT NULL, PRIMARY KEY (match_id, side));
    CREATE INDEX IF NOT EXISTS wg_results_account ON wg_results (account_id, finished_at);
    CREATE TABLE IF NOT EXISTS wg_pairing (id TEXT PRIMARY KEY, account_id TEXT REFERENCES wg_accounts (id) ON DELETE CASCADE, name TEXT NOT NULL,
      rating REAL NOT NULL, side TEXT NOT NULL, clock TEXT NOT NULL, rated INTEGER NOT NULL, created_at INTEGER NOT NULL, seen_at INTEGER NOT NULL,
      match_id TEXT, seat TEXT, credentials TEXT, mark TEXT);
    CREATE TABLE IF NOT EXISTS wg_seen (account_id TEXT NOT NULL REFERENCES wg_accounts (id) ON DELETE CASCADE, kind TEXT NOT NULL, hash TEXT NOT NULL,
      seen_at INTEGER NOT NULL, PRIMARY KEY (account_id, kind, hash)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS wg_seen_hash ON wg_seen (hash);
    CREATE TABLE IF NOT EXISTS wg_seen_key (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL);`);
  db.prepare('INSERT INTO wg_seen_key (id, key) VALUES (1, ?) ON CONFLICT DO NOTHING').run(randomBytes(32).toString('base64url'));
  // Which moves the computer made for a seat (a stand-in, the clock): not the player's decisions.
  const cols = db.prepare(`SELECT name FROM pragma_table_info('wg_moves')`).all() as { name: string }[];
  if (!cols.some((c) => c.name === 'auto')) db.exec('ALTER TABLE wg_moves ADD COLUMN auto INTEGER NOT NULL DEFAULT 0');
  // When each side rating was last rated (its deviation widens with the time since).
  const ratingCols = db.prepare(`SELECT name FROM pragma_table_info('wg_ratings')`).all() as { name: string }[];
  if (!ratingCols.some((c) => c.name === 'rated_at')) db.exec('ALTER TABLE wg_ratings ADD COLUMN rated_at INTEGER');
  db.exec(backfillRatedAt({ ratings: 'wg_ratings', results: 'wg_results' }));
  // Why a game was not rated, as a code (rules.ts unratedBecause); older rows have none.
  const resultCols = db.prepare(`SELECT name FROM pragma_table_info('wg_results')`).all() as { name: string }[];
  if (!resultCols.some((c) => c.name === 'unrated_reason')) db.exec('ALTER TABLE wg_results ADD COLUMN unrated_reason TEXT');
  db.exec('CREATE INDEX IF NOT EXISTS wg_results_pair ON wg_results (account_id, opponent_id, finished_at)');
  // Look-alike usernames (lookalike.ts) and what an owner sees of a passkey: added after the first release.
  const accountCols = db.prepare(`SELECT name FROM pragma_table_info('wg_accounts')`).all() as { name: string }[];
  if (!accountCols.some((c) => c.name === 'skeleton')) db.exec('ALTER TABLE wg_accounts ADD COLUMN skeleton TEXT');
  db.exec('CREATE UNIQUE INDEX IF NOT EXISTS wg_accounts_skeleton ON wg_accounts (skeleton)');
  const passkeyCols = db.prepare(`SELECT name FROM pragma_table_info('wg_passkeys')`).all() as { name: string }[];
  if (!passkeyCols.some((c) => c.name === 'name')) db.exec('ALTER TABLE wg_passkeys ADD COLUMN name TEXT');
  if (!passkeyCols.some((c) => c.name === 'last_used_at')) db.exec('ALTER TABLE wg_passkeys ADD COLUMN last_used_at INTEGER');
  backfillSkeletons(db);
  // Bot accounts and their personal API tokens (server/bots/api/): added after the first release.
  if (!accountCols.some((c) => c.name === 'bot')) db.exec('ALTER TABLE wg_accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0');
  db.exec(`CREATE TABLE IF NOT EXISTS wg_api_tokens (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES wg_accounts (id) ON DELETE CASCADE,
      hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL, scopes TEXT NOT NULL, created_at INTEGER NOT NULL, last_used_at INTEGER);
    CREATE INDEX IF NOT EXISTS wg_api_tokens_account ON wg_api_tokens (account_id);`);
}

/**
 * Accounts from before look-alike keys get theirs, oldest first; one whose key an older account already
 * has (a look-alike pair made before the check) keeps none, and the older account keeps the name.
 */
function backfillSkeletons(db: Database.Database): void {
  const rows = db.prepare('SELECT id, username FROM wg_accounts WHERE skeleton IS NULL ORDER BY created_at, id').all() as { id: string; username: string }[];
  const set = db.prepare('UPDATE wg_accounts SET skeleton = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM wg_accounts WHERE skeleton = ?)');
  db.transaction(() => {
    for (const r of rows) {
      const k = lookalikeKey(r.username);
      set.run(k, r.id, k);
    }
  })();
}

/** Rated games between two accounts ended after `since` (one row per match: the first account's). */
export const PAIR_RATED_SQL = (results: string, p: [string, string, string]) =>
  `SELECT count(*) AS n FROM ${results} WHERE account_id = ${p[0]} AND opponent_id = ${p[1]} AND rated = 1 AND finished_at > ${p[2]}`;

type AccountRow = { id: string; username: string; password: string | null; settings: string; created_at: number; bot?: number };
const account = (r: AccountRow): Account & { password: string | null } => ({
  id: r.id,
  username: r.username,
  createdAt: Number(r.created_at),
  settings: JSON.parse(r.settings) as AccountSettings,
  hasPassword: r.password !== null,
  bot: Boolean(r.bot),
  password: r.password,
});

type ResultDbRow = Record<string, string | number | null>;
export const resultRow = (r: ResultDbRow): ResultRow => ({
  matchID: String(r.match_id),
  side: r.side as Side,
  accountID: String(r.account_id),
  opponentID: r.opponent_id === null ? null : String(r.opponent_id),
  opponentName: String(r.opponent_name),
  opponentLevel: r.opponent_level === null ? null : String(r.opponent_level),
  won: Boolean(r.won),
  reason: String(r.reason),
  rated: Boolean(r.rated),
  unratedReason: (r.unrated_reason ?? null) as UnratedReason | null,
  ratingBefore: r.rating_before === null ? null : Number(r.rating_before),
  ratingAfter: r.rating_after === null ? null : Number(r.rating_after),
  rdAfter: r.rd_after === null ? null : Number(r.rd_after),
  decisions: Number(r.decisions),
  moves: Number(r.moves),
  startedAt: Number(r.started_at),
  finishedAt: Number(r.finished_at),
});

export const passkeyRow = (r: Record<string, unknown>): Passkey => ({
  id: String(r.id),
  accountID: String(r.account_id),
  publicKey: String(r.public_key),
  counter: Number(r.counter),
  transports: JSON.parse(String(r.transports)) as string[],
  createdAt: Number(r.created_at),
  name: r.name === null || r.name === undefined ? null : String(r.name),
  lastUsedAt: r.last_used_at === null || r.last_used_at === undefined ? null : Number(r.last_used_at),
});

export const ticketRow = (r: Record<string, unknown>): Ticket => ({
  id: String(r.id),
  accountID: r.account_id === null ? null : String(r.account_id),
  name: String(r.name),
  rating: Number(r.rating),
  side: r.side as Ticket['side'],
  clock: String(r.clock),
  rated: Boolean(r.rated),
  createdAt: Number(r.created_at),
  seenAt: Number(r.seen_at),
  matchID: r.match_id === null ? null : String(r.match_id),
  seat: (r.seat as Side | null) ?? null,
  credentials: r.credentials === null ? null : String(r.credentials),
  mark: r.mark === null || r.mark === undefined ? null : String(r.mark),
});

/** The columns of a stored result, in the order both backends write and read them. */
export const RESULT_COLUMNS = 'match_id, side, account_id, opponent_id, opponent_name, opponent_level, won, reason, rated, rating_before, rating_after, rd_after, decisions, moves, started_at, finished_at, unrated_reason';

export class SqliteAccounts implements AccountStore {
  constructor(
    private readonly db: Database.Database,
    /** Inserts a new match inside the caller's transaction (the store's own insert). */
    private readonly insertMatch: (m: Pairing['create']) => void,
  ) {}

  async create(a: { id: string; username: string; key: string; password: string | null; createdAt: number }): Promise<boolean> {
    const r = this.db.prepare('INSERT INTO wg_accounts (id, username, name_key, skeleton, password, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING').run(a.id, a.username, a.key, lookalikeKey(a.username), a.password, a.createdAt);
    return r.changes === 1;
  }
  async byKey(key: string) {
    const r = this.db.prepare('SELECT * FROM wg_accounts WHERE name_key = ?').get(key) as AccountRow | undefined;
    return r && account(r);
  }
  async byID(id: string) {
    const r = this.db.prepare('SELECT * FROM wg_accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return r && account(r);
  }
  async setPassword(id: string, password: string): Promise<void> {
    this.db.prepare('UPDATE wg_accounts SET password = ? WHERE id = ?').run(password, id);
  }
  async setSettings(id: string, settings: AccountSettings): Promise<void> {
    this.db.prepare('UPDATE wg_accounts SET settings = ? WHERE id = ?').run(JSON.stringify(settings), id);
  }
  async remove(id: string, deletedName: string): Promise<SeatLink[]> {
    return this.db.transaction(() => {
      const links = (this.db.prepare('SELECT match_id, seat FROM wg_account_seats WHERE account_id = ?').all(id) as { match_id: string; seat: Side }[]).map((r) => ({ matchID: r.match_id, seat: r.seat, accountID: id }));
      this.db.prepare('UPDATE wg_results SET opponent_id = NULL, opponent_name = ? WHERE opponent_id = ?').run(deletedName, id);
      this.db.prepare('DELETE FROM wg_accounts WHERE id = ?').run(id);
      return links;
    })();
  }

  async addSession(s: { hash: string; accountID: string; createdAt: number; expiresAt: number }): Promise<void> {
    this.db.prepare('DELETE FROM wg_sessions WHERE expires_at < ?').run(s.createdAt);
    this.db.prepare('INSERT INTO wg_sessions (id, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(s.hash, s.accountID, s.createdAt, s.expiresAt);
  }
  async session(hash: string, now: number) {
    const r = this.db
      .prepare('SELECT a.*, s.expires_at AS session_expires_at, s.created_at AS session_created_at FROM wg_sessions s JOIN wg_accounts a ON a.id = s.account_id WHERE s.id = ? AND s.expires_at > ?')
      .get(hash, now) as (AccountRow & { session_expires_at: number; session_created_at: number }) | undefined;
    if (!r) return undefined;
    const { password: _p, ...a } = account(r);
    return { account: a as Account, expiresAt: Number(r.session_expires_at), signedInAt: Number(r.session_created_at) };
  }
  async renewSession(hash: string, expiresAt: number): Promise<void> {
    this.db.prepare('UPDATE wg_sessions SET expires_at = ? WHERE id = ?').run(expiresAt, hash);
  }
  async dropSession(hash: string): Promise<void> {
    this.db.prepare('DELETE FROM wg_sessions WHERE id = ?').run(hash);
  }
  async dropSessions(accountID: string, keep?: string): Promise<void> {
    this.db.prepare('DELETE FROM wg_sessions WHERE account_id = ? AND id <> ?').run(accountID, keep ?? '');
  }

  async addPasskey(p: Passkey): Promise<void> {
    this.db
      .prepare('INSERT INTO wg_passkeys (id, account_id, public_key, counter, transports, created_at, name, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(p.id, p.accountID, p.publicKey, p.counter, JSON.stringify(p.transports), p.createdAt, p.name, p.lastUsedAt);
  }
  private passkeyOf(r: Record<string, unknown> | undefined): Passkey | undefined {
    return r && passkeyRow(r);
  }
  async passkey(id: string) {
    return this.passkeyOf(this.db.prepare('SELECT * FROM wg_passkeys WHERE id = ?').get(id) as Record<string, unknown> | undefined);
  }
  async passkeys(accountID: string) {
    return (this.db.prepare('SELECT * FROM wg_passkeys WHERE account_id = ? ORDER BY created_at').all(accountID) as Record<string, unknown>[]).map((r) => this.passkeyOf(r)!);
  }
  async usedPasskey(id: string, counter: number, at: number): Promise<void> {
    this.db.prepare('UPDATE wg_passkeys SET counter = ?, last_used_at = ? WHERE id = ?').run(counter, at, id);
  }
  async removePasskey(accountID: string, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM wg_passkeys WHERE account_id = ? AND id = ?').run(accountID, id).changes === 1;
  }
  async removePasskeys(accountID: string): Promise<void> {
    this.db.prepare('DELETE FROM wg_passkeys WHERE account_id = ?').run(accountID);
  }
  async addToken(t: ApiToken & { hash: string }, max: number): Promise<boolean> {
    return this.db.transaction(() => {
      const { n } = this.db.prepare('SELECT count(*) AS n FROM wg_api_tokens WHERE account_id = ?').get(t.accountID) as { n: number };
      if (n >= max) return false;
      this.db.prepare('INSERT INTO wg_api_tokens (id, account_id, hash, name, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(t.id, t.accountID, t.hash, t.name, JSON.stringify(t.scopes), t.createdAt);
      return true;
    }).immediate();
  }
  async tokens(accountID: string): Promise<ApiToken[]> {
    return (this.db.prepare('SELECT * FROM wg_api_tokens WHERE account_id = ? ORDER BY created_at, id').all(accountID) as Record<string, unknown>[]).map(tokenRow);
  }
  async removeToken(accountID: string, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM wg_api_tokens WHERE account_id = ? AND id = ?').run(accountID, id).changes === 1;
  }
  async tokenByHash(hash: string, now: number) {
    const r = this.db.prepare('SELECT t.*, a.id AS a_id, a.username, a.password, a.settings, a.created_at AS a_created_at, a.bot FROM wg_api_tokens t JOIN wg_accounts a ON a.id = t.account_id WHERE t.hash = ?').get(hash) as Record<string, unknown> | undefined;
    if (!r) return undefined;
    const token = tokenRow(r);
    if (token.lastUsedAt === null || now - token.lastUsedAt >= TOKEN_USE_GRANULARITY_MS) this.db.prepare('UPDATE wg_api_tokens SET last_used_at = ? WHERE id = ?').run(now, token.id);
    const { password: _p, ...a } = account({ id: String(r.a_id), username: String(r.username), password: r.password as string | null, settings: String(r.settings), created_at: Number(r.a_created_at), bot: Number(r.bot) });
    return { token, account: a };
  }
  async makeBot(accountID: string): Promise<boolean> {
    return this.db.transaction(() => {
      // Seat links are kept while the match exists and results for ever: an account that ever played has one or the other.
      const played = this.db.prepare('SELECT 1 FROM wg_account_seats WHERE account_id = ? UNION ALL SELECT 1 FROM wg_results WHERE account_id = ? LIMIT 1').get(accountID, accountID);
      if (played) return (this.db.prepare('SELECT bot FROM wg_accounts WHERE id = ?').get(accountID) as { bot: number } | undefined)?.bot === 1;
      return this.db.prepare('UPDATE wg_accounts SET bot = 1 WHERE id = ?').run(accountID).changes === 1;
    }).immediate();
  }

  async putChallenge(c: { id: string; challenge: string; accountID: string | null; expiresAt: number }): Promise<void> {
    this.db.prepare('DELETE FROM wg_challenges WHERE expires_at < ?').run(Date.now());
    this.db.prepare('INSERT INTO wg_challenges (id, challenge, account_id, expires_at) VALUES (?, ?, ?, ?)').run(c.id, c.challenge, c.accountID, c.expiresAt);
  }
  async takeChallenge(id: string, now: number) {
    const r = this.db.prepare('DELETE FROM wg_challenges WHERE id = ? RETURNING challenge, account_id, expires_at').get(id) as { challenge: string; account_id: string | null; expires_at: number } | undefined;
    return r && r.expires_at > now ? { challenge: r.challenge, accountID: r.account_id } : undefined;
  }

  async seats(accountID: string): Promise<SeatLink[]> {
    return (this.db.prepare('SELECT match_id, seat FROM wg_account_seats WHERE account_id = ?').all(accountID) as { match_id: string; seat: Side }[]).map((r) => ({ matchID: r.match_id, seat: r.seat, accountID }));
  }
  async heldSeats(accountID: string) {
    const rows = this.db
      .prepare('SELECT l.match_id, l.seat, m.metadata, m.updated_at, m.result FROM wg_account_seats l JOIN wg_matches m ON m.match_id = l.match_id WHERE l.account_id = ?')
      .all(accountID) as ({ match_id: string; seat: Side } & Pick<StoredRow, 'metadata' | 'updated_at' | 'result'>)[];
    return rows.map((r) => ({ matchID: r.match_id, seat: r.seat, accountID, metadata: mergeMetadata(r) }));
  }
  async unlink(matchID: string, seat: Side): Promise<void> {
    this.db.prepare('DELETE FROM wg_account_seats WHERE match_id = ? AND seat = ?').run(matchID, seat);
  }
  /** Inside the caller's transaction: the seats a metadata change gave to accounts. */
  link(links: SeatLink[]): void {
    const exists = this.db.prepare('SELECT 1 FROM wg_accounts WHERE id = ?');
    for (const l of links) if (!exists.get(l.accountID)) refuseGone();
    const st = this.db.prepare('INSERT INTO wg_account_seats (match_id, seat, account_id) VALUES (?, ?, ?) ON CONFLICT (match_id, seat) DO UPDATE SET account_id = excluded.account_id');
    for (const l of links) st.run(l.matchID, l.seat, l.accountID);
  }

  private ratingsNow(ids: string[]): Map<string, Partial<Record<Side, Rating>>> {
    const out = new Map<string, Partial<Record<Side, Rating>>>();
    if (ids.length === 0) return out;
    const rows = this.db.prepare(`SELECT * FROM wg_ratings WHERE account_id IN (${ids.map(() => '?').join(',')})`).all(...ids) as { account_id: string; side: Side }[];
    for (const r of rows) out.set(r.account_id, { ...out.get(r.account_id), [r.side]: ratingOf(r) });
    return out;
  }
  async ratings(ids: string[]) {
    return this.ratingsNow([...new Set(ids)].slice(0, 500));
  }
  async results(accountID: string, limit: number, o?: { seenBy: string | null }): Promise<ResultRow[]> {
    const only = o ? ` AND ${seenBy({ matches: 'wg_matches', p: '@viewer', publicRecord: "json_extract(m.metadata, '$.publicRecord') = 1" })}` : '';
    return (this.db.prepare(`SELECT ${RESULT_COLUMNS} FROM wg_results x WHERE x.account_id = @id${only} ORDER BY finished_at DESC LIMIT @limit`).all({ id: accountID, limit, ...(o ? { viewer: o.seenBy } : {}) }) as ResultDbRow[]).map(resultRow);
  }
  async matchResults(matchID: string): Promise<ResultRow[]> {
    return (this.db.prepare(`SELECT ${RESULT_COLUMNS} FROM wg_results WHERE match_id = ? ORDER BY side`).all(matchID) as ResultDbRow[]).map(resultRow);
  }
  async seasonTallies(from: number, to: number): Promise<SeasonTally[]> {
    return (this.db.prepare(seasonQuery({ accounts: 'wg_accounts', results: 'wg_results' }, ['?', '?'])).all(from, to) as Record<string, unknown>[]).map(seasonTally);
  }
  async leaderboard(side: Side | 'combined', minGames: number, limit: number): Promise<BoardEntry[]> {
    return (this.db.prepare(boardQuery(side, { accounts: 'wg_accounts', ratings: 'wg_ratings', results: 'wg_results' }, ['?', '?'])).all(minGames, limit) as Record<string, unknown>[]).map(boardEntry);
  }

  /**
   * Inside the transaction that stored a game-ending move: the players' records and, for a rated match,
   * both side ratings. Keyed by (match, side): a second attempt finds its rows and changes nothing.
   */
  ended(matchID: string, gameover: unknown, finishedAt: number): void {
    const row = this.db.prepare('SELECT metadata, updated_at, result FROM wg_matches WHERE match_id = ?').get(matchID) as Pick<StoredRow, 'metadata' | 'updated_at' | 'result'> | undefined;
    if (!row) return;
    const counts = this.db
      .prepare(`SELECT json_extract(action, '$.payload.playerID') AS seat, count(*) AS decisions FROM wg_moves
        WHERE match_id = ? AND auto = 0 AND json_extract(action, '$.payload.type') NOT IN (${NOT_DECISIONS.map(() => '?').join(',')}) GROUP BY seat`)
      .all(matchID, ...NOT_DECISIONS) as { seat: string; decisions: number }[];
    const moves = (this.db.prepare('SELECT count(*) AS n FROM wg_moves WHERE match_id = ?').get(matchID) as { n: number }).n;
    const m = finishedMatch(matchID, mergeMetadata(row), gameover, counts, moves, finishedAt);
    if (!m) return;
    const [a, b] = [m.seats['0'].account, m.seats['1'].account];
    if (a && b && unratedBecause(m) === null) {
      m.pairRated = (this.db.prepare(PAIR_RATED_SQL('wg_results', ['?', '?', '?'])).get(a.id, b.id, finishedAt - PAIR_LIMIT.windowMs) as { n: number }).n;
      m.seenTogether = this.seenTogetherNow(a.id, b.id, finishedAt - SEEN_TOGETHER.windowMs);
    }
    const now = this.ratingsNow([m.seats['0'].account?.id, m.seats['1'].account?.id].filter((x): x is string => !!x));
    const out = gameEnd(m, (id, side) => now.get(id)?.[side]);
    const add = this.db.prepare(`INSERT INTO wg_results (${RESULT_COLUMNS}) VALUES (${RESULT_COLUMNS.split(',').map(() => '?').join(',')}) ON CONFLICT DO NOTHING`);
    let added = 0;
    for (const r of out.results)
      added += add.run(r.matchID, r.side, r.accountID, r.opponentID, r.opponentName, r.opponentLevel, r.won ? 1 : 0, r.reason, r.rated ? 1 : 0, r.ratingBefore, r.ratingAfter, r.rdAfter, r.decisions, r.moves, r.startedAt, r.finishedAt, r.unratedReason).changes;
    if (added !== out.results.length) return;
    const put = this.db.prepare(
      'INSERT INTO wg_ratings (account_id, side, rating, rd, vol, games, rated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, side) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, vol = excluded.vol, games = excluded.games, rated_at = excluded.rated_at',
    );
    for (const r of out.ratings) put.run(r.accountID, r.side, r.rating.rating, r.rating.rd, r.rating.vol, r.rating.games, r.rating.ratedAt);
  }

  private seenKey: string | undefined;
  /** Inside the caller's transaction: where the account was seen (hashed), keeping SEEN.keep of each kind. */
  private seeIn(accountID: string, seen: Seen[], now: number): void {
    this.seenKey ??= (this.db.prepare('SELECT key FROM wg_seen_key WHERE id = 1').get() as { key: string }).key;
    const put = this.db.prepare('INSERT INTO wg_seen (account_id, kind, hash, seen_at) VALUES (?, ?, ?, ?) ON CONFLICT (account_id, kind, hash) DO UPDATE SET seen_at = excluded.seen_at');
    for (const x of seen) put.run(accountID, x.kind, seenHash(this.seenKey, x), now);
    this.db
      .prepare(`DELETE FROM wg_seen WHERE account_id = ? AND (seen_at < ? OR hash NOT IN (SELECT hash FROM wg_seen k WHERE k.account_id = wg_seen.account_id AND k.kind = wg_seen.kind ORDER BY seen_at DESC LIMIT ?))`)
      .run(accountID, now - SEEN.forMs, SEEN.keep);
  }

  private seenTogetherNow(a: string, b: string, since: number): boolean {
    return (this.db.prepare(`SELECT ${seenTogetherSql('wg_seen', '@a', '@b', '@since')} AS x`).get({ a, b, since }) as { x: number }).x === 1;
  }
  async seenOf(accountID: string): Promise<{ kind: Seen['kind']; hash: string; seenAt: number }[]> {
    return (this.db.prepare('SELECT kind, hash, seen_at FROM wg_seen WHERE account_id = ? ORDER BY seen_at DESC').all(accountID) as { kind: Seen['kind']; hash: string; seen_at: number }[]).map((r) => ({ kind: r.kind, hash: r.hash, seenAt: Number(r.seen_at) }));
  }
  async seenTogether(a: string, b: string, since: number): Promise<boolean> {
    return this.seenTogetherNow(a, b, since);
  }
  async see(accountID: string, seen: Seen[], now: number): Promise<void> {
    this.db.transaction(() => this.seeIn(accountID, seen, now))();
  }

  async putTicket(t: Ticket, seen: Seen[] = []): Promise<void> {
    this.db.transaction(() => {
      if (t.accountID !== null) this.seeIn(t.accountID, seen, t.seenAt);
      this.db.prepare('DELETE FROM wg_pairing WHERE (match_id IS NULL AND seen_at < ?) OR created_at < ?').run(t.seenAt - 60_000, t.seenAt - 3_600_000);
      // One waiting ticket per account: a new ask replaces the last.
      if (t.accountID !== null) this.db.prepare('DELETE FROM wg_pairing WHERE account_id = ? AND match_id IS NULL').run(t.accountID);
      this.db
        .prepare('INSERT INTO wg_pairing (id, account_id, name, rating, side, clock, rated, created_at, seen_at, mark) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(t.id, t.accountID, t.name, t.rating, t.side, t.clock, t.rated ? 1 : 0, t.createdAt, t.seenAt, t.mark);
    })();
  }
  async ticket(id: string, now: number) {
    const r = this.db.prepare('UPDATE wg_pairing SET seen_at = ? WHERE id = ? RETURNING *').get(now, id) as Record<string, unknown> | undefined;
    return r && ticketRow(r);
  }
  async dropTicket(id: string): Promise<void> {
    this.db.prepare('DELETE FROM wg_pairing WHERE id = ?').run(id);
  }
  async pair(id: string, now: number, o: { window: number; liveMs: number; make: (a: Ticket, b: Ticket) => Pairing }) {
    return this.db.transaction((): Ticket | undefined => {
      const me = this.db.prepare('SELECT * FROM wg_pairing WHERE id = ?').get(id) as Record<string, unknown> | undefined;
      if (!me || me.match_id !== null) return me && ticketRow(me);
      const t = ticketRow(me);
      const them = this.db
        .prepare(`SELECT * FROM wg_pairing WHERE id <> ? AND match_id IS NULL AND seen_at > ? AND clock = ? AND rated = ?
          AND (side = 'either' OR ? = 'either' OR side <> ?) AND (account_id IS NULL OR ? IS NULL OR account_id <> ?) AND abs(rating - ?) <= ?
          AND ${notSeenTogether('wg_seen', '?', 'wg_pairing.account_id', '?')}
          AND ${notBlocked('wg_blocks', '?', 'wg_pairing.account_id')}
          ORDER BY created_at LIMIT 1`)
        .get(id, now - o.liveMs, t.clock, t.rated ? 1 : 0, t.side, t.side, t.accountID, t.accountID, t.rating, o.window, t.accountID, now - SEEN.forMs, now - SEEN.forMs, t.accountID, t.accountID) as Record<string, unknown> | undefined;
      if (!them) return t;
      const p = o.make(t, ticketRow(them));
      this.insertMatch(p.create);
      this.link(p.links);
      const seat = this.db.prepare('UPDATE wg_pairing SET match_id = ?, seat = ?, credentials = ? WHERE id = ?');
      for (const s of p.seats) seat.run(p.create.matchID, s.seat, s.credentials, s.ticketID);
      return ticketRow(this.db.prepare('SELECT * FROM wg_pairing WHERE id = ?').get(id) as Record<string, unknown>);
    })();
  }
}
