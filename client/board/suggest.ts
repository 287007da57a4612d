/**
 * The hint's search, loaded on demand (Hint.tsx): our bot at level normal, in the browser's Web Worker
 * (bots/browser.ts), on the player's own view — what the player already holds, nothing more.
 */
import type { MoveChoice, WatergateView } from '../../game';
import { thinkInBrowser } from '../../bots/browser';

export async function suggest(view: WatergateView): Promise<MoveChoice> {
  return (await thinkInBrowser(view, { level: 'normal' })).move;
}
