/**
 * Root-parallel IS-MCTS (`BotConfig.searches`): K independent searches of the same decision, each with its
 * own seed — so its own sampled worlds, its own tree — whose root statistics are summed move by move
 * (visits, and value as mean × visits); the merged most-visited move is played. Independent trees need
 * no locks, so the searches run on as many threads as there are (worker threads on the server, Web
 * Workers in the browser) or one after the other on one.
 *
 * The searches are split into lanes, one per thread; a lane runs its searches one after the other.
 * Whatever the split, the merge reads the searches in the order they were planned, so a decision under
 * an iteration budget is the same on one thread or four (the level stays a pure function of view,
 * config and seed).
 */
import type { WatergateView } from '../game';
import { decide, keyOf, type Decision, type RootStat, type SearchOptions } from './ismcts';

/** The searches in contiguous lanes, at most `threads` of them: lane order is plan order. */
export function splitLanes(searches: SearchOptions[], threads: number): SearchOptions[][] {
  const perLane = Math.ceil(searches.length / Math.max(1, Math.min(threads, searches.length)));
  const lanes: SearchOptions[][] = [];
  for (let i = 0; i < searches.length; i += perLane) lanes.push(searches.slice(i, i + perLane));
  return lanes;
}

/** One lane's work, on whatever thread runs it. */
export const searchLane = (view: WatergateView, searches: SearchOptions[]): Decision[] => searches.map((o) => decide(view, o));

/**
 * One decision from the lanes' results (given in lane order). A single search is returned as it is.
 * Search time is the longest lane's (lanes run side by side; a lane's searches one after the other).
 */
export function mergeLanes(lanes: Decision[][]): Decision {
  const parts = lanes.flat();
  if (parts.length === 1) return parts[0];
  const elapsedMs = Math.max(...lanes.map((lane) => lane.reduce((t, d) => t + d.elapsedMs, 0)));
  const iterations = parts.reduce((n, d) => n + d.iterations, 0);
  const sums = new Map<string, { move: RootStat['move']; visits: number; value: number }>();
  for (const d of parts)
    for (const s of d.stats) {
      const k = keyOf(s.move);
      const acc = sums.get(k) ?? { move: s.move, visits: 0, value: 0 };
      acc.visits += s.visits;
      acc.value += s.mean * s.visits;
      sums.set(k, acc);
    }
  // Ties keep the order moves were first met in, which is plan order: deterministic too.
  const stats = [...sums.values()].map(({ move, visits, value }) => ({ move, visits, mean: value / visits })).sort((a, b) => b.visits - a.visits || b.mean - a.mean);
  if (stats.length === 0) return { ...parts[0], iterations, elapsedMs };
  return { move: stats[0].move, iterations, elapsedMs, stats, winChance: stats[0].mean };
}
