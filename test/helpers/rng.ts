/** Tests drive the pure engine with the bots' seeded PRNG (boardgame.io's own PRNG drives real matches). */
import { applyMove, legalMoves, newGame, type MoveChoice, type PlayerID, type WatergateState } from '../../game';
import { botRng } from '../../bots/rng';

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
  const G = newGame({}, rng);
  for (let n = 0; n < maxMoves && G.winner === null && G.prompt; n++) {
    const player = G.prompt.player;
    const moves = legalMoves(G, player);
    yield { G, player, moves };
    const m = moves[rng.int(moves.length)];
    const refused = applyMove(G, player, m.move, m.args[0], rng);
    if (refused) throw new Error(`a legal move was refused: ${refused}`);
  }
  return G;
}

/** The end state of one such game. */
export function randomGame(seed: number, maxMoves = 400): WatergateState {
  const it = randomDecisions(seed, maxMoves);
  for (let r = it.next(); ; r = it.next()) if (r.done) return r.value;
}
