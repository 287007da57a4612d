/**
 * Bot decisions off the main thread on the server: a Piscina pool of Node worker threads, so a search
 * never blocks other matches' sockets. Only a seat's view crosses to the worker.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { WatergateView } from '../game';
import type { Decision } from './ismcts';
import type { BotConfig } from './levels';
import type { ThinkTask } from './worker';

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
}

export class BotPool {
  private readonly pool: Piscina<ThinkTask, Decision>;

  constructor({ threads = 1 }: BotPoolOptions = {}) {
    const { filename, execArgv } = workerFile();
    // No thread until the first decision: a server without "vs computer" matches keeps its memory (docs/LOAD.md).
    this.pool = new Piscina({ filename, execArgv, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  }

  /** One decision for the seat that owns `view`. */
  think = (view: WatergateView, config: BotConfig = {}): Promise<Decision> => this.pool.run({ view, config });

  /** Decisions waiting for a free thread. */
  get queued(): number {
    return this.pool.queueSize;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
