/**
 * The replay's analysis in the browser: each decision of a finished game judged by our bot in a Web Worker
 * of its own (analysis-worker.ts), one decision at a time, so the page stays responsive, progress is
 * reported after each, and cancelling terminates the worker at once (a search in progress included).
 * Only the decider's view and the move played cross to the worker: the caller builds the view.
 */
import type { MoveChoice, WatergateView } from '../game';
import type { Review } from './analyse';
import type { BotConfig } from './levels';

export interface ReviewTask {
  /** The deciding player's view of the position before the decision (playerView), nothing more. */
  view: WatergateView;
  played: MoveChoice;
}
export interface ReviewRequest extends ReviewTask {
  id: number;
  config: BotConfig;
}
export type ReviewReply = { id: number; review: Review } | { id: number; error: string };

export interface ReviewOptions {
  config?: BotConfig;
  /** After each decision: how many are done, and that decision's review. */
  onProgress?: (done: number, review: Review) => void;
  /** Aborting terminates the worker; the promise then rejects with an AbortError. */
  signal?: AbortSignal;
}

const aborted = () => new DOMException('analysis cancelled', 'AbortError');

/** Reviews every task in order, in a worker started for this call and terminated when it ends. */
export function reviewInBrowser(tasks: readonly ReviewTask[], { config = {}, onProgress, signal }: ReviewOptions = {}): Promise<Review[]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const worker = new Worker(new URL('./analysis-worker.ts', import.meta.url), { type: 'module' });
    const out: Review[] = [];
    const finish = (err?: Error) => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(out);
    };
    const onAbort = () => finish(aborted());
    signal?.addEventListener('abort', onAbort, { once: true });
    const next = () => {
      if (out.length === tasks.length) return finish();
      const { view, played } = tasks[out.length];
      worker.postMessage({ id: out.length, view, played, config } satisfies ReviewRequest);
    };
    worker.onmessage = (e: MessageEvent<ReviewReply>) => {
      if (signal?.aborted || e.data.id !== out.length) return;
      if ('error' in e.data) return finish(new Error(e.data.error));
      out.push(e.data.review);
      onProgress?.(out.length, e.data.review);
      next();
    };
    worker.onerror = (e) => finish(new Error(e.message || 'analysis worker failed'));
    next();
  });
}
