/**
 * What the server keeps of accounts (docs/ARCHITECTURE.md "Accounts"), whatever the backend: accounts
 * (a password hash or none), sessions (by the SHA-256 of their id: the id itself is never stored),
 * passkeys, WebAuthn challenges (single use), the seats each account holds, side ratings, the record of
 * finished matches, and quick-pairing tickets. The backends share the tables' shape and the game-end step
 * (`finishedMatch` + server/ratings/rules.ts), run inside the write that ends the game.
 */
import { createHmac } from 'node:crypto';
import { SERVER_MOVES } from '../../game/index';
import { seatEntry } from '../../protocol/index';
import type { Rating } from '../ratings/glicko';
import { LEADERBOARD_MIN_OPPONENTS, PROVISIONAL_RD, SEEN_TOGETHER, SIDES, type FinishedMatch, type ResultRow, type SeatAccount, type Side } from '../ratings/rules';
import type { MatchData, NewMatch } from './types';
import { HttpError } from './errors';

export type { Rating, ResultRow, Side };

export interface AccountSettings {
  /** Turn notifications for every seat of the account (one place, not per seat). */
  notify?: { webhook: string; base?: string };
}

export interface Account {
  id: string;
  username: string;
  createdAt: number;
  settings: AccountSettings;
  /** Whether a password is set (an account may have passkeys only). */
  hasPassword: boolean;
  /** A bot account (POST /api/bot/upgrade, for good): it plays through the HTTP bot API (server/bots/api/). */
  bot: boolean;
}

/** A personal API token as its owner sees it (the token itself is shown once and stored as its SHA-256). */
export interface ApiToken {
  id: string;
  accountID: string;
  name: string;
  scopes: string[];
  createdAt: number;
  /** When it last authenticated a request (null: never yet; updated at most once a minute). */
  lastUsedAt: number | null;
}

/** A token's lastUsedAt is written at most this often (a bot's every move would otherwise write a row). */
export const TOKEN_USE_GRANULARITY_MS = 60_000;

export const tokenRow = (r: Record<string, unknown>): ApiToken => ({
  id: String(r.id),
  accountID: String(r.account_id),
  name: String(r.name),
  scopes: JSON.parse(String(r.scopes)) as string[],
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null || r.last_used_at === undefined ? null : Number(r.last_used_at),
});

export interface Passkey {
  id: string;
  accountID: string;
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: number;
  /** The owner's name for it (PASSKEY_NAME); older passkeys have none until renamed. */
  name: string | null;
  /** When it last signed in (null: never yet). */
  lastUsedAt: number | null;
}

/** A seat an account holds (the metadata says whether it still does). */
export interface SeatLink {
  matchID: string;
  seat: Side;
  accountID: string;
}

export interface Ticket {
  id: string;
  accountID: string | null;
  name: string;
  rating: number;
  side: Side | 'either';
  clock: string;
  rated: boolean;
  createdAt: number;
  seenAt: number;
  matchID: string | null;
  seat: Side | null;
  credentials: string | null;
  /** The account's seat mark (JSON, accounts/seat.ts), for the seat the pairing gives it. */
  mark: string | null;
}

/** Two tickets paired: the match to create and which seat (with its credentials) each ticket gets. */
export interface Pairing {
  create: NewMatch;
  seats: { ticketID: string; seat: Side; credentials: string }[];
  links: SeatLink[];
}

/** A seat given to an account that no longer exists (deleted meanwhile): the change that gave it is refused. */
export const refuseGone = (): never => {
  throw new HttpError(409, 'this account has been deleted');
};

/** A leaderboard line as stored: the account's side ratings (those it has), in the board's order. */
export interface BoardEntry {
  username: string;
  ratings: Partial<Record<Side, Rating>>;
}

/** A side rating from its row (columns `rating`, `rd`, `vol`, `games`, `rated_at`, after `prefix`); undefined when the row has none. */
export function ratingOf(row: Record<string, unknown>, prefix = ''): Rating | undefined {
  const at = row[`${prefix}rated_at`];
  if (row[`${prefix}rating`] === null || row[`${prefix}rating`] === undefined) return undefined;
  return { rating: Number(row[`${prefix}rating`]), rd: Number(row[`${prefix}rd`]), vol: Number(row[`${prefix}vol`]), games: Number(row[`${prefix}games`]), ratedAt: at === null || at === undefined ? null : Number(at) };
}

/**
 * The leaderboard's query on either backend (`accounts`, `ratings` and `results` its tables, `params` its
 * two placeholders: the fewest games, the limit): the top accounts of a side by that side's rating, or of
 * both by the mean of the two, with both side ratings. Only established ratings (stored deviation below
 * PROVISIONAL_RD; both sides for the combined board) of players with LEADERBOARD_MIN_OPPONENTS distinct
 * rated opponents (on that side; either side for combined) are listed (docs/RATINGS.md).
 */
export function boardQuery(side: Side | 'combined', t: { accounts: string; ratings: string; results: string }, params: [string, string]): string {
  const cols = ['e', 'n'].flatMap((x) => ['rating', 'rd', 'vol', 'games', 'rated_at'].map((c) => `${x}.${c} AS ${x}_${c}`)).join(', ');
  const one = side === '0' ? 'e' : 'n';
  const opponents = `(SELECT count(DISTINCT x.opponent_id) FROM ${t.results} x WHERE x.account_id = a.id AND x.rated = 1${side === 'combined' ? '' : ` AND x.side = '${side}'`}) >= ${LEADERBOARD_MIN_OPPONENTS}`;
  const [where, order] =
    side === 'combined'
      ? [`e.games + n.games >= ${params[0]} AND e.rd < ${PROVISIONAL_RD} AND n.rd < ${PROVISIONAL_RD}`, `(e.rating + n.rating) / 2`]
      : [`${one}.games >= ${params[0]} AND ${one}.rd < ${PROVISIONAL_RD}`, `${one}.rating`];
  return `SELECT a.username, ${cols} FROM ${t.accounts} a
    LEFT JOIN ${t.ratings} e ON e.account_id = a.id AND e.side = '0' LEFT JOIN ${t.ratings} n ON n.account_id = a.id AND n.side = '1'
    WHERE ${where} AND ${opponents} ORDER BY ${order} DESC, a.username LIMIT ${params[1]}`;
}

/** An account's rated games and wins against one opponent on one side, in a season (server/seasons/season.ts scores them). */
export interface SeasonTally {
  username: string;
  side: Side;
  /** The opponent's account id (one tally per opponent and side). */
  opponent: string;
  wins: number;
  games: number;
}

/**
 * The season tallies' query on either backend (`params`: the season's start, inclusive, and end): only
 * rated records count (the rating rules' refusals, pair limit included, count nothing), and only games
 * against an established opponent: one whose rating after that game was not provisional (PROVISIONAL_RD;
 * a fresh second account has none). Grouped per opponent and side so the season's own cap per opponent
 * and its minimum of distinct opponents can be applied (seasons/season.ts).
 */
export const seasonQuery = (t: { accounts: string; results: string }, params: [string, string]) =>
  `SELECT a.username, x.side, x.opponent_id AS opponent, sum(x.won) AS wins, count(*) AS games FROM ${t.results} x JOIN ${t.accounts} a ON a.id = x.account_id
    JOIN ${t.results} o ON o.match_id = x.match_id AND o.side <> x.side AND o.rd_after < ${PROVISIONAL_RD}
    WHERE x.rated = 1 AND x.finished_at >= ${params[0]} AND x.finished_at < ${params[1]} GROUP BY a.username, x.side, x.opponent_id`;
export const seasonTally = (r: Record<string, unknown>): SeasonTally => ({ username: String(r.username), side: r.side === '1' ? '1' : '0', opponent: String(r.opponent), wins: Number(r.wins), games: Number(r.games) });

/**
 * Where an account was seen asking to be paired (docs/RATINGS.md "One person, two accounts"): its address
 * (per /64 for IPv6, as server/limits.ts counts it) and its browser's device cookie, each kept only as an
 * HMAC under a random key of the database's own (SEEN.keyTable), never in clear. At most SEEN.keep of
 * each kind per account, the most recent, and none older than SEEN.forMs (addresses change hands).
 */
export const SEEN = { keep: 10, forMs: SEEN_TOGETHER.windowMs } as const;
export interface Seen {
  kind: 'address' | 'device';
  value: string;
}
export const seenHash = (key: string, s: Seen) => createHmac('sha256', key).update(`${s.kind}:${s.value}`).digest('base64url');

/**
 * The pairing query's condition that the tickets `me` and `them` (their `account_id` columns, `since`
 * a placeholder, written twice, for the oldest sighting that counts) are not one person's: no address or device both
 * accounts were seen from.
 */
export const notSeenTogether = (seen: string, me: string, them: string, since: string) => `NOT ${seenTogetherSql(seen, me, them, since)}`;
/** The condition that accounts `me` and `them` were both seen from one address or device since `since`. */
export const seenTogetherSql = (seen: string, me: string, them: string, since: string) =>
  `EXISTS (SELECT 1 FROM ${seen} s1 JOIN ${seen} s2 ON s2.hash = s1.hash AND s2.kind = s1.kind
     WHERE s1.account_id = ${me} AND s2.account_id = ${them} AND s1.seen_at > ${since} AND s2.seen_at > ${since})`;

export function boardEntry(row: Record<string, unknown>): BoardEntry {
  const ratings: BoardEntry['ratings'] = {};
  for (const [side, x] of [['0', 'e_'], ['1', 'n_']] as const) {
    const r = ratingOf(row, x);
    if (r) ratings[side] = r;
  }
  return { username: String(row.username), ratings };
}

/**
 * Stored side ratings from before they kept when they were last rated: the last rated game's end, from
 * the record (idempotent; `ratings` and `results` the tables).
 */
export const backfillRatedAt = (t: { ratings: string; results: string }): string =>
  `UPDATE ${t.ratings} SET rated_at = (SELECT max(x.finished_at) FROM ${t.results} x WHERE x.account_id = ${t.ratings}.account_id AND x.side = ${t.ratings}.side AND x.rated = 1)
   WHERE rated_at IS NULL AND games > 0`;

/**
 * The record rows a viewer may see (docs/SECURITY.md "Unlisted matches and the players' chat"): all but those of private
 * matches (lobby/public.ts isPrivate), which only a viewer seated in them sees (the account itself or
 * its opponent). A game against the computer (vs computer's matches are `publicRecord`) is shown even
 * from before that flag was kept: it is nobody else's, and was never unlisted by choice. `x` is the results table's alias, `p` the viewer's parameter
 * (an account id, or NULL for someone signed out), `publicRecord` the backend's test of the match's
 * metadata flag of that name.
 */
export const seenBy = (o: { matches: string; p: string; publicRecord: string }): string =>
  `(x.account_id = ${o.p} OR x.opponent_id = ${o.p} OR x.opponent_level IS NOT NULL OR EXISTS (SELECT 1 FROM ${o.matches} m WHERE m.match_id = x.match_id AND (m.listed OR ${o.publicRecord})))`;

export interface AccountStore {
  /**
   * False when the name is taken: its key (`key`, case and width folded) or its look-alike key
   * (server/storage/lookalike.ts, computed here) is another account's.
   */
  create(a: { id: string; username: string; key: string; password: string | null; createdAt: number }): Promise<boolean>;
  byKey(key: string): Promise<(Account & { password: string | null }) | undefined>;
  byID(id: string): Promise<(Account & { password: string | null }) | undefined>;
  setPassword(id: string, password: string): Promise<void>;
  setSettings(id: string, settings: AccountSettings): Promise<void>;
  /**
   * Removes the account with its sessions, passkeys, seat links, ratings and record; opponents' records
   * name it "deleted player". Returns the seat links it removed (read in the same transaction: a seat
   * taken up to the removal is among them, and `link` refuses the account after it).
   */
  remove(id: string, deletedName: string): Promise<SeatLink[]>;

  addSession(s: { hash: string; accountID: string; createdAt: number; expiresAt: number }): Promise<void>;
  /** The account of a session that has not expired at `now`, when it expires, and when it was signed in (its start). */
  session(hash: string, now: number): Promise<{ account: Account; expiresAt: number; signedInAt: number } | undefined>;
  renewSession(hash: string, expiresAt: number): Promise<void>;
  dropSession(hash: string): Promise<void>;
  /** Every session of the account but `keep` (when given). */
  dropSessions(accountID: string, keep?: string): Promise<void>;

  addPasskey(p: Passkey): Promise<void>;
  passkey(id: string): Promise<Passkey | undefined>;
  passkeys(accountID: string): Promise<Passkey[]>;
  /** A sign-in with the passkey: its new signature counter and when. */
  usedPasskey(id: string, counter: number, at: number): Promise<void>;
  /** Removes the account's passkey `id` (only the account's own): whether there was one. */
  removePasskey(accountID: string, id: string): Promise<boolean>;
  /** Removes every passkey of the account. */
  removePasskeys(accountID: string): Promise<void>;

  /** Adds a token unless the account already has `max`: whether it was added (one transaction). */
  addToken(t: ApiToken & { hash: string }, max: number): Promise<boolean>;
  /** The account's tokens, oldest first (never their hashes). */
  tokens(accountID: string): Promise<ApiToken[]>;
  /** Revokes the account's token `id` (only the account's own): whether there was one. */
  removeToken(accountID: string, id: string): Promise<boolean>;
  /** The token with this hash and its account, noting its use at `now` (see TOKEN_USE_GRANULARITY_MS). */
  tokenByHash(hash: string, now: number): Promise<{ token: ApiToken; account: Account } | undefined>;
  /** Makes the account a bot account for good, if it never held a seat nor has a result: whether it is one now. */
  makeBot(accountID: string): Promise<boolean>;
  putChallenge(c: { id: string; challenge: string; accountID: string | null; expiresAt: number }): Promise<void>;
  /** The challenge, once: it is deleted as it is read; undefined when unknown or expired. */
  takeChallenge(id: string, now: number): Promise<{ challenge: string; accountID: string | null } | undefined>;

  seats(accountID: string): Promise<SeatLink[]>;
  /** The account's seat links with their matches' metadata, in one read (a player of many matches costs one query). */
  heldSeats(accountID: string): Promise<(SeatLink & { metadata: MatchData })[]>;
  unlink(matchID: string, seat: Side): Promise<void>;

  ratings(accountIDs: string[]): Promise<Map<string, Partial<Record<Side, Rating>>>>;
  /**
   * The account's finished matches, newest first: all of them (its own data), or with `seenBy` only those
   * that viewer may see (`seenBy` above; null: someone signed out).
   */
  results(accountID: string, limit: number, o?: { seenBy: string | null }): Promise<ResultRow[]>;
  /** A finished match's records (one per account seat), side '0' first. */
  matchResults(matchID: string): Promise<ResultRow[]>;
  leaderboard(side: Side | 'combined', minGames: number, limit: number): Promise<BoardEntry[]>;
  /** Rated-game tallies of the games that ended in [from, to) (seasonQuery). */
  seasonTallies(from: number, to: number): Promise<SeasonTally[]>;

  /** Records where the account was seen (hashed, SEEN): signing in, "Play now", challenges, rated lobby joins (accounts/seen.ts). */
  see(accountID: string, seen: Seen[], now: number): Promise<void>;
  /** Where the account was seen, hashed (SEEN), newest first: for its data export. */
  seenOf(accountID: string): Promise<{ kind: Seen['kind']; hash: string; seenAt: number }[]>;
  /** Whether two accounts were both seen from one address or device since `since` (ratings/rules.ts SEEN_TOGETHER). */
  seenTogether(a: string, b: string, since: number): Promise<boolean>;
  /**
   * Adds a ticket in place of the account's waiting one (an account waits with one ticket); stale unpaired
   * tickets are removed on the way. An account's ticket records where it was `seen` (hashed, SEEN).
   */
  putTicket(t: Ticket, seen?: Seen[]): Promise<void>;
  ticket(id: string, now: number): Promise<Ticket | undefined>;
  dropTicket(id: string): Promise<void>;
  /**
   * One transaction: if `id` is unpaired and some other live, unpaired, compatible ticket is in `window`
   * of its rating, both are paired with the match `make` builds (created in the same transaction).
   * Locks both tickets (PostgreSQL: FOR UPDATE SKIP LOCKED), so no ticket is ever paired twice. Two
   * accounts seen from one address or device (`notSeenTogether`) are never paired.
   */
  pair(id: string, now: number, opts: { window: number; liveMs: number; make: (a: Ticket, b: Ticket) => Pairing }): Promise<Ticket | undefined>;
}

/** The account a seat's metadata names (server-set, `data.account`), if any. */
export function seatAccount(seat: { data?: unknown } | undefined): (SeatAccount & { ratings?: Partial<Record<Side, number>>; provisional?: Side[] }) | null {
  const a = (seat?.data as { account?: unknown } | undefined)?.account as { id?: unknown; username?: unknown } | undefined;
  return a && typeof a.id === 'string' && typeof a.username === 'string' ? (a as SeatAccount) : null;
}

/** A finished match as the rating rules read it, from its metadata and its stored moves. */
export function finishedMatch(
  matchID: string,
  m: MatchData,
  gameover: unknown,
  counts: { seat: string; decisions: number }[],
  moves: number,
  finishedAt: number,
): FinishedMatch | null {
  const over = gameover as { winner?: unknown; reason?: unknown; aborted?: unknown } | undefined;
  const won = over?.winner === '0' || over?.winner === '1';
  if (!won && over?.reason !== 'aborted') return null;
  const seats = {} as FinishedMatch['seats'];
  for (const s of SIDES) {
    const p = seatEntry(m.players, s);
    const bot = (p?.data as { bot?: unknown } | undefined)?.bot;
    seats[s] = {
      name: p?.name ?? null,
      account: seatAccount(p),
      bot: typeof bot === 'string' ? bot : null,
      decisions: counts.find((c) => c.seat === s)?.decisions ?? 0,
    };
  }
  return { matchID, rated: (m as { rated?: unknown }).rated === true, winner: won ? (over!.winner as Side) : null, ...(over!.aborted === '0' || over!.aborted === '1' ? { aborted: over!.aborted } : {}), reason: typeof over!.reason === 'string' ? over!.reason : '', seats, moves, startedAt: m.createdAt, finishedAt };
}

/** Moves that are no decision of the player: giving up, the server's (the clock, an exit), a take-back. */
export const NOT_DECISIONS = ['resign', ...SERVER_MOVES, 'undo'];
