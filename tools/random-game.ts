/**
 * One game of boardgame.io's RandomBot against itself, run straight through boardgame.io's reducer
 * (no client, no network): the fastest faithful way to play the real Game object headless.
 */
import { RandomBot } from 'boardgame.io/ai';
import { Watergate } from '../game/index';
import { initialState, playToEnd, reducerDriver } from './playout';
import type { SetupData, WatergateState } from '../game/types';

export interface RandomGameResult {
  winner: '0' | '1' | null;
  reason: string | null;
  rounds: number;
  moves: number;
  /** K14: the rules have no round cap; a game reaching the limit is reported as aborted, never as a result. */
  aborted: boolean;
}

const driver = reducerDriver(Watergate as never);

export async function playRandomGame(seed: string, opts: { roundLimit?: number; setupData?: SetupData } = {}): Promise<RandomGameResult> {
  const bot = new RandomBot({ enumerate: Watergate.ai!.enumerate, seed: `bot-${seed}` });
  // RandomBot's own seeded choice among ai.enumerate's moves, as its play() makes it.
  const { state, moves } = playToEnd(driver, initialState(Watergate as never, seed, opts.setupData), (list) => bot.random(list), { maxRounds: opts.roundLimit ?? 100 });
  const G = state.G as WatergateState;
  const over = state.ctx.gameover as { winner: '0' | '1'; reason: string } | undefined;
  return { winner: over?.winner ?? null, reason: over?.reason ?? null, rounds: G.round, moves, aborted: !over };
}
