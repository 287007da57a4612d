/**
 * How a match moves on: the state after a move the engine has found legal, as boardgame.io's reducer
 * makes it for this game — the engine's own change to G, then boardgame.io's ctx, PRNG data, log entries
 * and state id — without running the reducer (its Immer drafts, plugins and event queue are most of a
 * move's cost on the server: docs/LOAD.md). The server's moves, a process catching up with stored moves,
 * and the replay page all go through here; local play (hotseat, bots, the Debug panel) runs the same
 * engine through boardgame.io's reducer, and test/game/advance.test.ts holds the two to the same states
 * over whole games.
 *
 * boardgame.io's ctx follows the engine, never the other way round: its phase is G.phase, its turn the
 * engine's turn (G.turnPlayer, a new one whenever G.turnSeq changes), and its only active player the one
 * the prompt names, in the stage of the move that answers (`activePlayersFor`, also what the Game's
 * hooks set in game/index.ts).
 */
import type { Ctx, LogEntry, State } from 'boardgame.io';
import { applyChecked, legalOption, MOVE_FOR_PROMPT } from './engine';
import { copy } from './plain';
import { randomFrom, type RandomData } from './random';
import { gameoverOf, isOver } from './track';
import type { PlayerID, Prompt, WatergateState } from './types';

/** A move as boardgame.io's clients send it and the server stores it (never with credentials). */
export interface MoveAction {
  type: 'MAKE_MOVE';
  payload: { type: string; args: unknown[]; playerID: string };
}

/** The moves whose arguments boardgame.io leaves out of the log others see (a choice may name a private draw). */
export const REDACTED_MOVES: readonly string[] = ['choose'];

/** boardgame.io's active players while the engine waits on `prompt`: that player alone, in its move's stage. */
export const activePlayersFor = (prompt: Prompt): Record<string, string> => ({ [prompt.player]: MOVE_FOR_PROMPT[prompt.kind] });

/** boardgame.io's record of a flow event (its gameEvent action creator's shape). */
const flowEntry = (type: 'endTurn' | 'endPhase', at: { _stateID: number; turn: number; phase: string }, extra: { args?: true; automatic?: true } = {}): LogEntry =>
  ({
    action: { type: 'GAME_EVENT', payload: { type, args: extra.args, playerID: undefined, credentials: undefined } },
    ...at,
    ...(extra.automatic ? { automatic: true } : {}),
  }) as unknown as LogEntry;

/** What boardgame.io's setActivePlayers leaves in ctx for one player in one stage. */
function activate(ctx: Ctx, prompt: Prompt): Ctx {
  // boardgame.io's Ctx type leaves out the nulls its own setActivePlayers writes.
  return {
    ...(ctx as object),
    activePlayers: activePlayersFor(prompt),
    _activePlayersMinMoves: null,
    _activePlayersMaxMoves: null,
    _activePlayersNumMoves: { [prompt.player]: 0 },
    _prevActivePlayers: [],
    _nextActivePlayers: null,
  } as unknown as Ctx;
}

/**
 * `next` (a fresh copy, changed in place here) with every part that equals `prev`'s part replaced by
 * `prev`'s own object, as boardgame.io's Immer drafts leave a state: consecutive states share what did not
 * change, so a player's view of the next state shares it too, and the patch between two views
 * (protocol/json-patch.ts) skips it at once.
 */
function share<T>(prev: T, next: T): T {
  if (prev === next || typeof prev !== 'object' || prev === null || typeof next !== 'object' || next === null) return next;
  // The engine may put the rules' own constants (a card's step) into the state: compared, never written.
  const writable = !Object.isFrozen(next);
  let same = true;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    const common = Math.min(prev.length, next.length);
    for (let i = 0; i < common; i++) {
      const was: unknown = prev[i];
      const now: unknown = next[i];
      const v = was === now ? was : share(was, now);
      if (v !== was) same = false;
      else if (writable && v !== now) next[i] = v;
    }
    return same && prev.length === next.length ? prev : next;
  }
  if (Array.isArray(prev)) return next;
  // Counted with `for…in` (plain data, own keys only): no key arrays made at every level.
  const from = prev as Record<string, unknown>;
  const into = next as Record<string, unknown>;
  let keys = 0;
  for (const k in into) {
    keys++;
    const was = from[k];
    const now = into[k];
    if (was === undefined && !(k in from)) same = false;
    else {
      const v = was === now ? was : share(was, now);
      if (v !== was) same = false;
      else if (writable && v !== now) into[k] = v;
    }
  }
  if (!same) return next;
  for (const _ in from) keys--;
  return keys === 0 ? prev : next;
}

/**
 * The state after `action`, which the engine has checked (the option `legalOption` returned, by a player
 * it allows). `state` is left as it was: the next state shares its unchanged parts (the record's past
 * lines) and copies the rest.
 */
export function advance(state: State<WatergateState>, action: MoveAction): { state: State<WatergateState>; deltalog: LogEntry[] } {
  const { type, args, playerID } = action.payload;
  const p = playerID as PlayerID;
  const before = state.G;
  if (state.ctx.gameover !== undefined || isOver(before)) throw new Error('the game is over');
  // A fresh copy to change in place, but the record's past lines, which no move rewrites. (Object rest
  // syntax, `{ log, ...rest }`, copies through a slow path: a loop over the keys is several times quicker.)
  const work = {} as Record<string, unknown>;
  for (const k of Object.keys(before)) work[k] = k === 'log' ? before.log.slice() : copy((before as unknown as Record<string, unknown>)[k]);
  const random = randomFrom(state.plugins.random.data as RandomData);
  applyChecked(work as unknown as WatergateState, p, type, args[0], random.rng);
  const G = share(before, work as unknown as WatergateState);

  const c = state.ctx;
  const at = { _stateID: state._stateID, turn: c.turn, phase: c.phase };
  const deltalog: LogEntry[] = [{ action, ...at, ...(REDACTED_MOVES.includes(type) ? { redact: true } : {}) } as LogEntry];
  // The move counts for the player who made it (a resignation made while the other player decides is
  // nobody's stage move: it only ends the game).
  const counted = c.activePlayers !== null && p in c.activePlayers;
  let ctx: Ctx = {
    ...c,
    numMoves: (c.numMoves ?? 0) + (p === c.currentPlayer ? 1 : 0),
    _activePlayersNumMoves: counted ? { ...c._activePlayersNumMoves, [p]: (c._activePlayersNumMoves?.[p] ?? 0) + 1 } : c._activePlayersNumMoves,
  };
  const gameover = gameoverOf(G);
  if (gameover !== undefined) {
    // The game's endIf: boardgame.io closes the phase (its turn stays as it was) and records the result.
    deltalog.push(flowEntry('endPhase', at));
    ctx = { ...ctx, phase: null as unknown as string, gameover };
  } else {
    const prompt = G.prompt;
    if (!prompt) throw new Error('the engine waits for nothing and the game is not over');
    const phaseEnds = G.phase !== c.phase;
    if (phaseEnds || G.turnSeq !== before.turnSeq) {
      // A phase ends (its endIf), or the engine began a new turn (the move's endTurn): either way
      // boardgame.io ends the turn, starts the next one with the engine's turn player, and the turn's
      // onBegin activates whoever the prompt names.
      deltalog.push(flowEntry('endTurn', at, phaseEnds ? { automatic: true } : {}));
      if (phaseEnds) deltalog.push(flowEntry('endPhase', at, { args: true, automatic: true }));
      const playOrderPos = c.playOrder.indexOf(G.turnPlayer);
      ctx = activate({ ...ctx, phase: G.phase, turn: c.turn + 1, numMoves: 0, currentPlayer: G.turnPlayer, playOrderPos, ...(phaseEnds ? { playOrder: [...c.playOrder] } : {}) }, prompt);
    } else {
      const now = activePlayersFor(prompt);
      const same = c.activePlayers && Object.keys(c.activePlayers).length === 1 && c.activePlayers[prompt.player] === now[prompt.player];
      if (!same) ctx = activate(ctx, prompt);
    }
  }
  // A state fresh from boardgame.io's InitializeGame carries the log of its setup: not part of the next one.
  const next = {} as Record<string, unknown>;
  for (const k of Object.keys(state)) if (k !== 'deltalog') next[k] = (state as unknown as Record<string, unknown>)[k];
  Object.assign(next, { G, ctx, plugins: { ...state.plugins, random: { data: random.data() } }, _stateID: state._stateID + 1 });
  return { state: next as unknown as State<WatergateState>, deltalog };
}

/**
 * A move as a player sends it, asked of the engine once and applied: the action as it is stored and
 * sent (the engine's own option, never the sender's object) with the next state, or why it is refused.
 */
export function advanceMove(state: State<WatergateState>, playerID: PlayerID, type: string, arg: unknown): { action: MoveAction; state: State<WatergateState>; deltalog: LogEntry[] } | { error: string } {
  const legal = legalOption(state.G, playerID, type, arg);
  if ('error' in legal) return legal;
  const action: MoveAction = { type: 'MAKE_MOVE', payload: { type, args: [legal.arg], playerID } };
  return { action, ...advance(state, action) };
}
