/**
 * Difficulty levels: an iteration budget with a time cap. The iteration budget alone makes a level
 * reproducible (tests and benchmarks use `deterministic: true`); the time cap keeps a slow machine
 * responsive (hard: p95 under one second on one core, see docs/BOTS.md). The expert level is one search
 * with four times hard's budget: a bigger tree beat hard where two or four merged trees of hard's size
 * did not (docs/BOTS.md, "Where it stands"). Several searches merged at the root (`searches`,
 * ensemble.ts) remain for whoever asks, in parallel where there are threads for them.
 */
import type { WatergateView } from '../game';
import type { Decision, SearchOptions } from './ismcts';
import { mergeLanes, searchLane, splitLanes } from './ensemble';
import { seedFrom } from './rng';

import type { Level } from '../protocol/index';

export type { Level };
/**
 * `iterations` is each search's; `timeMs` caps the whole decision: with fewer threads than searches,
 * each search gets its share (docs/BOTS.md, "Levels and seeds").
 */
export const LEVELS: Readonly<Record<Level, { iterations: number; timeMs: number; searches: number }>> = {
  easy: { iterations: 100, timeMs: 100, searches: 1 },
  normal: { iterations: 1000, timeMs: 400, searches: 1 },
  hard: { iterations: 8000, timeMs: 900, searches: 1 },
  expert: { iterations: 32000, timeMs: 3600, searches: 1 },
};

/** The most searches one decision may ask for (each is a task for a thread). */
const MAX_SEARCHES = 16;

/** Plain data, so it can cross to a worker thread or a Web Worker. */
export interface BotConfig {
  level?: Level;
  /** Overrides of the level's budget (`iterations` per search, `timeMs` per decision). */
  iterations?: number;
  timeMs?: number;
  /** Override of the level's number of merged searches. */
  searches?: number;
  /** Ignore the time cap: the same view and seed give the same move on every machine. */
  deterministic?: boolean;
  /** Base seed; each decision mixes in where the game stands, so two decisions never share a stream. */
  seed?: number;
  /** Search even a forced move, for its win-chance estimate (analysis of a game). */
  estimate?: boolean;
}

/**
 * The searches of one decision, for `threads` threads. One search keeps the seed the levels always
 * had; with several, search i mixes in i. The time cap is shared out so the decision ends in time
 * when the searches must queue for the threads.
 */
export function planSearches(view: WatergateView, config: BotConfig = {}, threads = 1): SearchOptions[] {
  const level = LEVELS[config.level ?? 'normal'];
  const where = `${config.seed ?? 0}/${view.round}/${view.turnSeq}/${view.log.length}/${view.prompt?.kind}`;
  const k = Math.max(1, Math.min(MAX_SEARCHES, Math.floor(config.searches ?? level.searches)));
  const waves = Math.ceil(k / Math.max(1, Math.min(threads, k)));
  const timeMs = config.deterministic ? undefined : (config.timeMs ?? level.timeMs) / waves;
  return Array.from({ length: k }, (_, i) => ({
    iterations: config.iterations ?? level.iterations,
    timeMs,
    seed: seedFrom(k === 1 ? where : `${where}/${i}`),
    searchForced: config.estimate,
  }));
}

/** The searches of one decision split over `threads` lanes (pool.ts, browser.ts run one lane per thread). */
export const lanesFor = (view: WatergateView, config: BotConfig, threads: number): SearchOptions[][] => splitLanes(planSearches(view, config, threads), threads);

/** The bot's whole interface to a game: a seat's view in, a decision out (every search in this thread). */
export function think(view: WatergateView, config: BotConfig = {}): Decision {
  return mergeLanes([searchLane(view, planSearches(view, config))]);
}
