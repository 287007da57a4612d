// The page of `npm run bench:analysis` (tools/bench-analysis.ts): the replay's analysis worker, as the replay page runs it.
import { reviewInBrowser, type ReviewTask } from '../../bots/browser';

const w = window as unknown as Record<string, unknown>;
/** Every task reviewed with the analysis budget (or `config`'s); `wall`: each decision's time as the page saw it (messages included). */
w.analyse = async (tasks: ReviewTask[], config: object = {}) => {
  const stamps: number[] = [];
  const t0 = performance.now();
  const reviews = await reviewInBrowser(tasks, { config, onProgress: () => stamps.push(performance.now()) });
  return { reviews, wall: stamps.map((s, i) => s - (i ? stamps[i - 1] : t0)) };
};
w.ready = true;
