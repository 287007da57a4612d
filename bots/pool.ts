/**
 * Bot decisions off the main thread on the server: a Piscina pool of Node worker threads, so a search
 * never blocks other matches' sockets. Only a seat's view crosses to the worker.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { MoveChoice, WatergateView } from '../game';
import type { Review } from './analyse';
import { mergeLanes } from './ensemble';
import type { Decision } from './ismcts';
import { lanesFor, type BotConfig } from './levels';
import type { ReviewTask, ThinkTask } from './worker';

/** Under tsx or Vitest the worker is TypeScript: load it through tsx's loader (resolved from here, not the cwd). */
function workerFile(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!/\.ts($|\?)/.test(here)) return { filename: new URL('./worker.js', here).href, execArgv: [] };
  const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { filename: new URL('./worker.ts', here).href, execArgv: ['--import', tsx] };
}

export interface BotPoolOptions {
  /** Worker threads (default 1: leave the other cores to the server). */
  threads?: number;
  /**
   * Tasks that may wait for a thread (default 8 per thread); past that, think() refuses at once. A
   * decision is one task per thread it uses: merged searches (`searches`) are split over the threads.
   */
  maxQueue?: number;
}

/**
 * The pool has as many decisions waiting as it may: the caller tries again later. Each vs-computer
 * match can ask for about a second of search, so an unbounded queue would grow with every match made.
 */
export class BotQueueFull extends Error {
  constructor(readonly waiting: number) {
    super(`the bot queue is full (${waiting} decisions waiting): try again later`);
  }
}

export class BotPool {
  private readonly pool: Piscina<ThinkTask | ReviewTask, Decision[] | Review>;
  private readonly threads: number;
  private readonly capacity: number;
  /** Tasks running or waiting: counted here so that the bound holds the moment think() is called. */
  private outstanding = 0;
  private decisions = 0;

  constructor({ threads = 1, maxQueue = 8 * threads }: BotPoolOptions = {}) {
    this.threads = threads;
    this.capacity = threads + maxQueue;
    const { filename, execArgv } = workerFile();
    // No thread until the first decision: a server without "vs computer" matches keeps its memory (docs/LOAD.md).
    this.pool = new Piscina({ filename, execArgv, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  }

  /** One decision for the seat that owns `view`; rejects with BotQueueFull when the queue is full. */
  think = async (view: WatergateView, config: BotConfig = {}): Promise<Decision> => {
    // At most `threads` tasks, so a decision always fits in an empty pool.
    const lanes = lanesFor(view, config, this.threads);
    if (this.outstanding + lanes.length > this.capacity) throw new BotQueueFull(this.decisions);
    this.outstanding += lanes.length;
    this.decisions++;
    try {
      // Every lane settles before the count goes down: a failed lane must not free its siblings' places.
      const done = await Promise.allSettled(lanes.map((searches) => this.pool.run({ view, searches })));
      const failed = done.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return mergeLanes(done.map((r) => (r as PromiseFulfilledResult<Decision[]>).value));
    } finally {
      this.outstanding -= lanes.length;
      this.decisions--;
    }
  };

  /** One decision of a finished game judged (bots/analyse.ts), under the same bound: one task. */
  review = async (view: WatergateView, played: MoveChoice, config: BotConfig = {}): Promise<Review> => {
    if (this.outstanding + 1 > this.capacity) throw new BotQueueFull(this.decisions);
    this.outstanding++;
    this.decisions++;
    try {
      return (await this.pool.run({ view, played, config }, { name: 'reviewTask' })) as Review;
    } finally {
      this.outstanding--;
      this.decisions--;
    }
  };

  /** Tasks running or waiting for a free thread (one per decision of one search). */
  get queued(): number {
    return this.outstanding;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
