/**
 * What boardgame.io 0.50.2's Debug panel (local mode) needs to be trusted, through its public hooks only:
 *
 * - The game its AI tab sees (`client.game`) gets an `ai.enumerate` of its own (`enumerate` below): the legal moves of the
 *   player the game waits for (G.prompt), each already addressed to that player, none once the game is
 *   over, so "play" and "simulate" never send a move the reducer refuses, and a run stops at the end.
 * - One run at a time: the panel's "simulate" is a loop that plays, waits 100 ms and plays again; a second
 *   press starts a second loop on the same board. The enumerate call that starts a search sees the live
 *   state (it is the store's own object): within 90 ms of the last change it offers nothing, the panel's
 *   step finds no move, and that loop ends (a single loop always waits 100 ms after its own move). The
 *   seat our own bot plays (vs bot) is left to it, and a run that handed the game to the bot ends there,
 *   even if the bot answered before the run's next step.
 * - A press (play, step or simulate) made while a search is under way waits for that search's move, says so
 *   (`onQueued`, shown by the page), then takes over from the board that move left: the run under way
 *   ends there (its next step, due about 100 ms after its move, finds the new search under way and stops).
 * - The runner learns of changes through `attach`, which the page calls from the client's one subscription
 *   (GameClient's onUpdate), and holds no subscription of its own: boardgame.io 0.50.2 numbers a client's
 *   subscribers by how many there are (`Object.keys(subscribers).length`), so when one that is not the last
 *   unsubscribes, the next subscriber takes the number of one still there and replaces it. With a second
 *   subscription here, the board's own was replaced whenever GameClient subscribed again (React's
 *   StrictMode mounts effects twice under `npm run dev`; in any mode, changing "Showing the board of"):
 *   the panel then moved a board nobody drew.
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

/**
 * What the local page sets the panel's AI tab sliders to: a move well within a second (in Chromium, 0.30 s
 * median and 0.53 s p95 from the key press to the board; the stock 1,000 and 50 took 9 s); docs/BOTS.md
 * "MCTSBot time per decision", tools/bench-mcts-time.ts.
 */
export const PANEL_SETTINGS = { iterations: 50, playoutDepth: 20 } as const;

const SLICE_MS = 8;
const yieldToPage = () => new Promise<void>((r) => setTimeout(r, 0));
/** A single simulate loop always waits 100 ms between its move and its next search. */
const SECOND_LOOP_MS = 90;
/** A run's next step comes about 100 ms after its move; a person's next press, later than this. */
const RUN_STEP_MS = 2000;

type Action = { type: 'MAKE_MOVE'; payload: { type: string; args: unknown[]; playerID: PlayerID } };

export interface DebugRunner {
  /** The local game's ai.enumerate. */
  enumerate(G: WatergateState, ctx: Ctx, playerID: string): Action[];
  /** The client whose store is the live state: called with each of its updates (idempotent per state). */
  attach(client: GameClientInstance): void;
}

/** How the panel's bot searches: one at a time, a press during a search waiting for it (see the top). */
type Searcher = <T extends { action?: unknown }>(pressed: State, search: (from: State) => Promise<T>) => Promise<T | { action: undefined; metadata: undefined }>;
const runners = new WeakMap<DebugRunner['enumerate'], Searcher>();

/**
 * `botSeat`: the seat our own bot plays, if any. `onQueued(true)` when a press waits for the search
 * under way, `onQueued(false)` when none waits any more.
 */
export function debugRunner(botSeat: () => PlayerID | null, onQueued: (waiting: boolean) => void = () => undefined): DebugRunner {
  let client: GameClientInstance | null = null;
  let seen: unknown = null; // the store state of the last update observed
  let live: unknown = null; // the store state a search is under way for
  let changedAt = 0;
  // Against our bot a run ends when it hands the game to the bot, even when the bot answers before the
  // run's next step (100 ms after its move): that step finds the bot has decided since and stops.
  let panelMovedAt = -Infinity;
  let botDecided = false;
  let deciding: PlayerID | null = null;
  // The search under way, how many presses wait for it, and when the search under way took over from a
  // run whose next step may still come (that step is refused: one run at a time).
  let searching: Promise<unknown> | null = null;
  let waiting = 0;
  let tookOverAt = -Infinity;
  const enumerate = (G: WatergateState, ctx: Ctx): Action[] => {
    const waitingFor = G.prompt?.player;
    if (!waitingFor || G.winner !== null || ctx.gameover !== undefined) return [];
    const now = client?.store.getState();
    if (now && G === now.G) {
      // A search starts from the board as it is: one at a time, never for the bot's seat.
      const t = performance.now();
      if (live === now || t - changedAt < SECOND_LOOP_MS || waitingFor === botSeat() || (botDecided && t - panelMovedAt < RUN_STEP_MS)) return [];
      live = now;
    }
    return legalMoves(G, waitingFor).map((m) => ({ type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: waitingFor } }));
  };
  const observe = (state: unknown) => {
    if (state === seen) return;
    seen = state;
    if (state === live) return;
    const t = performance.now();
    // The change that ends a search is the panel's own move; a change from the bot's turn is the bot's.
    if (live !== null) {
      panelMovedAt = t;
      botDecided = false;
    } else if (deciding !== null && deciding === botSeat()) botDecided = true;
    deciding = ((state as State | null)?.G as WatergateState | undefined)?.prompt?.player ?? null;
    live = null;
    changedAt = t;
  };
  const none = { action: undefined, metadata: undefined };
  const search: Searcher = async (pressed, run) => {
    // boardgame.io's Step reads the state from the store it will dispatch to: a step on a store that is
    // no longer the board's (a run left running in a match "New game" replaced) ends its run.
    const board = client;
    if (!board || pressed !== board.store.getState()) return none;
    if (searching) {
      if (performance.now() - tookOverAt < RUN_STEP_MS) {
        // The next step of the run this search took over from: that run ends here.
        tookOverAt = -Infinity;
        return none;
      }
      waiting++;
      onQueued(true);
      // boardgame.io's Step dispatches the move as soon as the search answers: one task later it is on the board.
      while (searching) await searching.then(yieldToPage, yieldToPage);
      if (--waiting === 0) onQueued(false);
      changedAt = -Infinity; // a press, not a second loop's step: it may search right after a move
      if (client !== board) return none;
      tookOverAt = performance.now();
    }
    const p = run(board.store.getState());
    searching = p;
    try {
      return await p;
    } finally {
      if (searching === p) {
        searching = null;
        tookOverAt = -Infinity;
      }
    }
  };
  runners.set(enumerate, search);
  return {
    enumerate,
    attach(c) {
      if (client !== c) {
        client = c;
        seen = null;
        deciding = (c.store.getState()?.G as WatergateState | undefined)?.prompt?.player ?? null;
      }
      observe(c.store.getState());
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
/** The player a state waits for, as boardgame.io's Step picks it. */
const mover = (s: State) => (s.ctx.activePlayers ? Object.keys(s.ctx.activePlayers)[0] : s.ctx.currentPlayer);

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
      const moves = this.enumerate(s.G, ctx, mover(s));
      const objectives = this.objectives(s.G, ctx, mover(s));
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
/** Gives the panel's MCTSBot (and only it: bots built with a runner's enumerate) the sliced search, one at a time. */
export function installSlicedSearch(): void {
  if (installed) return;
  installed = true;
  MCTSBot.prototype.play = function play(this: MCTSBot, state: State, playerID: string) {
    const self = this as unknown as Search;
    const search = runners.get(self.enumerateFn as DebugRunner['enumerate']);
    if (!search) return stockPlay.call(this, state, playerID);
    // A search that waited starts from the board as it is then, not from the one it was pressed on.
    return search(state, (from) => slicedPlay.call(self, from, from === state ? playerID : mover(from))) as ReturnType<typeof stockPlay>;
  };
}
