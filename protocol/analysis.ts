/**
 * A finished game's analysis (the replay page's "Analyse"): every decision judged by our bot from the
 * decider's own view, as the browser's worker computes it and the server may keep it. The budget is part
 * of the format: two analyses with the same budget and seed are the same analysis.
 */

/**
 * Our bot's search per decision: at most this many simulated games, or this long, whichever ends first.
 * About 2 s per decision on a phone at most (docs/BOTS.md "Analysis of a finished game" measures it).
 */
export const ANALYSIS_BUDGET = { iterations: 2000, timeMs: 1500 } as const;

/** A move as the replay stores it (protocol/replay.ts). */
export interface AnalysedMove {
  move: string;
  args: unknown[];
}

/** One decision judged. Chances are the decider's, in [0, 1]. */
export interface DecisionReview {
  /** Only one legal move: nothing to judge, no search made. */
  forced: boolean;
  /** The decider's chance with the bot's best move (null when forced). */
  before: number | null;
  /** The decider's chance with the move played, from the same search (null: forced, or the search never tried it). */
  after: number | null;
  /** The move the bot would have made. */
  best: AnalysedMove;
  /** How often the search tried the move played (how far to trust `after`). */
  playedVisits: number;
  iterations: number;
  elapsedMs: number;
}

/** A review placed in its game: step k is the state the k-th move produced (the replay's numbering). */
export interface JudgedDecision {
  step: number;
  decider: '0' | '1';
  review: DecisionReview;
}

export const ANALYSIS_FORMAT = 'watergate-analysis/1';

/** The refusal before the end: the same words whatever the match's state, so it tells nothing. */
export const ANALYSIS_NOT_YET = 'an analysis opens when the game is over';

/** GET: 200 a GameAnalysis, 202 AnalysisPending (asking started it, or it is under way), 204 none here (the server computes none), 403 before the end. */
export const analysisPath = (matchID: string): string => `/games/watergate/${encodeURIComponent(matchID)}/analysis`;

/** A finished game's analysis as the server keeps and serves it (computed once, by the server's bot pool). */
export interface GameAnalysis {
  format: typeof ANALYSIS_FORMAT;
  matchID: string;
  /** The server's search per decision: the iterations alone (no time cap), so the analysis is the same on any machine. */
  budget: { iterations: number; seed: number };
  decisions: JudgedDecision[];
}

export interface AnalysisPending {
  pending: true;
  /** Decisions judged so far and in all, when this process is the one computing (else null). */
  done: number | null;
  total: number | null;
}
