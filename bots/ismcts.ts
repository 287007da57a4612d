/**
 * Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012), as in OpenSpiel's IS-MCTS:
 * one tree over the bot's information sets, keyed by the sequence of moves; every iteration samples a new
 * world (game/determinize.ts) and walks the tree restricted to the moves legal in that world. Children count
 * how often they were available, so opponent moves that depend on a hidden hand are not over-trusted.
 * Playouts are random until the end of the round, then scored by evaluate.ts.
 */
import { applyMove, legalMoves, type MoveChoice, type PlayerID, type WatergateState, type WatergateView } from '../game';
import { samplerFor } from './determinize';
import { editorWinChance } from './evaluate';
import { botRng, type BotRng } from './rng';

export interface SearchOptions {
  /** Stop after this many iterations… */
  iterations: number;
  /** …or after this many milliseconds, whichever comes first (omit for a budget that only counts iterations). */
  timeMs?: number;
  seed: number;
  /** UCB exploration constant (rewards are in [0, 1]). */
  exploration?: number;
  /** Rounds to play out past the current one before evaluating (0: evaluate when this round ends). */
  extraRounds?: number;
  /** Search even when only one move is legal (an analysis wants the estimate of every position). */
  searchForced?: boolean;
}

export interface Decision {
  move: MoveChoice;
  iterations: number;
  elapsedMs: number;
  /** Root statistics, most visited first; `mean` is the move's value from the decider's side, in [0, 1]. */
  stats: RootStat[];
  /**
   * The decider's estimated chance to win: the chosen move's mean value. Absent when nothing was
   * searched (a forced move without `searchForced`).
   */
  winChance?: number;
}

export interface RootStat {
  move: MoveChoice;
  visits: number;
  mean: number;
}

interface TreeNode {
  /** Who chose the move leading here (rewards are stored from their side). */
  player: PlayerID | null;
  move: MoveChoice | null;
  visits: number;
  avail: number;
  value: number;
  children: Map<string, TreeNode>;
}

/**
 * A move's identity in the tree: the same move gets the same key in every sampled world. Written out by
 * hand rather than with JSON.stringify, which is 3× slower here and was 15% of the search: keys are built
 * for every legal move at every tree node of every iteration. Move arguments are plain data (ids,
 * numbers, booleans, null, and arrays and objects of those); ids hold no quote, so keys stay distinct.
 */
function encode(v: unknown): string {
  if (typeof v === 'string') return `"${v}"`;
  if (v === null || typeof v !== 'object') return String(v);
  let s = Array.isArray(v) ? '[' : '{';
  if (Array.isArray(v)) for (const x of v) s += `${encode(x)},`;
  else for (const k in v) if ((v as Record<string, unknown>)[k] !== undefined) s += `${k}:${encode((v as Record<string, unknown>)[k])},`;
  return s + (Array.isArray(v) ? ']' : '}');
}
export const keyOf = (m: MoveChoice): string => m.move + encode(m.args[0]);
const newNode = (player: PlayerID | null, move: MoveChoice | null): TreeNode => ({ player, move, visits: 0, avail: 0, value: 0, children: new Map() });
const MAX_PLAYOUT_MOVES = 400;

function apply(G: WatergateState, m: MoveChoice, rng: BotRng): void {
  const error = applyMove(G, G.prompt!.player, m.move, m.args[0], rng);
  if (error) throw new Error(`search produced an illegal move ${keyOf(m)}: ${error}`);
}

/** Picks a move for the seat that owns `view`. Only the view (with its public record) is used. */
export function decide(view: WatergateView, opts: SearchOptions): Decision {
  const started = performance.now();
  if ('bag' in view || 'decks' in view) throw new Error('a bot takes a player view, never the full state');
  const me = view.viewer;
  if (me === null || view.prompt?.player !== me) throw new Error('the bot is asked to move when it is not its decision');
  const rng = botRng(opts.seed);
  const sampler = samplerFor(view);
  const rootMoves = legalMoves(sampler.sample(rng), me);
  if (rootMoves.length === 0) throw new Error('no legal move');
  if (rootMoves.length === 1 && !opts.searchForced) return { move: rootMoves[0], iterations: 0, elapsedMs: performance.now() - started, stats: [] };

  const c = opts.exploration ?? 0.7;
  const lastRound = view.round + (opts.extraRounds ?? 0);
  const deadline = opts.timeMs === undefined ? Infinity : started + opts.timeMs;
  const root = newNode(null, null);
  let it = 0;
  for (; it < opts.iterations; it++) {
    if ((it & 15) === 0 && it > 0 && performance.now() >= deadline) break;
    const G = sampler.sample(rng);
    const path: TreeNode[] = [root];
    let node = root;
    let expanded = false;
    // Selection and expansion, through forced moves without branching.
    while (G.winner === null && !expanded) {
      const p = G.prompt!.player;
      const moves = legalMoves(G, p);
      // (A forced decision searched for its estimate still gets its one root child.)
      if (moves.length === 1 && !(node === root && opts.searchForced)) {
        apply(G, moves[0], rng);
        continue;
      }
      let best: TreeNode | null = null;
      let bestScore = -Infinity;
      const untried: MoveChoice[] = [];
      for (const m of moves) {
        const child = node.children.get(keyOf(m));
        if (!child) {
          untried.push(m);
          continue;
        }
        child.avail++;
        const score = child.value / child.visits + c * Math.sqrt(Math.log(child.avail) / child.visits);
        if (score > bestScore) (bestScore = score), (best = child);
      }
      if (untried.length > 0) {
        const m = untried[rng.int(untried.length)];
        best = newNode(p, m);
        node.children.set(keyOf(m), best);
        expanded = true;
      }
      apply(G, best!.move!, rng);
      node = best!;
      path.push(node);
    }
    // Playout to the end of the round, then the evaluation.
    for (let n = 0; G.winner === null && G.round <= lastRound && n < MAX_PLAYOUT_MOVES; n++) {
      const moves = legalMoves(G, G.prompt!.player);
      apply(G, moves[rng.int(moves.length)], rng);
    }
    const editor = editorWinChance(G);
    for (const n of path) {
      n.visits++;
      if (n.player !== null) n.value += n.player === '0' ? editor : 1 - editor;
    }
  }

  const legal = new Set(rootMoves.map(keyOf));
  const stats = [...root.children.entries()]
    .filter(([k]) => legal.has(k))
    .map(([, n]) => ({ move: n.move!, visits: n.visits, mean: n.value / n.visits }))
    .sort((a, b) => b.visits - a.visits || b.mean - a.mean);
  return { move: stats[0]?.move ?? rootMoves[0], iterations: it, elapsedMs: performance.now() - started, stats, winChance: stats[0]?.mean };
}
