/**
 * Headless matches between boardgame.io Bot classes through boardgame.io's own reducer (what a server
 * runs): each bot gets the master's state and answers with an action, exactly as in `Local({ bots })`.
 * Used by the benchmark and the tests. Also the entry of the engines by name (engines.ts: each a
 * function of a seat's view and its legal ids) and of fair MCTS (fair-mcts.ts), for tools/arena/ and
 * tools/bot/.
 */
import type { Bot } from 'boardgame.io/ai';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import type { Game, State } from 'boardgame.io';
import { Watergate, type EndReason, type PlayerID, type WatergateState } from '../game';

export type BotClass = new (args: { game: Game; enumerate: NonNullable<Game['ai']>['enumerate']; seed?: string | number }) => Bot;

export interface MatchResult {
  winner: PlayerID | null;
  reason: EndReason | null;
  rounds: number;
  moves: number;
  /** Hit the round limit (K14): reported as aborted, never as a result. */
  aborted: boolean;
}

export interface MatchOptions {
  seats: Record<PlayerID, BotClass>;
  /** The match's PRNG seed (shuffles, draws). */
  seed: string;
  maxRounds?: number;
  /** Called after each bot decision with its think time (ms) and metadata. */
  onDecision?: (seat: PlayerID, ms: number, metadata: unknown) => void;
}

export async function playMatch({ seats, seed, maxRounds = 60, onDecision }: MatchOptions): Promise<MatchResult> {
  const game = { ...Watergate, seed } as Game;
  const reducer = CreateGameReducer({ game });
  let state = InitializeGame({ game, numPlayers: 2 }) as State<WatergateState>;
  const bots = {
    '0': new seats['0']({ game, enumerate: game.ai!.enumerate, seed: `${seed}/0` }),
    '1': new seats['1']({ game, enumerate: game.ai!.enumerate, seed: `${seed}/1` }),
  };
  let moves = 0;
  while (state.ctx.gameover === undefined && state.G.round <= maxRounds) {
    const seat = state.G.prompt!.player; // the player the engine waits for (boardgame.io's stages follow it)
    const t0 = performance.now();
    const { action, metadata } = await bots[seat].play(state, seat);
    onDecision?.(seat, performance.now() - t0, metadata);
    const next = reducer(state, action as never) as State<WatergateState>;
    if (next._stateID === state._stateID) throw new Error(`the ${seat === '0' ? 'Editor' : 'Nixon'} bot made an illegal move: ${JSON.stringify(action)}`);
    state = next;
    moves++;
  }
  const over = state.ctx.gameover as { winner?: PlayerID; reason?: EndReason } | undefined;
  return { winner: over?.winner ?? null, reason: over?.reason ?? null, rounds: state.G.round, moves, aborted: over === undefined };
}

// Engines by name and duplicate-ready games between them, for the arena (tools/arena/) and the bot kit (tools/bot/).
export { engine, engineError, playDeal, type Decide, type DealResult } from './engines';
export { fairMCTS, fairMCTSBot, FAIR_MCTS_DEFAULTS, type FairMCTSConfig, type FairDecision } from './fair-mcts';
