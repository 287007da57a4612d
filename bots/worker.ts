/** Worker-thread entry (pool.ts): one lane of a decision's searches per task. Receives a seat's view only, returns plain data. */
import type { WatergateView } from '../game';
import { searchLane } from './ensemble';
import type { SearchOptions } from './ismcts';

export interface ThinkTask {
  view: WatergateView;
  searches: SearchOptions[];
}

export default function thinkTask({ view, searches }: ThinkTask) {
  return searchLane(view, searches);
}
