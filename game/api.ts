/**
 * The game interface for bot authors, shaped like OpenSpiel's (open_spiel/spiel.h): a state made from a
 * seed, integer actions, a seat's view and information state, states resampled from a view, returns.
 * Pure functions over plain data, free of boardgame.io: the rules are the engine's (game/engine.ts), the
 * randomness boardgame.io's own PRNG (game/random.ts), so `newState(seed)` deals what a match created
 * with that seed deals. docs/BOT-API.md "The game interface" is its reference; package.json exports it
 * as `watergate-online/game`.
 *
 *   let s = newState('deal-1');
 *   while (currentPlayer(s) !== null) s = apply(s, pick(legalActions(s, currentPlayer(s)!)));
 *   returns(s); // [1, 0]: the Editor won
 */
import alea from 'seedrandom/lib/alea.js';
import { actionOf, idOf } from './actions';
import { samplerFor } from './determinize';
import { applyChecked, legalOption, newGame } from './engine';
import { hide } from './infostate';
import { legalMoves, legalMovesOfView } from './legal';
import { copy } from './plain';
import { randomFrom, type RandomData } from './random';
import { isOver } from './track';
import type { MoveChoice, PlayerID, SetupData, WatergateState, WatergateView } from './types';

export { ACTION_IDS, actionOf, idOf, NUM_ACTIONS, SECTIONS, VALUE_TARGETS, CARD_ORDER, TOKEN_ORDER, HIDDEN_REFS } from './actions';
export { informationState, TENSOR_LAYOUT, TENSOR_SIZE } from './observation';
export type { MoveChoice, PlayerID, SetupData, WatergateState, WatergateView } from './types';

/**
 * A full game state: the rules' state and the PRNG's (boardgame.io's `plugins.random.data`), so every
 * future draw is fixed by the state. Plain JSON: it can be stored, sent and compared.
 */
export interface GameState {
  G: WatergateState;
  random: RandomData;
}

/** An action: an id of the table (game/actions.ts), or a move as the engine lists it. */
export type Action = number | { move: string; args?: unknown[] };

/** Refused by `apply`: `reason` is the engine's own words (the text a player would be shown). */
export class IllegalAction extends Error {
  constructor(readonly reason: string) {
    super(`illegal action: ${reason}`);
    this.name = 'IllegalAction';
  }
}

/** A new game dealt from `seed` (R1–R7), waiting for the Editor's first card. `setup`: the rules options. */
export function newState(seed: string | number, setup?: SetupData): GameState {
  const random = randomFrom({ seed });
  const G = newGame(setup, random.rng);
  return { G, random: random.data() };
}

/** The seat that decides now ("0" the Editor, "1" Nixon), or null when the game is over (OpenSpiel's CurrentPlayer). */
export const currentPlayer = (s: GameState): PlayerID | null => (isOver(s.G) ? null : (s.G.prompt?.player ?? null));

/** Whether the game has ended (a winner, or an end without one: `endReason` 'aborted'). */
export const isTerminal = (s: GameState): boolean => isOver(s.G);

function ids(moves: MoveChoice[]): number[] {
  return moves
    .map((m) => {
      const id = idOf(m);
      if (id === null) throw new Error(`the action table has no id for a legal move: ${JSON.stringify(m)}`);
      return id;
    })
    .sort((a, b) => a - b);
}

/** The seat's legal action ids, ascending; [] when the game does not wait for that seat. Resigning is always allowed and never listed. */
export const legalActions = (s: GameState, seat: PlayerID): number[] => ids(legalMoves(s.G, seat));

/**
 * The legal action ids of the view's own seat, from the view alone (what a bot holding only its view
 * needs): the engine lists a seat's moves from what that seat sees.
 */
export const legalActionsOfView = (v: WatergateView): number[] => (v.viewer === null ? [] : ids(legalMovesOfView(v, v.viewer)));

/**
 * The state after `action` by `seat` (by default the seat that decides now); `s` is left as it was.
 * Throws IllegalAction with the engine's reason when the action is not legal for that seat now.
 */
export function apply(s: GameState, action: Action, seat: PlayerID | null = currentPlayer(s)): GameState {
  const m = typeof action === 'number' ? actionOf(action) : action;
  if (!m || typeof m !== 'object' || typeof m.move !== 'string') throw new IllegalAction(`no action has the id ${String(action)}`);
  if (seat === null) throw new IllegalAction('the game is over');
  const legal = legalOption(s.G, seat, m.move, m.args?.[0]);
  if ('error' in legal) throw new IllegalAction(legal.error);
  const G = copy(s.G);
  const random = randomFrom(s.random);
  applyChecked(G, seat, m.move, legal.arg, random.rng);
  return { G, random: random.data() };
}

/** What `seat` sees of the state (boardgame.io's playerView); null: a spectator's view. */
export const view = (s: GameState, seat: PlayerID | null): WatergateView => hide(s.G, seat);

/**
 * A full state consistent with everything the view's seat knows (OpenSpiel's ResampleFromInfostate):
 * the hidden parts — the opponent's hand and deck, the own deck's order, the bag, privately drawn tokens,
 * face-down track tokens the seat cannot name — dealt at random among what the view leaves possible, and
 * a fresh PRNG (future draws are unknown too). `random` returns numbers in [0, 1), as Math.random does.
 * `view(resample(v, r), v.viewer)` equals `v`, up to the order of the face-down tokens it lists.
 */
export function resample(v: WatergateView, random: () => number): GameState {
  const int = (n: number) => Math.floor(random() * n);
  const rng = {
    shuffleInPlace<T>(a: T[]): T[] {
      for (let i = a.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
  };
  const G = samplerFor(v).sample(rng);
  return { G, random: { seed: `resampled-${int(2 ** 32).toString(36)}-${int(2 ** 32).toString(36)}` } };
}

/** A seeded source of numbers in [0, 1) for `resample` (the Alea generator boardgame.io draws with): the same seed, the same worlds. */
export const seededRandom = (seed: string | number): (() => number) => alea(String(seed));

/**
 * The payoff of each seat, [Editor, Nixon]: [1, 0] or [0, 1] for a game won, [0, 0] while it goes on and
 * for one that ended without a winner (aborted).
 */
export function returns(s: GameState): [number, number] {
  if (s.G.winner === '0') return [1, 0];
  if (s.G.winner === '1') return [0, 1];
  return [0, 0];
}
