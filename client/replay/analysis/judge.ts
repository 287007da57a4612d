/**
 * The analysis's plain-data parts: which decisions of a replay are judged and from what (the decider's own
 * view of the position before it, playerView: never the other hand, the decks or the bag), the Editor's
 * win-chance curve over the game, the three biggest swings, and the check of an analysis the server sent.
 * No browser, no worker: tested on their own.
 */
import type { PlayerID } from '../../../game';
import { decisionSeen } from '../../../game/review';
import type { ReplayData } from '../../../protocol/replay';
import { ANALYSIS_FORMAT, type AnalysedMove, type GameAnalysis, type JudgedDecision } from '../../../protocol/analysis';
import type { ReviewTask } from '../../../bots/browser';
import type { ReplayState } from '../steps';

/** One decision to judge: step k is the state the k-th move produced (the replay's numbering). */
export interface Judgeable {
  step: number;
  decider: PlayerID;
  task: ReviewTask;
}

/** Every decision of the game that a player made at a prompt, with the decider's view before it (game/review.ts). */
export function decisionsToJudge(data: ReplayData, states: readonly ReplayState[]): Judgeable[] {
  return data.moves.flatMap((m, i) => {
    const seen = decisionSeen(states[i].G, m);
    return seen ? [{ step: i + 1, decider: seen.decider, task: { view: seen.view, played: seen.played } }] : [];
  });
}

export type Judged = JudgedDecision;

/** A chance of the decider's, as the Editor's. */
export const forEditor = (decider: PlayerID, chance: number): number => (decider === '0' ? chance : 1 - chance);

/**
 * The Editor's chance to win at each step 0…last (in [0, 1]): after decision k, the decider's estimate of
 * the move played; where there is none (a forced move, a move the search never tried), the next
 * decider's estimate of the position, else the last point carried on. Steps before the first estimate take it.
 */
export function editorCurve(judged: readonly Judged[], last: number): number[] {
  const at = new Map(judged.map((j) => [j.step, j]));
  const out: (number | null)[] = [];
  for (let s = 0; s <= last; s++) {
    const j = at.get(s);
    const next = at.get(s + 1);
    const v = j && j.review.after !== null ? forEditor(j.decider, j.review.after) : next && next.review.before !== null ? forEditor(next.decider, next.review.before) : s > 0 ? out[s - 1] : null;
    out.push(v);
  }
  const first = out.find((v) => v !== null) ?? 0.5;
  let seen = false;
  return out.map((v) => (v === null ? (seen ? 0.5 : first) : ((seen = true), v)));
}

export interface Swing {
  /** 1 for the biggest loss. */
  rank: number;
  step: number;
  decider: PlayerID;
  /** The decider's chance with the bot's move and with the move played, and their difference. */
  before: number;
  after: number;
  loss: number;
  best: AnalysedMove;
}

/** The `count` biggest losses (before − after > 0), biggest first; an earlier decision first on a tie. */
export function pickSwings(judged: readonly Judged[], count = 3): Swing[] {
  return judged
    .flatMap(({ step, decider, review: r }) => (r.before !== null && r.after !== null && r.before - r.after > 0 ? [{ step, decider, before: r.before, after: r.after, loss: r.before - r.after, best: r.best }] : []))
    .sort((a, b) => b.loss - a.loss || a.step - b.step)
    .slice(0, count)
    .map((s, i) => ({ rank: i + 1, ...s }));
}

const chance = (v: unknown) => v === null || (typeof v === 'number' && v >= 0 && v <= 1);
const move = (m: unknown) => !!m && typeof (m as { move?: unknown }).move === 'string' && Array.isArray((m as { args?: unknown }).args);

/**
 * The server's analysis of this match, if it is one (protocol/analysis.ts): anything else — another
 * match's, another format, a step outside the game, a chance outside [0, 1] — is not shown.
 */
export function servedAnalysis(x: unknown, matchID: string, last: number): Judged[] | null {
  const a = x as Partial<GameAnalysis> | null;
  if (!a || a.format !== ANALYSIS_FORMAT || a.matchID !== matchID || !Array.isArray(a.decisions)) return null;
  const ok = a.decisions.every((d) => {
    const r = d?.review as Partial<Judged['review']> | undefined;
    return Number.isInteger(d?.step) && d.step >= 1 && d.step <= last && (d.decider === '0' || d.decider === '1') && !!r && typeof r.forced === 'boolean' && chance(r.before) && chance(r.after) && move(r.best);
  });
  return ok ? a.decisions : null;
}
