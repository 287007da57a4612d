/** Tests drive the pure engine with the bots' seeded PRNG (boardgame.io's own PRNG drives real matches). */
import { newGame, type MoveChoice, type PlayerID, type SetupData, type WatergateState } from '../../game';
import { botRng } from '../../bots/index';
import { engineDriver, playout, playToEnd, randomChooser } from '../../tools/playout';

export { botRng as seeded };

export interface Decision {
  /** The live state: it changes after the consumer's turn, so copy what must be kept. */
  G: WatergateState;
  player: PlayerID;
  /** Every legal move of `player`; one of them is then played at random. */
  moves: MoveChoice[];
}

/**
 * The decisions of one seeded game of random legal moves on the pure engine, each yielded before its
 * move is made, until the game ends or `maxMoves` moves have been made. Every move must be accepted.
 */
export function* randomDecisions(seed: number, maxMoves = 400): Generator<Decision, WatergateState> {
  const rng = botRng(seed);
  const it = playout(engineDriver(rng), newGame({}, rng), randomChooser(rng), { maxMoves });
  for (let r = it.next(); ; r = it.next()) {
    if (r.done) return r.value;
    yield { G: r.value.state, player: r.value.player, moves: r.value.moves };
  }
}

/** One seeded game of random legal moves to its end, calling `after` after each move. */
export function randomGame(seed: number, { after, setup }: { after?: (G: WatergateState) => void; setup?: SetupData } = {}): WatergateState {
  const rng = botRng(seed);
  return playToEnd(engineDriver(rng), newGame(setup, rng), randomChooser(rng), {}, after && ((G) => after(G))).state;
}
