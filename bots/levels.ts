/**
 * Difficulty levels: an iteration budget with a time cap. The iteration budget alone makes a level
 * reproducible (tests and benchmarks use `deterministic: true`); the time cap keeps a slow machine
 * responsive (hard: p95 under one second on one core, see docs/BOTS.md).
 */
import type { WatergateView } from '../game';
import { decide, type Decision, type SearchOptions } from './ismcts';
import { seedFrom } from './rng';

import type { Level } from '../protocol/index';

export type { Level };
export const LEVELS: Readonly<Record<Level, { iterations: number; timeMs: number }>> = {
  easy: { iterations: 100, timeMs: 100 },
  normal: { iterations: 1000, timeMs: 400 },
  hard: { iterations: 8000, timeMs: 900 },
};

/** Plain data, so it can cross to a worker thread or a Web Worker. */
export interface BotConfig {
  level?: Level;
  /** Overrides of the level's budget. */
  iterations?: number;
  timeMs?: number;
  /** Ignore the time cap: the same view and seed give the same move on every machine. */
  deterministic?: boolean;
  /** Base seed; each decision mixes in where the game stands, so two decisions never share a stream. */
  seed?: number;
}

function searchOptions(view: WatergateView, config: BotConfig = {}): SearchOptions {
  const level = LEVELS[config.level ?? 'normal'];
  const where = `${config.seed ?? 0}/${view.round}/${view.turnSeq}/${view.log.length}/${view.prompt?.kind}`;
  return {
    iterations: config.iterations ?? level.iterations,
    timeMs: config.deterministic ? undefined : (config.timeMs ?? level.timeMs),
    seed: seedFrom(where),
  };
}

/** The bot's whole interface to a game: a seat's view in, a decision out. */
export function think(view: WatergateView, config: BotConfig = {}): Decision {
  return decide(view, searchOptions(view, config));
}
