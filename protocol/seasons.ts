/** The seasons API (GET /api/seasons, /api/seasons/:id; server/seasons/, docs/EVENTS.md "Seasons"). */
export interface SeasonStanding {
  rank: number;
  username: string;
  points: number;
  wins: number;
  games: number;
}

export interface SeasonView {
  /** "2026-Q4": a calendar quarter, UTC. */
  id: string;
  from: number;
  to: number;
  current: boolean;
  table: SeasonStanding[];
}

export interface SeasonList {
  /** The current season with the head of its table. */
  current: SeasonView;
  past: { id: string; from: number; to: number; winners: SeasonStanding[] }[];
}

/** A season id as the routes take it. */
export const SEASON_ID = /^\d{4}-Q[1-4]$/;
