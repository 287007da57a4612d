/**
 * The bots as boardgame.io Bot classes, for `Local({ bots })`, `Simulate` and headless runs.
 * boardgame.io 0.50.2 constructs bots itself with only `{ game, enumerate, seed }` (Local, the Debug AI
 * tab), dropping iterations, playoutDepth and objectives, so every option is fixed by a subclass here.
 */
import { Bot, MCTSBot } from 'boardgame.io/ai';
import type { Ctx, Game, PlayerID as BgioPlayerID, State } from 'boardgame.io';
import { playerView, Watergate, type MoveChoice, type PlayerID, type WatergateState, type WatergateView } from '../game';
import { editorWinChance } from './evaluate';
import { think, type BotConfig } from './levels';
import type { Decision } from './ismcts';

type BotArgs = ConstructorParameters<typeof MCTSBot>[0];
type Action = Awaited<ReturnType<Bot['play']>>['action'];

/** The action boardgame.io's master expects for a move (what its Bot.enumerate builds). */
export function moveAction(m: MoveChoice, playerID: string): Action {
  return { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID } } as Action;
}

/** Where a decision is computed: in this thread, or a worker (pool.ts, browser.ts). Only a view goes in. */
export type Thinker = (view: WatergateView, config: BotConfig) => Decision | Promise<Decision>;

/**
 * Our bot as a boardgame.io Bot. boardgame.io hands bots the full state; this class turns it into the
 * seat's player view before anything else and passes on nothing but that view.
 */
export function watergateBot(config: BotConfig = {}, thinker: Thinker = think): new (args: BotArgs) => Bot {
  return class WatergateBot extends Bot {
    async play(state: State, playerID: BgioPlayerID) {
      const view = playerView(state.G as WatergateState, playerID);
      const decision = await thinker(view, config);
      return { action: moveAction(decision.move, playerID), metadata: { iterations: decision.iterations, elapsedMs: decision.elapsedMs, winChance: decision.winChance } };
    }
  };
}

export interface MCTSConfig {
  iterations?: number;
  /** Random moves per playout before the evaluation scores it (a round is about 15–30 moves). */
  playoutDepth?: number;
  /** Search until this many milliseconds have passed instead of counting iterations (benchmarks). */
  timeMs?: number;
  seed?: string | number;
}

/** boardgame.io's MCTS node, as far as the overrides below use it. */
interface MctsNode {
  state: State<WatergateState>;
  parent?: MctsNode;
  parentAction?: { payload: { playerID: string } };
  visits: number;
  value: number;
  children: MctsNode[];
}
interface MctsInternals {
  reducer: (s: State, a: unknown) => State<WatergateState>;
  createNode(a: { state: State; playerID?: string }): MctsNode & { actions: unknown[] };
  select(n: MctsNode): MctsNode;
  expand(n: MctsNode): MctsNode;
  iterationCounter: number;
}
type Outcome = { winner?: string; editor?: number };

/** Credits a playout's outcome to every node of the path, from the side of the player who moved into it. */
function backpropagate(node: MctsNode, result: Outcome = {}): void {
  for (let n: MctsNode | undefined = node; n; n = n.parent) {
    n.visits++;
    const mover = n.parentAction?.payload.playerID as PlayerID | undefined;
    if (!mover) continue;
    if (result.winner !== undefined) n.value += result.winner === mover ? 1 : 0;
    else if (result.editor !== undefined) n.value += mover === '0' ? result.editor : 1 - result.editor;
  }
}

/**
 * boardgame.io's MCTSBot with Watergate's settings fixed. Two corrections to the stock search:
 * - a playout stops at the end of the round (or after playoutDepth moves) and is scored by the same
 *   evaluation as our bot, instead of counting only the rare playouts that reach the game's end;
 * - that score is credited to each node from the side of the player who moved into it (the stock
 *   `objectives` add one score to every node of the path, whoever moved, which misleads a 2-player search).
 * It still searches the full state: it sees hands, decks, the bag and face-down tokens (it cheats).
 */
/**
 * The settings a developer gets without asking: `Local({ bots })` runs the bot on the page's main thread,
 * so a decision must come within a second. At these, 0.15 s of CPU median and 0.22 s p95 per decision
 * (the former 200 and 40: 0.46 s and 0.84 s); docs/BOTS.md "MCTSBot time per decision".
 */
export const MCTS_DEFAULTS = { iterations: 50, playoutDepth: 20 } as const;

export function watergateMCTSBot(config: MCTSConfig = {}): new (args: BotArgs) => MCTSBot {
  const iterations = config.iterations ?? MCTS_DEFAULTS.iterations;
  const playoutDepth = config.playoutDepth ?? MCTS_DEFAULTS.playoutDepth;
  return class WatergateMCTSBot extends MCTSBot {
    constructor(args: BotArgs) {
      super({ ...args, game: args.game ?? (Watergate as Game), seed: config.seed ?? args.seed, iterations, playoutDepth });
      // MCTSBot declares backpropagate private: replace it on the instance (the stock play() calls this.backpropagate).
      (this as unknown as { backpropagate: typeof backpropagate }).backpropagate = backpropagate;
    }

    playout({ state }: { state: State<WatergateState> }): Outcome {
      const self = this as unknown as MctsInternals;
      const round = state.G.round;
      for (let i = 0; i < playoutDepth && state.ctx.gameover === undefined && state.G.round === round; i++) {
        const ctx = state.ctx as Ctx;
        const playerID = ctx.activePlayers ? Object.keys(ctx.activePlayers)[0] : ctx.currentPlayer;
        const moves = this.enumerate(state.G, ctx, playerID);
        if (moves.length === 0) break;
        state = self.reducer(state, moves[this.random(moves.length)]);
      }
      if (state.ctx.gameover !== undefined) return { winner: (state.ctx.gameover as { winner?: string }).winner };
      return { editor: editorWinChance(state.G) };
    }

    play(state: State, playerID: BgioPlayerID): ReturnType<MCTSBot['play']> {
      if (config.timeMs === undefined) return super.play(state, playerID);
      // A time budget (what the benchmark compares at equal think time).
      const self = this as unknown as MctsInternals;
      const root = self.createNode({ state, playerID });
      if (root.actions.length === 1) return Promise.resolve({ action: root.actions[0], metadata: root } as unknown as Awaited<ReturnType<MCTSBot['play']>>);
      const deadline = performance.now() + config.timeMs;
      self.iterationCounter = 0;
      do {
        const leaf = self.expand(self.select(root));
        backpropagate(leaf, this.playout(leaf as MctsNode));
        self.iterationCounter++;
      } while (performance.now() < deadline);
      let best: MctsNode | null = null;
      for (const c of root.children) if (!best || c.visits > best.visits) best = c;
      return Promise.resolve({ action: best?.parentAction, metadata: root } as unknown as Awaited<ReturnType<MCTSBot['play']>>);
    }
  };
}
