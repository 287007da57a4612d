/**
 * Events (Swiss tournaments): what the server's /api/tournaments routes answer and accept
 * (server/events/, docs/EVENTS.md), shared with the client's events pages. Plain types: no imports.
 */

export type EventStatus = 'open' | 'running' | 'finished' | 'cancelled';
export type EventSide = 'editor' | 'nixon';

/** POST /api/tournaments (signed in) → `{ id }`. */
export interface EventCreate {
  name: string;
  rounds: number;
  /** A time control of protocol/rated.ts (default "live"). */
  clock?: 'none' | 'live' | 'relaxed';
  rated?: boolean;
  /** Paired deals: each round two games on one deal, sides swapped, scored together. */
  paired?: boolean;
  /** When round 1 starts (ms since 1970); absent: when the creator starts it. */
  startsAt?: number;
  /** Round k starts no earlier than the start plus k times this; absent: as soon as the previous one ends. */
  roundMinutes?: number;
  minRating?: number;
  maxRating?: number;
  /** No game lost on time or by absence in the player's last this many games. */
  noTimeoutsIn?: number;
}

export interface EventEntryRules {
  minRating: number | null;
  maxRating: number | null;
  noTimeoutsIn: number | null;
}

/** One game of a round. A paired deal's two games share `seed` (the deal's public id, not the seed itself). */
export interface EventGame {
  matchID: string;
  editor: string;
  nixon: string;
  seed: string;
  /** The winning side; "none": nobody won; null: in play. */
  result: EventSide | 'none' | null;
  /**
   * Paired deals only: which game of its pair this is (the second appears once the first has ended), and
   * the pair's points (1 / ½ / 0) once both are over — the first game's Editor first — else null.
   */
  pair?: { game: 1 | 2; score: { player: string; points: number }[] | null };
}
export type EventEntry = EventGame | { bye: string };

export interface EventPlayer {
  username: string;
  rating: number;
  withdrawn: boolean;
  score: number;
  buchholz: number;
  sonnebornBerger: number;
  byes: number;
  sides: { editor: number; nixon: number };
}

/** What the list and the page both say of an event. */
export interface EventHead {
  id: string;
  name: string;
  creator: string;
  status: EventStatus;
  /** Rounds started so far. */
  round: number;
  totalRounds: number;
  clock: 'none' | 'live' | 'relaxed';
  rated: boolean;
  paired: boolean;
  startsAt: number | null;
}

/** GET /api/tournaments/:id: players best first (score, Buchholz, Sonneborn–Berger, rating). */
export interface EventView extends EventHead {
  /** Why it ended early or was cancelled: "too-few-players" | "no-pairing-left". */
  note: string | null;
  roundMinutes: number | null;
  entry: EventEntryRules;
  minPlayers: number;
  players: EventPlayer[];
  rounds: EventEntry[][];
}

/** GET /api/tournaments: the newest events. */
export interface EventSummary extends EventHead {
  players: number;
}
