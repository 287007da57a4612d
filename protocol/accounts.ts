/**
 * Accounts, ratings and quick pairing as the browser and the server exchange them (docs/ARCHITECTURE.md
 * "Accounts"). Plain types and constants: no imports. Credentials appear only in answers to the account
 * that holds the seat (`GET /me/matches`, a paired ticket's own poll).
 */

/** A seat's player, as sides are named in ratings: `editor` plays seat "0", `nixon` seat "1". */
export type RatedSide = 'editor' | 'nixon';
export const SIDE_OF_SEAT = { '0': 'editor', '1': 'nixon' } as const;

/** Usernames: 3 to 24 letters, digits, `_`, `-` or `.` (and a valid player name: protocol/names.ts). */
export const USERNAME = { min: 3, max: 24, pattern: /^[\p{L}\p{N}_.-]+$/u } as const;

/** Scripts with letters drawn like each other's ("а" and "a", "Η" and "H"): a username takes letters from one of them at most. */
const LOOKALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u, /\p{Script=Armenian}/u];

/**
 * A valid player name (protocol/names.ts `checkName`) as a username: stored in its compatibility form
 * (NFKC), or refused for its `form` (length, characters) or for mixing look-alike `scripts` — otherwise
 * "Woodwаrd" with a Cyrillic "а" is another account that reads as "Woodward", rating and all.
 */
export function checkUsername(validName: string): { name: string } | { code: 'form' | 'scripts' } {
  const name = validName.normalize('NFKC');
  const length = [...name].length;
  if (length < USERNAME.min || length > USERNAME.max || !USERNAME.pattern.test(name)) return { code: 'form' };
  if (LOOKALIKE_SCRIPTS.filter((script) => script.test(name)).length > 1) return { code: 'scripts' };
  return { name };
}
/** How usernames are compared: compatibility forms folded and case ignored ("Ann" and "ＡＮＮ" are one name). */
export const nameKey = (username: string) => username.normalize('NFKC').toLowerCase();

/**
 * The server's refusal (403) of a guest's seat name that is a registered player's username: on joining,
 * renaming a seat and asking to "Play now". The client recognises it by these words to say it in the
 * player's language.
 */
export const NAME_REGISTERED = 'that name belongs to a registered player: sign in to use it, or choose another';

/**
 * The server's refusal (409) of a new username that looks like an existing one (Unicode's confusable
 * skeletons: "aIice" beside "alice"); the client recognises it by these words.
 */
/** The 409's text refusing a rated challenge or rated lobby join between accounts seen together (server/ratings/rules.ts SEEN_TOGETHER); the client words it by this text. */
export const SEEN_TOGETHER_REFUSAL = 'seen-together: you and this player were seen on one address or device, so a rated game between you would not count; play a casual game instead';
export const USERNAME_LOOKALIKE = 'that username looks like an existing player\'s name: choose another';

/** Passkey names: what the owner calls each one (its device), shown on the account page. */
export const PASSKEY_NAME = { max: 40 } as const;

/** Adding a passkey needs the password, or a sign-in this recent (ms), on this session. */
export const RECENT_SIGN_IN_MS = 5 * 60_000;

/** The server's refusal (403) of a new passkey without the password or a recent sign-in. */
export const PASSKEY_NEEDS_PASSWORD = 'adding a passkey needs your password (or a sign-in in the last 5 minutes): type it to go on';

/** GET /auth/passkeys: the account's passkeys as its owner sees them (never the key itself). */
export interface PasskeyView {
  /** A short id of the passkey (not its credential id), for DELETE /auth/passkeys/:id. */
  id: string;
  name: string;
  addedAt: number;
  lastUsedAt: number | null;
}

/** How a finished match names a player whose account was deleted. */
export const DELETED_PLAYER = 'deleted player';

/** GET /auth/me (200; 401 when signed out). */
export interface Me {
  username: string;
  hasPassword: boolean;
  passkeys: number;
  /** A turn-notification webhook is set for the account (the address itself is shown only in settings). */
  webhook: string | null;
}

/** GET /me/matches: every match the account holds a seat in, with that seat's credentials. */
export interface MyMatch {
  matchID: string;
  playerID: '0' | '1';
  playerCredentials: string;
  name: string;
  over: boolean;
}
export interface MyMatches {
  matches: MyMatch[];
}

/** POST /me/claim: seats held in this browser offered to the account (at most 50). */
export interface ClaimRequest {
  seats: { matchID: string; playerID: '0' | '1'; credentials: string }[];
}

export interface SideRatingView {
  rating: number;
  rd: number;
  games: number;
  /** Not yet established (its deviation at least the provisional one, docs/RATINGS.md): shown with "?". */
  provisional: boolean;
}

/** A seat's account as public match data shows it: its username and that side's rating when it sat down. */
export interface PublicAccount {
  username: string;
  rating: number;
  /** That rating was provisional (shown with "?"); marks from before this was kept count as provisional. */
  provisional: boolean;
}

/**
 * Why a finished game was not rated (docs/RATINGS.md), a code the client words: created unrated, against
 * the computer, a seat without an account, one account on both seats, the fourth rated game of the same
 * two accounts within 24 hours, ended before a side's first decision, or too few decisions.
 */
/** `aborted-editor` / `aborted-nixon`: aborted before that side's first decision (server/match/ending.ts). */
export type UnratedReason = 'casual' | 'computer' | 'guest' | 'same-account' | 'pair-limit' | 'aborted-editor' | 'aborted-nixon' | 'few-decisions' | 'seen-together';
export const UNRATED_REASONS: readonly UnratedReason[] = ['casual', 'computer', 'guest', 'same-account', 'pair-limit', 'aborted-editor', 'aborted-nixon', 'few-decisions', 'seen-together'];

/** One seat of a finished match as its result shows it: the rating change of a rated game, or why it was unrated. */
export interface SeatResult {
  side: '0' | '1';
  /** The seat's account's username (null: a guest or the computer). */
  username: string | null;
  rated: boolean;
  unratedReason: UnratedReason | null;
  ratingBefore: number | null;
  ratingAfter: number | null;
  /** The rating after the game is provisional (shown with "?"). */
  provisional: boolean;
}

/** GET /games/watergate/:id/result: a finished match's account seats as rated (none before the end, for a match nobody with an account played, or an unlisted match not yours). */
export interface MatchResult {
  matchID: string;
  seats: SeatResult[];
}

/** One finished match in a profile. */
export interface ProfileMatch {
  matchID: string;
  side: '0' | '1';
  opponent: string;
  /** The computer's level when it was the opponent. */
  level: string | null;
  won: boolean;
  reason: string;
  rated: boolean;
  unratedReason: UnratedReason | null;
  ratingBefore: number | null;
  ratingAfter: number | null;
  /** The rating after this game was provisional. */
  provisional: boolean;
  moves: number;
  finishedAt: number;
}

export interface WinLoss {
  won: number;
  lost: number;
}

/** GET /players/:username */
export interface Profile {
  username: string;
  /** A bot account (it plays through the HTTP bot API: docs/BOT-API.md); absent for a player. */
  bot?: true;
  ratings: Record<RatedSide, SideRatingView>;
  /** Ratings after each rated game, oldest first, per side. */
  history: Record<RatedSide, { at: number; rating: number }[]>;
  bySide: Record<RatedSide, WinLoss>;
  byOpponent: ({ opponent: string } & WinLoss)[];
  /** Against the computer, by level (these games are never rated). */
  byLevel: ({ level: string } & WinLoss)[];
  averageMoves: number | null;
  averageMinutes: number | null;
  matches: ProfileMatch[];
}

/** GET /leaderboard?role=editor|nixon|combined */
export interface Leaderboard {
  role: RatedSide | 'combined';
  minGames: number;
  /** Distinct rated opponents a listed player has had (on that side; either side for combined). */
  minOpponents: number;
  /** Listed ratings are established: their deviation is below this. */
  provisionalRD: number;
  players: { username: string; rating: number; rd: number; games: number; provisional: boolean }[];
}

/** POST /pair: "Play now". */
export interface PairRequest {
  side: '0' | '1' | 'either';
  clock: 'none' | 'live' | 'relaxed';
  rated: boolean;
  /** A guest's name (a signed-in player plays under their username). */
  name?: string;
}

/** POST /pair and POST /pair/poll { ticket }: waiting, or the match both players were seated in. */
export interface PairStatus {
  ticket: string;
  status: 'waiting' | 'paired';
  waitedSeconds: number;
  /** The computer's level nearest this player's rating, offered after a while with nobody. */
  suggestedLevel: string;
  matchID?: string;
  playerID?: '0' | '1';
  playerCredentials?: string;
}
