/**
 * The rules as a pure state machine over plain data, independent of boardgame.io: create a game, ask
 * what a player may do, apply a move. Moves validate everything first and change nothing when illegal.
 * boardgame.io's Game (game/index.ts) and our bots are thin layers over this.
 */
import { DECISIONS, decisionFor } from './decisions';
import { run } from './flow';
import { copy } from './plain';
import { initialState, optionsFrom, other } from './state';
import { abort, isOver, win } from './track';
import type { MoveChoice, PlayerID, Rng, SetupData, WatergateState } from './types';

export type MoveName = MoveChoice['move'];
export const MOVE_NAMES: readonly MoveName[] = ['play', 'answer', 'target', 'react', 'choose', 'pin', 'resign'];
/**
 * Moves only the server makes, never a player's choice (not in legalMoves, refused from any client): the
 * clock of the player who owes the decision ran out (the clock itself lives with the match on the server);
 * a seat lost by leaving the match or staying away past its limit (`forfeit`, its reason the argument);
 * the game stopped with no winner before both sides decided (`abort`, made for the side that had not).
 * When the server makes which is server/match/ending.ts's to say.
 */
export const SERVER_MOVES = ['timeout', 'forfeit', 'abort'] as const;
export const FORFEIT_REASONS = ['left', 'abandoned'] as const;
export type ForfeitReason = (typeof FORFEIT_REASONS)[number];
export type ServerMove = (typeof SERVER_MOVES)[number];

/** Which move answers which prompt (also the boardgame.io stage names). */
export const MOVE_FOR_PROMPT = Object.fromEntries(Object.entries(DECISIONS).map(([kind, d]) => [kind, d.move])) as Record<
  NonNullable<WatergateState['prompt']>['kind'],
  Exclude<MoveName, 'resign'>
>;

/** R1–R7: a new game, already in round 1's cards phase, waiting for the Editor's first card. */
export function newGame(setupData: SetupData | undefined, rng: Rng): WatergateState {
  const G = initialState(optionsFrom(setupData), rng);
  run(G, rng);
  return G;
}

/** Why this move is illegal now, or null. Changes nothing. */
export function checkMove(G: WatergateState, p: PlayerID, move: string, arg: unknown): string | null {
  if (isOver(G)) return 'the game is over';
  // Giving up is every seated player's right at any moment, whatever the game waits for (never a bot's option).
  if (move === 'resign') return p === '0' || p === '1' ? (arg === undefined || arg === null ? null : 'resign takes no argument') : 'only a seated player may resign';
  const pr = G.prompt;
  // Running out of time: only the player whose decision the game waits for (the server's clock says when).
  if (move === 'timeout') return pr?.player !== p ? 'only the player who owes the decision can run out of time' : arg === undefined || arg === null ? null : 'timeout takes no argument';
  if (move === 'forfeit') return p !== '0' && p !== '1' ? 'only a seated player can forfeit' : (FORFEIT_REASONS as readonly unknown[]).includes(arg) ? null : `forfeit takes one of ${FORFEIT_REASONS.join(', ')}`;
  if (move === 'abort') return p !== '0' && p !== '1' ? 'only a seat can be the one that had not decided' : arg === undefined || arg === null ? null : 'abort takes no argument';
  if (!pr) return 'nothing to decide';
  if (pr.player !== p) return 'it is not your decision';
  const d = decisionFor(pr);
  if (d.move !== move) return `the game waits for "${d.move}", not "${move}"`;
  return d.check(G, p, pr, arg);
}

/**
 * Whether `arg` is `option` as the rules read it: the same fields whatever order they were written in
 * (a field holding nothing counts as absent, as in JSON), tokens chosen together (`tokens`, `split`)
 * compared as sets, everything else equal. Compared in place, first differing field first: most options
 * differ from the argument in the card or the mode.
 */
function sameOption(option: unknown, arg: unknown, asSet = false): boolean {
  if (option === arg) return true;
  if (!option || !arg || typeof option !== 'object' || typeof arg !== 'object') return false;
  if (Array.isArray(option)) {
    if (!Array.isArray(arg) || arg.length !== option.length) return false;
    if (!asSet) return option.every((v, i) => sameOption(v, arg[i]));
    const used = option.map(() => false);
    return arg.every((v) => {
      const i = option.findIndex((o, j) => !used[j] && sameOption(o, v));
      return i >= 0 && (used[i] = true);
    });
  }
  if (Array.isArray(arg)) return false;
  const o = option as Record<string, unknown>;
  const a = arg as Record<string, unknown>;
  let fields = 0;
  for (const k in o) {
    if (o[k] === undefined) continue;
    fields++;
    if (!Object.hasOwn(a, k) || !sameOption(o[k], a[k], k === 'tokens' || k === 'split')) return false;
  }
  for (const k in a) if (a[k] !== undefined) fields--;
  return fields === 0;
}

/**
 * Which of the rules' own options this argument is: a copy of the engine's option (what the server
 * reduces, stores, logs, sends and replays — never the sender's object), or why it is refused. An
 * argument with anything the rules do not read (an extra field, a padded string) is refused, not
 * trimmed: what was sent is either exactly an option or not a move.
 */
export function legalOption(G: WatergateState, p: PlayerID, move: string, arg: unknown): { arg: unknown } | { error: string } {
  const why = checkMove(G, p, move, arg);
  if (why) return { error: why };
  if (move === 'resign' || move === 'timeout' || move === 'abort') return { arg: undefined };
  if (move === 'forfeit') return { arg: FORFEIT_REASONS.find((r) => r === arg) };
  const pr = G.prompt!;
  const options = decisionFor(pr).options(G, p, pr);
  const i = options.findIndex((o) => sameOption(o, arg));
  return i < 0 ? { error: `not one of the rules' options for "${move}" (only the fields the rules read may be sent)` } : { arg: copy(options[i]) };
}

/** Applies a move if legal; returns the error otherwise (and changes nothing). */
export function applyMove(G: WatergateState, p: PlayerID, move: string, arg: unknown, rng: Rng): string | null {
  const error = checkMove(G, p, move, arg);
  if (error) return error;
  applyChecked(G, p, move, arg, rng);
  return null;
}

/**
 * Applies a move the engine has already found legal (`legalOption`'s option, `checkMove` passed): the
 * rules are not asked a second time.
 */
export function applyChecked(G: WatergateState, p: PlayerID, move: string, arg: unknown, rng: Rng): void {
  if (move === 'resign' || move === 'timeout') return win(G, other(p), move === 'resign' ? 'resigned' : 'time');
  if (move === 'forfeit') return win(G, other(p), arg as ForfeitReason);
  if (move === 'abort') return abort(G, p);
  const pr = G.prompt!;
  decisionFor(pr).apply(G, p, pr, arg, rng);
  run(G, rng);
}
