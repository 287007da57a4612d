/**
 * Bot decisions off the main thread on the server: a Piscina pool of Node worker threads, so a search
 * never blocks other matches' sockets. Only a seat's view crosses to the worker.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { MoveChoice, WatergateView } from '../game';
import type { Decision } from './ismcts';
import type { BotConfig } from './levels';
import type { Review } from './analyse';
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
  /** Decisions that may wait for a thread (default 8 per thread); past that, think() refuses at once. */
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
  private readonly pool: Piscina<ThinkTask | ReviewTask, Decision | Review>;
  private readonly capacity: number;
  /** Decisions running or waiting: counted here so that the bound holds the moment think() is called. */
  private outstanding = 0;

  constructor({ threads = 1, maxQueue = 8 * threads }: BotPoolOptions = {}) {
    this.capacity = threads + maxQueue;
    const { filename, execArgv } = workerFile();
    // No thread until the first decision: a server without "vs computer" matches keeps its memory (docs/LOAD.md).
    this.pool = new Piscina({ filename, execArgv, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  }

  /** One decision for the seat that owns `view`; rejects with BotQueueFull when the queue is full. */
  think = (view: WatergateView, config: BotConfig = {}): Promise<Decision> => this.run({ view, config }) as Promise<Decision>;

  /** One decision of a finished game judged (bots/analyse.ts), under the same bound. */
  review = (view: WatergateView, played: MoveChoice, config: BotConfig = {}): Promise<Review> => this.run({ view, played, config }, 'reviewTask') as Promise<Review>;

  private async run(task: ThinkTask | ReviewTask, name?: string): Promise<Decision | Review> {
    if (this.outstanding >= this.capacity) throw new BotQueueFull(this.outstanding);
    this.outstanding++;
    try {
      return await this.pool.run(task, name ? { name } : undefined);
    } finally {
      this.outstanding--;
    }
  }

  /** Decisions running or waiting for a free thread. */
  get queued(): number {
    return this.outstanding;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
