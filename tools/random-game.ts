/**
 * One game of boardgame.io's RandomBot against itself, run straight through boardgame.io's reducer
 * (no client, no network): the fastest faithful way to play the real Game object headless.
 */
import { CreateGameReducer, InitializeGame, ProcessGameConfig } from 'boardgame.io/internal';
import { RandomBot } from 'boardgame.io/ai';
import { Watergate } from '../game/index';
import type { SetupData, WatergateState } from '../game/types';

export interface RandomGameResult {
  winner: '0' | '1' | null;
  reason: string | null;
  rounds: number;
  moves: number;
  /** K14: the rules have no round cap; a game reaching the limit is reported as aborted, never as a result. */
  aborted: boolean;
}

const game = ProcessGameConfig({ ...Watergate });
const reducer = CreateGameReducer({ game });

export async function playRandomGame(seed: string, opts: { roundLimit?: number; setupData?: SetupData } = {}): Promise<RandomGameResult> {
  const roundLimit = opts.roundLimit ?? 100;
  let state = InitializeGame({ game: { ...game, seed }, numPlayers: 2, setupData: opts.setupData });
  const bot = new RandomBot({ enumerate: Watergate.ai!.enumerate, seed: `bot-${seed}` });
  let moves = 0;
  while (!state.ctx.gameover && (state.G as WatergateState).round <= roundLimit) {
    const playerID = Object.keys(state.ctx.activePlayers ?? { [state.ctx.currentPlayer]: null })[0];
    const { action } = await bot.play(state, playerID);
    const next = reducer(state, action as never);
    if (next === state || next._stateID === state._stateID) throw new Error(`refused ${JSON.stringify(action)}`);
    state = next;
    moves++;
  }
  const G = state.G as WatergateState;
  const over = state.ctx.gameover as { winner: '0' | '1'; reason: string } | undefined;
  return { winner: over?.winner ?? null, reason: over?.reason ?? null, rounds: G.round, moves, aborted: !over };
}
