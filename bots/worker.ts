/** Worker-thread entry (pool.ts): one decision per task. Receives a seat's view only, returns plain data. */
import type { WatergateView } from '../game';
import { think, type BotConfig } from './levels';

export interface ThinkTask {
  view: WatergateView;
  config: BotConfig;
}

export default function thinkTask({ view, config }: ThinkTask) {
  return think(view, config);
}
