/**
 * Web Worker entry for the browser ("play vs computer" in local mode): a view and a lane of searches in,
 * their results out. Load it with browser.ts, never directly.
 */
import { searchLane } from './ensemble';
import type { ThinkRequest, ThinkReply } from './browser';

const scope = self as unknown as { onmessage: ((e: MessageEvent<ThinkRequest>) => void) | null; postMessage(m: ThinkReply): void };

scope.onmessage = (e) => {
  const { id, view, searches } = e.data;
  try {
    scope.postMessage({ id, decisions: searchLane(view, searches) });
  } catch (err) {
    scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
