/**
 * What the browser client, the server and the bots say to each other beyond boardgame.io's own
 * messages: refusals on the socket, bot levels, the "vs computer" request, and how a socket names its
 * match for the router. Plain types and constants only: no Node, React or boardgame.io imports.
 */

/** The event the server emits when it refuses a socket request, with a typed reason. */
export const ERROR_EVENT = 'watergate:error';

/**
 * `rate-limited`: the client asked too much too fast (retryAfterSeconds says when to ask again);
 * `unavailable`: the server cannot reach its storage right now (nothing was changed: retry later).
 */
export type RefusalType = 'bad-request' | 'not-found' | 'unauthorized' | 'stale' | 'invalid-move' | 'server-error' | 'rate-limited' | 'unavailable';

export interface GuardError {
  matchID?: string;
  type: RefusalType;
  /** In English: the engine's or the server's own words. */
  message: string;
  /** With `rate-limited` (and `unavailable` when known): when to ask again. */
  retryAfterSeconds?: number;
  /** This connection's seat changed hands (left, or taken afresh): it now follows as a spectator. */
  seatLost?: true;
}

/**
 * The computer's levels, easiest first: the one list the level picker, the bots' budgets (bots/levels.ts),
 * the lobby's validation and the locales' words (`lobby.levels.<level>`) are all keyed by.
 */
export const LEVEL_NAMES = ['easy', 'normal', 'hard', 'expert'] as const;
export type Level = (typeof LEVEL_NAMES)[number];
export const isLevel = (x: unknown): x is Level => (LEVEL_NAMES as readonly unknown[]).includes(x);

/** The computer's level nearest a Glicko-2 rating: 200 points a level from 1300 up, easiest first. */
export const levelForRating = (rating: number): Level => LEVEL_NAMES[Math.max(0, Math.min(LEVEL_NAMES.length - 1, Math.floor((rating - 1300) / 200)))];

/** A seat the server's bot plays is marked in the match metadata: `players[seat].data.bot = level`. */
export interface SeatData {
  bot?: Level;
}
export const botLevelOf = (seat: { data?: unknown } | undefined): Level | null => {
  const bot = (seat?.data as SeatData | undefined)?.bot;
  return isLevel(bot) ? bot : null;
};

/** POST /games/watergate/vs-computer */
export interface VsComputerRequest {
  botSeat?: '0' | '1';
  level?: Level;
  setupData?: unknown;
}
export interface VsComputerResponse {
  matchID: string;
  botSeat: '0' | '1';
  humanSeat: '0' | '1';
}

/**
 * Every socket names its match in the handshake query (`?matchID=…`): with several server processes,
 * the router (HAProxy) sends all of a match's sockets and REST calls to the same process by it.
 */
export const MATCH_QUERY = 'matchID';

/**
 * A match as anyone may see it (GET /games/watergate and /games/watergate/:id, the socket's matchData):
 * boardgame.io's shape, but a seat shows only its name, presence and — for the server's bot — its level;
 * credentials and whatever else a player stored in `data` (private settings) never leave the server.
 */
export interface PublicSeat {
  id: number;
  name?: string;
  isConnected?: boolean;
  data?: SeatData;
  /** A signed-in player's seat: the username and its side rating, provisional or not (protocol/accounts.ts PublicAccount). */
  /** `bot`: a bot account's seat (it plays through the HTTP bot API). */
  account?: { username: string; rating: number; provisional: boolean; bot?: true };
}
export interface PublicMatch {
  matchID: string;
  gameName: string;
  players: PublicSeat[];
  setupData?: unknown;
  gameover?: unknown;
  nextMatchID?: string;
  unlisted?: boolean;
  createdAt: number;
  updatedAt: number;
  /** A timed match's clock once it has started (MatchClock, below). */
  clock?: MatchClock;
  /** GET of one match only: the seat that owes the next decision (null when over or still waiting for a seat). */
  toMove?: '0' | '1' | null;
  /** Created rated: the result changes both players' side ratings. */
  rated?: boolean;
  /** A "play again" match whose settings differ from the match it follows: what changed (such a rematch of a rated match is unrated). */
  changed?: SettingChange[];
  /** A "play again" match's seat kept for the old opponent until then (REMATCH_SEAT_KEPT_MS). */
  kept?: { seat: '0' | '1'; until: number };
}

/**
 * GET /games/watergate (?limit=1…100, default 50; boardgame.io's isGameover, updatedBefore, updatedAfter):
 * a page of listed matches, newest update first; `next`, when there are more, is passed back as `after=`.
 */
export interface MatchList {
  matches: PublicMatch[];
  next?: string;
}

/** The other seat. */
/** "0" (the Editor) or "1" (Nixon): the seats as the lobby, the sockets and the match metadata name them. */
export const isSeat = (v: unknown): v is '0' | '1' => v === '0' || v === '1';

/**
 * One seat's entry in a match's metadata (`players`): boardgame.io types that object as keyed by number,
 * but names seats by string ("0", "1") everywhere else, and the object holds them under those keys.
 */
export const seatEntry = <P>(players: Readonly<Record<number, P>>, seat: string): P => (players as Readonly<Record<string, P>>)[seat];

/** Puts a seat's entry in a match's metadata, under the same key `seatEntry` reads. */
export const setSeatEntry = <P>(players: Record<number, P>, seat: string, entry: P): void => {
  (players as Record<string, P>)[seat] = entry;
};

export const otherSeat = (s: '0' | '1'): '0' | '1' => (s === '0' ? '1' : '0');
/** A seat as the server's own (English) messages name it: refusals, notifications. */
export const roleText = (s: string): string => (s === '0' ? 'the Editor' : 'Nixon');

/** The first seat nobody has taken, if any: play starts only when both seats are taken. */
export const openSeat = (players: Iterable<{ id: number | string; name?: string }>): '0' | '1' | null => {
  for (const p of players) if (!p.name) return String(p.id) as '0' | '1';
  return null;
};

/**
 * "Play again" (POST /games/watergate/:id/playAgain, body { playerID, credentials, swap?, unlisted?,
 * setupData? }): the first asker creates the next match and is seated in it at once — in the other role
 * unless `swap: false` — named as before, with the old match's settings unless it sends others (then
 * listed: SettingChange); a later asker (the opponent accepting) gets the seat left, kept for them
 * (REMATCH_SEAT_KEPT_MS). The computer keeps playing the side opposite its human.
 */
export interface PlayAgainResponse {
  nextMatchID: string;
  playerID: '0' | '1';
  playerCredentials: string;
}

/**
 * The settings a "play again" match may change from the match it follows (setupData, each as it applies:
 * defaults filled in). A rematch of a rated match stays rated only when none changes; otherwise it is
 * unrated and its data lists the changes (PublicMatch.changed), so the accept button can say them.
 */
export type SettingName = 'clock' | 'abandonMinutes' | 'hints' | 'takeBacks' | 'jokerFallback' | 'pinImpossible';
export interface ClockValue {
  initialSeconds: number;
  incrementSeconds: number;
  onTimeout: 'lose' | 'bot';
}
/** clock: ClockValue or null (untimed); abandonMinutes: minutes or null (never); hints: boolean; the others: their value. */
export interface SettingChange {
  setting: SettingName;
  from: ClockValue | number | boolean | string | null;
  to: ClockValue | number | boolean | string | null;
}

/**
 * How long a rematch's seat left for the old opponent is kept for them (PublicMatch.kept): only the old
 * match's other player, through "play again", may take it until then; a plain join is refused (409). After
 * it, the seat is open to anyone. The asker may leave the next match at any time.
 */
export const REMATCH_SEAT_KEPT_MS = 24 * 3600_000;

/** Emitted to the seats of a match (and its spectators when neither match is private) once a next match exists: { matchID, nextMatchID }. */
export const NEXT_EVENT = 'watergate:next';

/**
 * The spectators' room of a match (docs/SECURITY.md "Unlisted matches and the players' chat"): a socket
 * that follows the match without a seat says `WATCHERS_SAY` (matchID, text); every spectator of the match
 * hears `WATCHERS_EVENT` (matchID, WatcherLine). The players never do. Live only: nothing is kept.
 */
export const WATCHERS_SAY = 'watergate:watchers-say';
export const WATCHERS_EVENT = 'watergate:watchers';
export interface WatcherLine {
  /** The server's id of the line. */
  id: string;
  /** The speaker as the server names it (a pseudonym per connection: nobody chooses a name to pass for another). */
  who: string;
  text: string;
  at: number;
}
export interface NextMatch {
  matchID: string;
  nextMatchID: string;
}

/**
 * A match's clock as the server keeps it with the match (docs/ARCHITECTURE.md "Clocks and stand-ins"): the time each
 * seat had left when the running decision began (`since`), whose decision runs, and when it runs out.
 * Only the player the game waits for loses time; each decision of a seat adds the increment to it.
 */
export interface MatchClock {
  /** Milliseconds left for the Editor ('0') and Nixon ('1') at `since`. */
  remaining: { '0': number; '1': number };
  /** Whose decision the clock runs for (null: nobody's — over, or waiting). */
  running: '0' | '1' | null;
  /** When the running decision began (server time, ms since the epoch). */
  since: number;
  /** The state that decision belongs to. */
  stateID: number;
  /** When the running seat's time is up (server time), or null. */
  deadline: number | null;
}

/** Time left for a seat at `now` (the running seat's counts down; never below 0): the server's and the boards'. */
export function timeLeft(c: MatchClock, seat: '0' | '1' | string, now: number): number {
  const s = seat as '0' | '1';
  return Math.max(0, c.remaining[s] - (c.running === s ? now - c.since : 0));
}

/** The computer playing a seat for its owner: after a clock ran out ("bot") or a seat was abandoned. */
export interface StandIn {
  level: Level;
  reason: 'time' | 'abandoned';
  since: number;
}

/**
 * Emitted to everyone following a match, on sync and whenever it changes: its clock, the seats the
 * computer plays for their owners, since when a seat's player has been away, and the server's time (so
 * a page can count down with its own clock's offset). A move's status does not come as this event but
 * as the last argument of the move's own `patch` or `update` message (STATUS_AFTER), one frame instead of two.
 */
export const STATUS_EVENT = 'watergate:status';

/**
 * Where a move's status sits in boardgame.io's messages, after the arguments its client reads:
 * `patch` (matchID, prevStateID, stateID, operations, deltalog, status) and `update` (matchID, state,
 * deltalog, status). Absent when the server delivers moves it heard of from another process (the
 * status event follows them).
 */
export const STATUS_AFTER = { patch: 5, update: 3 } as const;
export interface MatchStatus {
  matchID: string;
  clock: MatchClock | null;
  standIns: Partial<Record<'0' | '1', StandIn>>;
  /** Since when each seat has had no connected socket (server time); absent while connected. */
  away: Partial<Record<'0' | '1', number>>;
  /** After how long away a seat may be handed to the computer (null: never) — in a rated match, lost (docs/ARCHITECTURE.md "The commit door"). */
  abandonMinutes: number | null;
  /** A rated match: the away seat's time running out, or the opponent's hand-over, ends the game. */
  rated: boolean;
  /** "What would the computer do?" is offered (the match was created with hints, and is untimed). */
  hints: boolean;
  /** Take-backs in this match, for the state `takeBack.stateID` (absent: the server does not serve the match's memory). */
  takeBack?: TakeBackStatus;
  /** A game of a paired deal (an event's round or a paired challenge): which of the two, and so far. */
  pair?: MatchPair;
  now: number;
}

/**
 * A paired deal's game as its board shows it (docs/EVENTS.md "Paired deals"): `game` 1 or 2 of the pair
 * (the second on the same deal with sides swapped, made when the first has ended). The second names the
 * first's match and the side that won it there (null: nobody), so the pair's score so far is known;
 * `event` names a listed event's page (absent for a challenge's pair, whose event is hidden). Never the
 * deal itself.
 */
export interface MatchPair {
  game: 1 | 2;
  first?: { matchID: string; winner: 'editor' | 'nixon' | null };
  event?: string;
}

/**
 * Take-backs (docs/ARCHITECTURE.md "Take-backs"). `POST /games/watergate/:id/undo` with
 * `{ playerID, credentials, stateID?, accept? }`: without `accept`, the seat asks to take back its last
 * decision on the state `stateID` (default: the current one) — 200 `{ stateID }` when taken back (the
 * earlier position as a new state), 202 `{ pending: true }` while the opponent must consent, 409
 * `{ error, reason }` when not allowed. With `accept: true | false`, the opponent answers a pending request.
 */
export type TakeBackMode = 'off' | 'consent' | 'free';
/** Why a seat may not take back now (the board words each in three languages). */
export const TAKE_BACK_REASONS = ['none', 'unknown', 'opponent', 'auto', 'ask', 'hidden', 'chance', 'off', 'over', 'waiting', 'pending', 'refused', 'stale', 'standIn', 'computer', 'noRequest', 'own'] as const;
export type TakeBackReason = (typeof TAKE_BACK_REASONS)[number];
/** How long a request waits for the opponent's answer (the next move cancels it sooner). */
export const TAKE_BACK_WAIT_MS = 10 * 60_000;
/** A request for the opponent's consent, kept with the match for the state it was made on (`refused`: answered no). */
export interface TakeBackRequest {
  by: '0' | '1';
  stateID: number;
  at: number;
  refused?: true;
}
export interface TakeBackStatus {
  mode: TakeBackMode;
  /** The state this status is about (a board holding another state waits for the next one). */
  stateID: number;
  /** For each seat: null when it may take back now, else why not. */
  why: { '0': TakeBackReason | null; '1': TakeBackReason | null };
  /** A request on this state waiting for the opponent (or refused by it); null when none. */
  request: (TakeBackRequest & { expiresAt: number }) | null;
}
export const undoPath = (matchID: string): string => `/games/watergate/${encodeURIComponent(matchID)}/undo`;
export type UndoResponse = { stateID: number } | { pending: true } | { refused: true } | { error: string; reason: TakeBackReason };

/** POST /games/watergate/:id/standIn { playerID, credentials }: hand the away opponent's seat to the computer. */
/** POST /games/watergate/:id/takeBack { playerID, credentials }: the owner plays the seat again. */
