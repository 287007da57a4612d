/**
 * A decision judged afterwards, for the replay's analysis: one search of our bot from the decider's own
 * view (the same `think` the levels use, so the search is the one that plays), read out as root-child
 * statistics. "Before" is the value of the bot's best move, "after" the value the same search gives the
 * move actually played: both from one tree over one view, so their difference is the decision's loss in
 * the bot's eyes. Values are the decider's chance to win, in [0, 1].
 */
import type { MoveChoice, WatergateView } from '../game';
import { ANALYSIS_BUDGET, type DecisionReview } from '../protocol/analysis';
import { think, type BotConfig } from './levels';

/** The analysis budget (protocol/analysis.ts: it is part of what an analysis means). */
export const ANALYSIS: Readonly<Required<Pick<BotConfig, 'iterations' | 'timeMs'>>> = ANALYSIS_BUDGET;

export interface MoveValue {
  move: MoveChoice;
  visits: number;
  /** The decider's chance to win after this move, as the search estimates it. */
  value: number;
}

export interface Analysis {
  /** The move the bot would make (the most visited), with its value; value null when the move was forced. */
  best: { move: MoveChoice; value: number | null };
  /** Every root move the search tried, most visited first (empty when only one move was legal). */
  moves: MoveValue[];
  iterations: number;
  elapsedMs: number;
}

/** Our bot's search at `view`, read out move by move. Only the view goes in (think refuses a full state). */
export function analyse(view: WatergateView, config: BotConfig = {}): Analysis {
  const d = think(view, config);
  const moves = d.stats.map((s) => ({ move: s.move, visits: s.visits, value: s.mean }));
  return { best: { move: d.move, value: moves[0]?.value ?? null }, moves, iterations: d.iterations, elapsedMs: d.elapsedMs };
}

/** Plain data in a canonical form: object keys sorted, undefined fields dropped (a client may send keys in any order). */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => [k, canonical(o[k])]),
  );
}

/** The same move, whatever the order of its arguments' keys. */
export const sameMove = (a: MoveChoice, b: MoveChoice): boolean => a.move === b.move && JSON.stringify(canonical(a.args[0] ?? null)) === JSON.stringify(canonical(b.args[0] ?? null));

/** One decision of a finished game, judged: what crosses back from the worker. */
export type Review = DecisionReview;

/** Judges `played` at `view` (the decider's view of the position before it), with the analysis budget unless told otherwise. */
export function review(view: WatergateView, played: MoveChoice, config: BotConfig = {}): Review {
  const a = analyse(view, { ...ANALYSIS, ...config });
  const mine = a.moves.find((m) => sameMove(m.move, played));
  const forced = a.moves.length === 0;
  return {
    forced,
    before: a.best.value,
    after: mine?.value ?? null,
    best: a.best.move,
    playedVisits: mine?.visits ?? 0,
    iterations: a.iterations,
    elapsedMs: a.elapsedMs,
  };
}
