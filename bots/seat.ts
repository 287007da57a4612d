/**
 * A bot seat in an online match: it plays through boardgame.io's socket client with the seat's
 * credentials, exactly as a human's browser does (same authentication, same server checks, same
 * player view). The search runs in a worker (pool.ts), so the server's event loop is never blocked.
 */
import { Client } from 'boardgame.io/client';
import { SocketIO } from 'boardgame.io/multiplayer';
import type { Game } from 'boardgame.io';
import { Watergate, type PlayerID, type WatergateView } from '../game';
import type { Thinker } from './bgio';
import type { BotConfig } from './levels';
import { think } from './levels';

export interface SeatOptions {
  /** The server's base URL, e.g. http://127.0.0.1:8000. */
  server: string;
  matchID: string;
  playerID: PlayerID;
  credentials: string;
  config?: BotConfig;
  /** Where decisions are computed (default: this thread; the server passes a BotPool's think). */
  thinker?: Thinker;
  onError?: (e: unknown) => void;
}

export interface SeatHandle {
  /** Resolves with the winner when the match is over (null if stopped before). */
  finished: Promise<PlayerID | null>;
  stop(): void;
}

/** A move the server ignored (refused or lost) leaves the state unchanged: think again after this long. */
const RETRY_MS = 15_000;

export function playSeat({ server, matchID, playerID, credentials, config = {}, thinker = think, onError }: SeatOptions): SeatHandle {
  const client = Client({ game: Watergate as Game, numPlayers: 2, multiplayer: SocketIO({ server }), matchID, playerID, credentials, debug: false });
  let thinkingOn: number | null = null; // the _stateID a decision is being computed for
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let settle: (w: PlayerID | null) => void = () => {};
  const finished = new Promise<PlayerID | null>((resolve) => (settle = resolve));

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(retry);
    unsubscribe();
    client.stop();
    settle(null);
  };

  const step = () => {
    const state = client.getState();
    if (stopped || !state) return;
    if (state.ctx.gameover !== undefined) {
      const winner = (state.ctx.gameover as { winner?: PlayerID }).winner ?? null;
      stopped = true;
      clearTimeout(retry);
      unsubscribe();
      client.stop();
      settle(winner);
      return;
    }
    if (!state.isConnected || !state.isActive || thinkingOn === state._stateID) return;
    const view = state.G as unknown as WatergateView;
    if (view.prompt?.player !== playerID) return;
    thinkingOn = state._stateID;
    Promise.resolve(thinker(view, config))
      .then((d) => {
        // Still the same decision? (a resync or a stale state may have moved the game on meanwhile)
        if (stopped || client.getState()?._stateID !== thinkingOn) return;
        (client.moves as Record<string, (arg: unknown) => void>)[d.move.move](d.move.args[0]);
        const sentOn = thinkingOn;
        clearTimeout(retry);
        retry = setTimeout(() => {
          if (!stopped && client.getState()?._stateID === sentOn) {
            thinkingOn = null;
            step();
          }
        }, RETRY_MS);
        retry.unref?.();
      })
      .catch((e) => {
        thinkingOn = null; // let the next update retry
        onError?.(e);
      });
  };

  const unsubscribe = client.subscribe(step);
  client.start();
  return { finished, stop };
}
