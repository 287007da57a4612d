/**
 * Web Worker entry for the browser ("play vs computer" in local mode): a view in, a decision out.
 * Load it with browser.ts, never directly.
 */
import { think } from './levels';
import type { ThinkRequest, ThinkReply } from './browser';

const scope = self as unknown as { onmessage: ((e: MessageEvent<ThinkRequest>) => void) | null; postMessage(m: ThinkReply): void };

scope.onmessage = (e) => {
  const { id, view, config } = e.data;
  try {
    scope.postMessage({ id, decision: think(view, config) });
  } catch (err) {
    scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
