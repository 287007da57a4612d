/**
 * Our bot in the browser, searching in a Web Worker so the board stays responsive.
 *
 *   import { browserBot } from '../bots/browser';
 *   Local({ bots: { '1': browserBot({ level: 'normal' }) } })      // boardgame.io plays the seat
 *   const d = await thinkInBrowser(view, { level: 'hard' });        // or ask for one decision
 *
 * Vite bundles the worker from the `new URL(…, import.meta.url)` below.
 */
import type { WatergateView } from '../game';
import { watergateBot } from './bgio';
import type { Decision } from './ismcts';
import type { BotConfig } from './levels';

export interface ThinkRequest {
  id: number;
  view: WatergateView;
  config: BotConfig;
}
export type ThinkReply = { id: number; decision: Decision } | { id: number; error: string };

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve(d: Decision): void; reject(e: Error): void }>();

function getWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./browser-worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (e: MessageEvent<ThinkReply>) => {
    const w = waiting.get(e.data.id);
    if (!w) return;
    waiting.delete(e.data.id);
    if ('error' in e.data) w.reject(new Error(e.data.error));
    else w.resolve(e.data.decision);
  };
  worker.onerror = (e) => {
    for (const w of waiting.values()) w.reject(new Error(e.message || 'bot worker failed'));
    waiting.clear();
  };
  return worker;
}

/** One decision, computed in the shared bot worker. Pass the seat's view (what the client already holds). */
export function thinkInBrowser(view: WatergateView, config: BotConfig = {}): Promise<Decision> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    getWorker().postMessage({ id, view, config } satisfies ThinkRequest);
  });
}

/** A boardgame.io Bot class for `Local({ bots })` that thinks in the worker. */
export const browserBot = (config: BotConfig = {}) => watergateBot(config, thinkInBrowser);

/** Stops the worker (e.g. when leaving the local game). */
export function stopBrowserBot(): void {
  worker?.terminate();
  worker = null;
  for (const w of waiting.values()) w.reject(new Error('bot worker stopped'));
  waiting.clear();
}

/** The replay's analysis: its own worker per analysis (browser-analysis.ts), cancellable. */
export { reviewInBrowser, type ReviewTask, type ReviewOptions } from './browser-analysis';
export type { Review } from './analyse';
