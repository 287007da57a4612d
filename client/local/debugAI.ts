/**
 * What boardgame.io 0.50.2's Debug panel (local mode) needs to be trusted, through its public hooks only:
 *
 * - The game its AI tab sees (`client.game`) gets an `ai.enumerate` of its own (`enumerate` below): the legal moves of the
 *   player the game waits for (G.prompt), each already addressed to that player, none once the game is
 *   over, so "play" and "simulate" never send a move the reducer refuses, and a run stops at the end.
 * - One run at a time: the panel's "simulate" is a loop that plays, waits 100 ms and plays again; a second
 *   press starts a second loop on the same board. The enumerate call that starts a search sees the live
 *   state (it is the store's own object): while a search for it is under way, or within 90 ms of the last
 *   change, it offers nothing, the panel's step finds no move, and that loop ends (a single loop always
 *   waits 100 ms after its own move). The seat our own bot plays (vs bot) is left to it, and a run that
 *   handed the game to the bot ends there, even if the bot answered before the run's next step.
 * - The panel builds the stock MCTSBot itself (its bots are fixed inside it), whose async mode runs 25
 *   iterations between yields: about half a second of Watergate moves on a slow machine. For the panel's
 *   bots only (recognised by this enumerate), `play` is replaced at run time, not in node_modules, by the
 *   same search (its playouts included) in slices of about 8 ms, so the page keeps answering. Its
 *   positions are computed with the server's transition (game/advance.ts: the engine's check, then the
 *   state boardgame.io's reducer would give, which test/game/advance.test.ts holds it to) instead of the
 *   reducer's Immer drafts: one step of a playout through the reducer could block the page for 100 ms and
 *   more on a busy 2-core machine, a step through advance takes a fifth of that. The move the search
 *   picks is dispatched to the page's own store, through the reducer, as before.
 */
import { MCTSBot } from 'boardgame.io/ai';
import type { Ctx, State } from 'boardgame.io';
import { advanceMove, legalMoves, type PlayerID, type WatergateState } from '../../game';
import type { GameClientInstance } from '../net/GameClient';

const SLICE_MS = 8;
/** A single simulate loop always waits 100 ms between its move and its next search. */
const SECOND_LOOP_MS = 90;
/** A run's next step comes about 100 ms after its move; a person's next press, later than this. */
const RUN_STEP_MS = 2000;

type Action = { type: 'MAKE_MOVE'; payload: { type: string; args: unknown[]; playerID: PlayerID } };

export interface DebugRunner {
  /** The local game's ai.enumerate. */
  enumerate(G: WatergateState, ctx: Ctx, playerID: string): Action[];
  /** The client whose store is the live state (called with each update; idempotent). */
  attach(client: GameClientInstance): void;
}

const runners = new WeakSet<DebugRunner['enumerate']>();

export function debugRunner(botSeat: () => PlayerID | null): DebugRunner {
  let client: GameClientInstance | null = null;
  let unsubscribe: (() => void) | null = null;
  let live: unknown = null; // the store state a search is under way for
  let changedAt = 0;
  // Against our bot a run ends when it hands the game to the bot, even when the bot answers before the
  // run's next step (100 ms after its move): that step finds the bot has decided since and stops.
  let panelMovedAt = -Infinity;
  let botDecided = false;
  let deciding: PlayerID | null = null;
  const enumerate = (G: WatergateState, ctx: Ctx): Action[] => {
    const waiting = G.prompt?.player;
    if (!waiting || G.winner !== null || ctx.gameover !== undefined) return [];
    const now = client?.store.getState();
    if (now && G === now.G) {
      // A search starts from the board as it is: one at a time, never for the bot's seat.
      const t = performance.now();
      if (live === now || t - changedAt < SECOND_LOOP_MS || waiting === botSeat() || (botDecided && t - panelMovedAt < RUN_STEP_MS)) return [];
      live = now;
    }
    return legalMoves(G, waiting).map((m) => ({ type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: waiting } }));
  };
  runners.add(enumerate);
  return {
    enumerate,
    attach(c) {
      if (client === c) return;
      unsubscribe?.();
      client = c;
      deciding = (c.store.getState()?.G as WatergateState | undefined)?.prompt?.player ?? null;
      unsubscribe = c.subscribe(() => {
        const state = c.store.getState();
        if (state === live) return;
        const t = performance.now();
        // The change that ends a search is the panel's own move; a change from the bot's turn is the bot's.
        if (live !== null) {
          panelMovedAt = t;
          botDecided = false;
        } else if (deciding !== null && deciding === botSeat()) botDecided = true;
        deciding = (state?.G as WatergateState | undefined)?.prompt?.player ?? null;
        live = null;
        changedAt = t;
      });
    },
  };
}

interface Node {
  actions: unknown[];
  children: Node[];
  visits: number;
  parentAction?: unknown;
}
type Objectives = Record<string, { checker: (G: unknown, ctx: Ctx) => boolean; weight: number }>;
interface Search {
  enumerateFn: unknown;
  iterations?: unknown;
  iterationCounter: number;
  reducer(state: State, action: unknown): State;
  enumerate(G: unknown, ctx: Ctx, playerID: string): unknown[];
  objectives(G: unknown, ctx: Ctx, playerID: string): Objectives;
  random(n: number): number;
  iterationCallback(a: { iterationCounter: number; numIterations: number; metadata: Node }): void;
  getOpt(key: string): number;
  createNode(a: { state: State; playerID: string }): Node;
  select(n: Node): Node;
  expand(n: Node): Node;
  backpropagate(n: Node, r: unknown): void;
}

const stockPlay = MCTSBot.prototype.play;
const yieldToPage = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * The search's transition: a move the engine finds legal goes through advance; anything else (no such
 * move here: the search only tries what enumerate offered) through the reducer, as stock.
 */
const fastSearches = new WeakSet<Search>();
function useAdvance(search: Search): void {
  if (fastSearches.has(search)) return;
  fastSearches.add(search);
  const reducer = search.reducer;
  search.reducer = (state, action) => {
    const a = action as Action;
    if (a?.type === 'MAKE_MOVE' && state.ctx.gameover === undefined) {
      const moved = advanceMove(state as State<WatergateState>, a.payload.playerID, a.payload.type, a.payload.args[0]);
      if (!('error' in moved)) return moved.state;
    }
    return reducer(state, action);
  };
}

/**
 * The stock search, iteration for iteration and move for move, yielding to the page every SLICE_MS: a
 * playout of 20 moves can itself take longer than a slice on a busy machine, so the
 * stock playout (objectives, then a random move of the player the game waits for) is walked here too.
 */
async function slicedPlay(this: Search, state: State, playerID: string) {
  useAdvance(this);
  const root = this.createNode({ state, playerID });
  if (root.actions.length === 0) return { action: undefined, metadata: root };
  const numIterations = this.getOpt('iterations');
  const depth = this.getOpt('playoutDepth');
  let sliceEnd = performance.now() + SLICE_MS;
  const breathe = async () => {
    if (performance.now() < sliceEnd) return;
    this.iterationCallback({ iterationCounter: this.iterationCounter, numIterations, metadata: root });
    await yieldToPage();
    sliceEnd = performance.now() + SLICE_MS;
  };
  const playout = async (node: Node & { state: State }) => {
    let s = node.state;
    for (let i = 0; i < depth && s.ctx.gameover === undefined; i++) {
      await breathe();
      const ctx = s.ctx as Ctx;
      const mover = ctx.activePlayers ? Object.keys(ctx.activePlayers)[0] : ctx.currentPlayer;
      const moves = this.enumerate(s.G, ctx, mover);
      const objectives = this.objectives(s.G, ctx, mover);
      const score = Object.values(objectives).reduce((n, o) => (o.checker(s.G, ctx) ? n + o.weight : n), 0);
      if (score > 0) return { score };
      if (moves.length === 0) return undefined;
      s = this.reducer(s, moves[this.random(moves.length)]);
    }
    return s.ctx.gameover;
  };
  this.iterationCounter = 0;
  while (this.iterationCounter < numIterations) {
    await breathe();
    const child = this.expand(this.select(root)) as Node & { state: State };
    this.backpropagate(child, await playout(child));
    this.iterationCounter++;
  }
  this.iterationCallback({ iterationCounter: this.iterationCounter, numIterations, metadata: root });
  let best: Node | null = null;
  for (const c of root.children) if (!best || c.visits > best.visits) best = c;
  return { action: best?.parentAction, metadata: root };
}

let installed = false;
/** Gives the panel's MCTSBot (and only it: bots built with a runner's enumerate) the sliced search. */
export function installSlicedSearch(): void {
  if (installed) return;
  installed = true;
  MCTSBot.prototype.play = function play(this: MCTSBot, state: State, playerID: string) {
    const self = this as unknown as Search;
    if (!runners.has(self.enumerateFn as DebugRunner['enumerate'])) return stockPlay.call(this, state, playerID);
    return slicedPlay.call(self, state, playerID) as ReturnType<typeof stockPlay>;
  };
}
