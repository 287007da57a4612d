/** Worker-thread entry (pool.ts): one lane of a decision's searches per task, or one decision of a finished game judged. Receives a seat's view only, returns plain data. */
import type { MoveChoice, WatergateView } from '../game';
import { review } from './analyse';
import { searchLane } from './ensemble';
import type { SearchOptions } from './ismcts';
import type { BotConfig } from './levels';

export interface ThinkTask {
  view: WatergateView;
  searches: SearchOptions[];
}

export default function thinkTask({ view, searches }: ThinkTask) {
  return searchLane(view, searches);
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
