/**
 * Everything the server needs for "vs computer" lobby matches, in one object:
 *
 *   const bots = createBotSeats({ threads: 1, log });
 *   const server = await startServer({ …, extend: bots.extend });
 *   bots.attach(server.url);
 *   …on shutdown: await bots.close();   // before server.close()
 */
import { BotSeats } from './lobby';
import { BotPool } from './pool';

export interface BotSeatsForServer {
  extend: BotSeats['extend'];
  attach(url: string): void;
  /** Bot seats still playing. */
  readonly active: number;
  close(): Promise<void>;
}

export function createBotSeats({ threads = 1, log }: { threads?: number; log?: { error(obj: object, msg: string): void } } = {}): BotSeatsForServer {
  const pool = new BotPool({ threads });
  const seats = new BotSeats({ thinker: pool.think, onError: (err, matchID) => log?.error({ err, matchID }, 'bot seat failed') });
  return {
    extend: seats.extend,
    attach: (url) => seats.attach(url),
    get active() {
      return seats.active;
    },
    async close() {
      seats.close();
      await pool.close();
    },
  };
}
