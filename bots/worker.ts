/** Worker-thread entry (pool.ts): one decision per task. Receives a seat's view only, returns plain data. */
import type { MoveChoice, WatergateView } from '../game';
import { review } from './analyse';
import { think, type BotConfig } from './levels';

export interface ThinkTask {
  view: WatergateView;
  config: BotConfig;
}

export default function thinkTask({ view, config }: ThinkTask) {
  return think(view, config);
}

/** A finished game's decision judged (the server's cached analysis), by name: `pool.run(task, { name: 'reviewTask' })`. */
export function reviewTask({ view, played, config }: ReviewTask) {
  return review(view, played, config);
}

export interface ReviewTask {
  view: WatergateView;
  played: MoveChoice;
  config: BotConfig;
}
