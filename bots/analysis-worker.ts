/**
 * Web Worker entry for the replay's analysis (browser-analysis.ts starts one per analysis and terminates it
 * to cancel): a decider's view and the move played in, the decision's review out. Never load it directly.
 */
import { review } from './analyse';
import type { ReviewReply, ReviewRequest } from './browser-analysis';

const scope = self as unknown as { onmessage: ((e: MessageEvent<ReviewRequest>) => void) | null; postMessage(m: ReviewReply): void };

scope.onmessage = (e) => {
  const { id, view, played, config } = e.data;
  try {
    scope.postMessage({ id, review: review(view, played, config) });
  } catch (err) {
    scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
