/**
 * "Play vs computer" for lobby matches. The server mounts one route through its `extend` seam:
 *
 *   POST /games/watergate/vs-computer  { botSeat?: "0"|"1" (default "1"), level?: "easy"|"normal"|"hard",
 *                                        setupData? }  →  { matchID, botSeat, humanSeat }
 *
 * The route creates an unlisted match and takes the bot's seat through the server's own Lobby API (the
 * same requests a browser makes, credentials included), then a bot seat (seat.ts) plays it over a socket.
 * The human joins the other seat with the ordinary join request.
 */
import type Router from '@koa/router';
import { randomInt } from 'node:crypto';
import koaBody from 'koa-body';
import { LobbyClient } from 'boardgame.io/client';
import type { PlayerID } from '../game';
import { isLevel, type Level } from './levels';
import type { Thinker } from './bgio';
import { playSeat, type SeatHandle } from './seat';

export interface BotSeatsOptions {
  /** Where decisions are computed: pass a BotPool's `think` on a server. */
  thinker: Thinker;
  onError?: (e: unknown, matchID: string) => void;
}

class BadRequest extends Error {
  status = 400;
  expose = true;
}

export class BotSeats {
  private url: string | null = null;
  private readonly seats = new Map<string, SeatHandle>();

  constructor(private readonly opts: BotSeatsOptions) {}

  /** Give to startServer as `extend`. */
  extend = ({ router }: { router: Router }): void => {
    router.post('/games/watergate/vs-computer', koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '4kb' }), async (ctx) => {
      const b = (ctx.request.body ?? {}) as Record<string, unknown>;
      if (typeof b !== 'object' || Array.isArray(b)) throw new BadRequest('body must be a JSON object');
      for (const k of Object.keys(b)) if (!['botSeat', 'level', 'setupData'].includes(k)) throw new BadRequest(`unknown field "${k}"`);
      const botSeat = b.botSeat ?? '1';
      if (botSeat !== '0' && botSeat !== '1') throw new BadRequest('botSeat must be "0" (Editor) or "1" (Nixon)');
      const level = b.level ?? 'normal';
      if (!isLevel(level)) throw new BadRequest('level must be "easy", "normal" or "hard"');
      const matchID = await this.start(botSeat, level, b.setupData);
      ctx.body = { matchID, botSeat, humanSeat: botSeat === '0' ? '1' : '0' };
    });
  };

  /** The server's own URL, once it listens. */
  attach(url: string): void {
    this.url = url;
  }

  /** Creates a match with a bot in `botSeat` and returns its id. */
  async start(botSeat: PlayerID, level: Level, setupData?: unknown): Promise<string> {
    if (!this.url) throw new Error('BotSeats.attach(url) was not called');
    const lobby = new LobbyClient({ server: this.url });
    const body: { numPlayers: number; unlisted: boolean; setupData?: unknown } = { numPlayers: 2, unlisted: true };
    if (setupData !== undefined) body.setupData = setupData;
    let matchID: string;
    try {
      ({ matchID } = await lobby.createMatch('watergate', body));
    } catch (e) {
      throw new BadRequest((e as { details?: { error?: string } }).details?.error ?? 'the match could not be created');
    }
    const { playerCredentials } = await lobby.joinMatch('watergate', matchID, { playerID: botSeat, playerName: `Computer (${level})` });
    const seat = playSeat({
      server: this.url,
      matchID,
      playerID: botSeat,
      credentials: playerCredentials,
      config: { level, seed: randomInt(2 ** 32) }, // varied play per match; the match's own PRNG is untouched
      thinker: this.opts.thinker,
      onError: (e) => this.opts.onError?.(e, matchID),
    });
    this.seats.set(matchID, seat);
    void seat.finished.then(() => this.seats.delete(matchID));
    return matchID;
  }

  /** Bot seats still playing. */
  get active(): number {
    return this.seats.size;
  }

  close(): void {
    for (const s of this.seats.values()) s.stop();
    this.seats.clear();
  }
}
