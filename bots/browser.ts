/**
 * Our bot in the browser, searching in Web Workers so the board stays responsive.
 *
 *   import { browserBot } from '../bots/browser';
 *   Local({ bots: { '1': browserBot({ level: 'normal' }) } })      // boardgame.io plays the seat
 *   const d = await thinkInBrowser(view, { level: 'hard' });        // or ask for one decision
 *
 * A decision of one search (every level) uses one worker; merged searches (`searches`) are split over a
 * few workers (as many as the device has cores to spare, at most 4), and merged here (ensemble.ts).
 * Vite bundles the worker from the `new URL(…, import.meta.url)` below.
 */
import type { WatergateView } from '../game';
import { watergateBot } from './bgio';
import { mergeLanes } from './ensemble';
import type { Decision, SearchOptions } from './ismcts';
import { lanesFor, type BotConfig } from './levels';

export interface ThinkRequest {
  id: number;
  view: WatergateView;
  searches: SearchOptions[];
}
export type ThinkReply = { id: number; decisions: Decision[] } | { id: number; error: string };

/** Workers for one decision: the cores but one (the page's own), 1 to 4. */
export const browserThreads = (cores: number | undefined): number => Math.max(1, Math.min(4, (cores || 2) - 1));

const workers: Worker[] = [];
let nextId = 1;
const waiting = new Map<number, { resolve(d: Decision[]): void; reject(e: Error): void }>();

function getWorker(i: number): Worker {
  if (workers[i]) return workers[i];
  const worker = new Worker(new URL('./browser-worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (e: MessageEvent<ThinkReply>) => {
    const w = waiting.get(e.data.id);
    if (!w) return;
    waiting.delete(e.data.id);
    if ('error' in e.data) w.reject(new Error(e.data.error));
    else w.resolve(e.data.decisions);
  };
  worker.onerror = (e) => {
    for (const w of waiting.values()) w.reject(new Error(e.message || 'bot worker failed'));
    waiting.clear();
  };
  return (workers[i] = worker);
}

function runLane(i: number, view: WatergateView, searches: SearchOptions[]): Promise<Decision[]> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    getWorker(i).postMessage({ id, view, searches } satisfies ThinkRequest);
  });
}

/** One decision, computed in the bot workers. Pass the seat's view (what the client already holds). */
export async function thinkInBrowser(view: WatergateView, config: BotConfig = {}): Promise<Decision> {
  const lanes = lanesFor(view, config, browserThreads(navigator.hardwareConcurrency));
  return mergeLanes(await Promise.all(lanes.map((searches, i) => runLane(i, view, searches))));
}

/** A boardgame.io Bot class for `Local({ bots })` that thinks in the worker. */
export const browserBot = (config: BotConfig = {}) => watergateBot(config, thinkInBrowser);

/** Stops the workers (e.g. when leaving the local game). */
export function stopBrowserBot(): void {
  for (const w of workers) w.terminate();
  workers.length = 0;
  for (const w of waiting.values()) w.reject(new Error('bot worker stopped'));
  waiting.clear();
}

/** The replay's analysis: its own worker per analysis (browser-analysis.ts), cancellable. */
export { reviewInBrowser, type ReviewTask, type ReviewOptions } from './browser-analysis';
export type { Review } from './analyse';
