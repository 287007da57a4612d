/**
 * What the server keeps of a match, whatever the backend (docs/ARCHITECTURE.md "Storage"):
 *
 * - one row per match: the seats and options (metadata), the initial state, a snapshot of the state and
 *   the id of the newest state (the head);
 * - one row per move: the action and its log entries, keyed by the state id the move produced.
 *
 * The state at the head is the snapshot with the moves after it replayed (game/advance.ts; the match
 * service does that). A move is one write: it advances the head only if the head is still
 * the state the move was computed from and the seats are as the mover saw them, and adds the move's row
 * (with a new snapshot every `snapshotEvery` moves); otherwise nothing changes and StaleStateError says so.
 */
import type { LogEntry, Server, State } from 'boardgame.io';
import type { MoveAction } from '../../game/index';
import type { MatchClock, MatchPair, StandIn, TakeBackRequest } from '../../protocol/index';
import type { AccountStore, SeatLink } from './accounts';
import type { AnalysisRows } from './analyses';
import type { EventRows } from './events';
import type { MailRows } from './mail';
import type { SocialRows } from './social';
import type { FollowRows } from './follows';

/**
 * boardgame.io's match metadata, plus what the server keeps beside the seats: the clock (rewritten by
 * every move of a timed match, in the same write), the computer's stand-ins and since when a seat is away.
 */
export type MatchData = Server.MatchData & {
  clock?: MatchClock;
  standIns?: Partial<Record<'0' | '1', StandIn>>;
  away?: Partial<Record<'0' | '1', number>>;
  /** The server processes whose sockets hold each seat connected (presence leases, match/presence.ts). */
  holders?: Partial<Record<'0' | '1', string[]>>;
  /** Created rated (docs/ARCHITECTURE.md "Accounts"): the result changes both players' side ratings. */
  rated?: boolean;
  /**
   * Unlisted by the server, not by its players (vs computer, Play now, and their rematches unless asked unlisted):
   * kept out of the Lobby's list of matches to join or watch, but not private (lobby/public.ts isPrivate)
   * — its record shows on profiles like a listed match's.
   */
  publicRecord?: boolean;
  /**
   * Set with `nextMatchID` when that next match ("play again") is not private: only then may someone not
   * seated in this match (a spectator, the Lobby's reads) learn it, and only if this match is not private
   * either (lobby/public.ts publicNext). Absent on matches linked before it was kept: their next stays the players'.
   */
  nextPublic?: boolean;
  /** The event (server/events/) this match is a game of: its runner looks at the event when the game ends. */
  event?: string;
  /** A paired deal's game (server-set by the event runner): which of the two, the first's match and winner (protocol MatchPair). */
  pair?: MatchPair;
  /** A take-back waiting for the opponent's consent, or refused by it, on the state it names (match/undo.ts). */
  takeBack?: TakeBackRequest;
};

/** A seat's presence held by a process whose lease ran out (it died): `beatAt` its last heartbeat. */
export interface DeadHold {
  proc: string;
  matchID: string;
  beatAt: number | null;
}

export interface MoveRow {
  /** The state id this move produced (the state it was made on + 1). */
  stateID: number;
  action: MoveAction;
  log: LogEntry[];
  /** The server made this move for the seat (MoveCommit.auto). */
  auto?: boolean;
  /** A timed match's clock as the move found it (null: untimed, not started, or stored before it was kept): what a take-back restores. */
  clock?: MatchClock | null;
}

export interface Head {
  stateID: number;
  /** Changes whenever a seat's name or credentials change (join, leave, rename): not for presence. */
  seatsVersion: number;
  metadata: MatchData;
}

export interface LoadedMatch extends Head {
  /** The stored snapshot and the moves after it, in order (the service replays them). */
  snapshot: State;
  moves: MoveRow[];
  initialState?: State;
  /** Every log entry from the first move (when asked for). */
  log?: LogEntry[];
}

export interface MoveCommit {
  /** The state the move was made on: the write is refused unless it is still the head. */
  prevStateID: number;
  /** The seats as the move was authorised against. */
  seatsVersion: number;
  state: State;
  action: MoveAction;
  log: LogEntry[];
  updatedAt: number;
  /** ctx.gameover once the game is over. */
  gameover?: unknown;
  /** Store `state` as the new snapshot (otherwise only the move row is added); always for a take-back. */
  snapshot: boolean;
  /** A timed match's clock after the move: replaces metadata.clock in the same write (nothing else of it). */
  clock?: MatchClock;
  /** The server made this move for the seat (the computer, a stand-in, the clock): not the player's decision. */
  auto?: boolean;
}

export interface TimedMatch {
  matchID: string;
  stateID: number;
  metadata: MatchData;
}

export interface NewMatch {
  matchID: string;
  initialState: State;
  metadata: MatchData;
}

/**
 * A change of a match's metadata, made under a lock: the new metadata, null to delete the match, or the
 * new metadata plus a match to create in the same transaction ("play again"). Throwing changes nothing.
 * Synchronous on purpose: the embedded backend holds its write lock for exactly this long.
 */
export type MetadataChange = (current: MatchData) => MatchData | null | { metadata: MatchData; create?: NewMatch; links?: SeatLink[] };

export interface ListOptions {
  gameName?: string;
  where?: { isGameover?: boolean; updatedBefore?: number; updatedAfter?: number };
}

/** Where a page of the list starts: after this match in the list's order (newest update first). */
export interface ListCursor {
  updatedAt: number;
  matchID: string;
}

export interface PageOptions extends ListOptions {
  /** At most this many matches. */
  limit: number;
  after?: ListCursor;
}

/** One page of listed matches (never an unlisted one), read from the list's own index. */
export interface ListPage {
  matches: { matchID: string; metadata: MatchData }[];
  /** There are more after the last one. */
  more: boolean;
}

/** A chat line as boardgame.io's client sends and shows it (`payload`: the text), with when it was said. */
export interface ChatLine {
  id: string;
  sender: string;
  payload: string;
  at: number;
}

/** Timings of storage operations, for /metrics. */
export type StorageObserver = (op: string, seconds: number) => void;

export interface MatchStore {
  /** 'embedded' (SQLite under DATA_DIR) or 'postgres' (DATABASE_URL). */
  readonly kind: 'embedded' | 'postgres' | 'pglite';
  /** Several processes may share it (PostgreSQL); the embedded file belongs to one process. */
  readonly shared: boolean;
  connect(): Promise<void>;
  close(): Promise<void>;
  /** Throws when the storage cannot answer. */
  ping(): Promise<void>;
  createMatch(m: NewMatch): Promise<void>;
  /** One transaction; see MetadataChange. Returns what was written, null if deleted, undefined if missing. */
  updateMetadata(matchID: string, change: MetadataChange): Promise<MatchData | null | undefined>;
  /** One write; throws StaleStateError (nothing written) when the head or the seats moved on. */
  commitMove(matchID: string, c: MoveCommit): Promise<void>;
  load(matchID: string, opts?: { log?: boolean; initialState?: boolean }): Promise<LoadedMatch | undefined>;
  head(matchID: string): Promise<Head | undefined>;
  /** The moves that produced the states after `stateID`, in order. */
  movesAfter(matchID: string, stateID: number): Promise<MoveRow[]>;
  listMatches(opts?: ListOptions): Promise<string[]>;
  /** The public list, a page at a time: listed matches only, newest update first, with their metadata. */
  listPage(opts: PageOptions): Promise<ListPage>;
  /** Every unfinished match with a clock among its settings (server/match/clocks.ts looks for deadlines). */
  timedMatches(): Promise<TimedMatch[]>;
  /** Keeps a chat line with the match (gone with it). */
  addChat(matchID: string, line: ChatLine): Promise<void>;
  /** The match's last `limit` chat lines, oldest first. */
  chat(matchID: string, limit: number): Promise<ChatLine[]>;
  wipe(matchID: string): Promise<void>;
  /**
   * Takes the right to run this match's bot, for this process, until `releaseBot` or the process ends
   * (a PostgreSQL advisory lock; always granted on the embedded backend, which has one process).
   */
  claimBot(matchID: string): Promise<boolean>;
  releaseBot(matchID: string): Promise<void>;
  /** Every claim of this process was lost at once (the lock connection dropped). */
  onClaimsLost?(fn: () => void): void;
  /**
   * Presence leases (server/match/presence.ts): a process renews its heartbeat; it notes the matches
   * where it holds a seat connected (an index for the sweep, beside the metadata that says which seat);
   * the sweep asks for holds of processes other than `self` whose heartbeat is older than `before`,
   * and forgets the processes dead since before `before` that hold nothing any more.
   */
  beat(proc: string, now: number): Promise<void>;
  hold(proc: string, matchID: string): Promise<void>;
  unhold(proc: string, matchID: string): Promise<void>;
  deadHolds(self: string, before: number): Promise<DeadHold[]>;
  forgetDead(before: number): Promise<void>;
  observe?: StorageObserver;
  /** Accounts, sessions, ratings and pairing (storage/accounts.ts), in the same database. */
  readonly accounts: AccountStore;
  /** Finished matches' analyses (server/analysis/), deleted with their match; ready once connected. */
  readonly analyses: AnalysisRows;
  /** Events (Swiss tournaments, server/events/): one versioned document per event; ready once connected. */
  readonly events: EventRows;
  /** E-mail addresses, single-use tokens, the outgoing queue and the notices' marks (storage/mail.ts). */
  readonly mail: MailRows;
  /** Blocks and challenges by name (storage/social.ts); ready once connected. */
  readonly social: SocialRows;
  /** Follows, page activity, push subscriptions and the VAPID keys (storage/follows.ts); ready once connected. */
  readonly follows: FollowRows;
}

/** Seat ownership as far as authorisation is concerned: names and credentials, not presence. */
export function seatsKey(m: MatchData): string {
  return JSON.stringify(Object.entries(m.players).map(([id, p]) => [id, p.name ?? null, p.credentials ?? null]));
}

export function changeResult(out: ReturnType<MetadataChange>): { metadata: MatchData | null; create?: NewMatch; links?: SeatLink[] } {
  if (out && 'metadata' in out && !('players' in out)) return out as { metadata: MatchData; create?: NewMatch; links?: SeatLink[] };
  return { metadata: out as MatchData | null };
}

/** A match's stored rows, as both backends read them. */
export interface StoredRow {
  metadata: string;
  updated_at: string | number;
  result: string | null;
  state_id: number;
  seats_version: number;
  state: string;
  snapshot_id: number;
  initial_state?: string;
}

/** The metadata as stored, with the columns a move updates (updatedAt, gameover) laid over it. */
export function mergeMetadata(row: Pick<StoredRow, 'metadata' | 'updated_at' | 'result'>): MatchData {
  const m = JSON.parse(row.metadata) as MatchData;
  m.updatedAt = Number(row.updated_at);
  if (row.result !== null) m.gameover = JSON.parse(row.result);
  return m;
}

/**
 * A loaded match from its rows and its moves (every move when the log is asked for, else those after the
 * snapshot). Moves past the head cannot exist (a move row is written with its head), but are ignored.
 */
export function loadedMatch(row: StoredRow, moves: MoveRow[], opts: { log?: boolean; initialState?: boolean }): LoadedMatch {
  const out: LoadedMatch = {
    stateID: row.state_id,
    seatsVersion: row.seats_version,
    metadata: mergeMetadata(row),
    snapshot: JSON.parse(row.state),
    moves: moves.filter((m) => m.stateID > row.snapshot_id && m.stateID <= row.state_id),
  };
  if (opts.initialState) out.initialState = JSON.parse(row.initial_state!);
  if (opts.log) out.log = moves.filter((m) => m.stateID <= row.state_id).flatMap((m) => m.log);
  return out;
}
