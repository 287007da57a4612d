/**
 * boardgame.io's MCTSBot made fair: it never searches the true state. From the seat's view alone it deals
 * `worlds` complete states consistent with that view (game/api.ts `resample`, the same sampler as our own
 * bot's), runs boardgame.io's own tree search (MCTSBot's select/expand/UCT, with bots/bgio.ts's playout
 * and per-mover credit) in each world with its share of the iterations, and plays the move with the most
 * visits summed over the worlds (determinized MCTS, "perfect-information Monte Carlo": simple, and it
 * cannot peek; it may still play as if it would learn the hidden cards later, which IS-MCTS, our own
 * bot, avoids). The legal moves come from the view, so they are the same in every world.
 *
 * `mcts[:iterations[:depth]]` in the arena and the bot kit; docs/BOTS.md "Fair MCTS".
 */
import type { Game, State } from 'boardgame.io';
import { InitializeGame } from 'boardgame.io/internal';
import { Bot } from 'boardgame.io/ai';
import { activePlayersFor, legalMovesOfView, playerView, Watergate, type MoveChoice, type WatergateState, type WatergateView } from '../game';
import { resample, seededRandom, type GameState } from '../game/api';
import { moveAction, watergateMCTSBot } from './bgio';

/**
 * The settings `mcts` gets without numbers: about half a second of one core a decision here, a second
 * at most on the loaded 2-core host (docs/BOTS.md "Fair MCTS", measured with tools/arena/time-mcts.ts).
 */
export const FAIR_MCTS_DEFAULTS = { iterations: 120, playoutDepth: 20, worlds: 4 } as const;

export interface FairMCTSConfig {
  iterations?: number;
  playoutDepth?: number;
  /** Worlds resampled per decision; the iterations are shared among them. */
  worlds?: number;
  seed?: string | number;
}

export interface FairDecision {
  move: MoveChoice;
  /** Visits per legal move, summed over the worlds, in the view's order of legal moves. */
  visits: number[];
  iterations: number;
}

let template: State<WatergateState> | null = null;

/** A boardgame.io state for a resampled world: its ctx follows the engine, as game/advance.ts keeps it. */
function bgioState(world: GameState): State<WatergateState> {
  template ??= InitializeGame({ game: Watergate as Game, numPlayers: 2 }) as State<WatergateState>;
  const G = world.G;
  const ctx = {
    ...template.ctx,
    phase: G.phase,
    currentPlayer: G.turnPlayer,
    playOrderPos: template.ctx.playOrder.indexOf(G.turnPlayer),
    activePlayers: G.prompt ? activePlayersFor(G.prompt) : null,
    _activePlayersNumMoves: G.prompt ? { [G.prompt.player]: 0 } : {},
  };
  return { ...template, G, ctx, plugins: { ...template.plugins, random: { data: world.random } }, deltalog: [] } as unknown as State<WatergateState>;
}

const keyOf = (m: MoveChoice) => JSON.stringify([m.move, m.args]);

/** One decision from a seat's view. Throws on anything that is not a seat's view (a full state has a bag). */
export async function fairMCTS(view: WatergateView, config: FairMCTSConfig = {}): Promise<FairDecision> {
  if ('bag' in view || 'decks' in view || view.viewer === null) throw new Error('fair MCTS takes a seat\'s view, never the full state');
  const seat = view.viewer;
  const legal = legalMovesOfView(view, seat);
  if (legal.length === 0) throw new Error('the view waits for no decision of its seat');
  const iterations = Math.max(1, config.iterations ?? FAIR_MCTS_DEFAULTS.iterations);
  const visits = legal.map(() => 0);
  if (legal.length === 1) return { move: legal[0], visits, iterations: 0 };
  const worlds = Math.max(1, Math.min(iterations, config.worlds ?? FAIR_MCTS_DEFAULTS.worlds));
  const index = new Map(legal.map((m, i) => [keyOf(m), i]));
  const seed = `${config.seed ?? 0}/${view.round}/${view.turnSeq}/${view.log.length}`;
  const random = seededRandom(seed);
  for (let w = 0; w < worlds; w++) {
    const share = Math.floor(iterations / worlds) + (w < iterations % worlds ? 1 : 0);
    const Bot = watergateMCTSBot({ iterations: share, playoutDepth: config.playoutDepth ?? FAIR_MCTS_DEFAULTS.playoutDepth, seed: `${seed}/${w}` });
    const bot = new Bot({ game: Watergate as Game, enumerate: Watergate.ai!.enumerate });
    const { metadata } = (await bot.play(bgioState(resample(view, random)), seat)) as unknown as { metadata: { children: { visits: number; parentAction: { payload: { type: string; args: unknown[] } } }[] } };
    for (const c of metadata.children) {
      const i = index.get(keyOf({ move: c.parentAction.payload.type, args: c.parentAction.payload.args } as MoveChoice));
      if (i !== undefined) visits[i] += c.visits;
    }
  }
  let best = 0;
  for (let i = 1; i < visits.length; i++) if (visits[i] > visits[best]) best = i;
  return { move: legal[best], visits, iterations };
}

/**
 * The fair search as a boardgame.io Bot, for `Local({ bots })` and `Simulate`: boardgame.io hands a bot
 * the full state; this one turns it into the seat's player view first and searches from that alone.
 */
export function fairMCTSBot(config: FairMCTSConfig = {}): new (args: ConstructorParameters<typeof Bot>[0]) => Bot {
  return class FairMCTSBot extends Bot {
    async play(state: State, playerID: string) {
      const decision = await fairMCTS(playerView(state.G as WatergateState, playerID), config);
      return { action: moveAction(decision.move, playerID), metadata: decision };
    }
  };
}
