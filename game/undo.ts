/**
 * Take-backs that cannot cheat, decided by the engine from its own information state. A player may take
 * back their own most recent decisions while
 *
 * (a) the other player has not decided since (against the computer, its replies are taken back too,
 *     unless one of them drew or shuffled, or showed the taker something neither seat knew),
 * (b) none of them drew, shuffled or revealed anything the taker did not know before: the taker's
 *     secrets (`secretsOf`: what `hide` keeps from the taker's view) are all still secret afterwards, and
 *     the PRNG data is unchanged — so a position taken back holds nothing the taker learned on the way,
 *     and nobody can re-roll chance;
 * (c) the match allows it (the `takeBacks` setting; the server's to read).
 *
 * A take-back moves the match back to the earlier position as a new state (ids only grow: boardgame.io's
 * client ignores an update with a lower `_stateID`): stored and replayed as an `undo` row naming the state
 * it returns to (`undoAction`), which `replayStep` turns back into that state.
 */
import type { State } from 'boardgame.io';
import { advance, type MoveAction } from './advance';
import { eachSecret, secretsOf } from './infostate';
import type { PlayArgs, PlayerID, Prompt, WatergateState } from './types';

/** The move type of a take-back in stored moves and replays (never a move a client may send). */
export const UNDO_MOVE = 'undo';

/**
 * Why a take-back is refused, as the engine sees it: `none` nothing of the taker's to take back;
 * `unknown` the history this memory holds does not reach back far enough (the server reloads it);
 * `opponent` the other player decided since; `auto` the computer decided for the taker's own seat since
 * (a stand-in, a clock); `ask` an ask was answered (it tells the Editor about Nixon's face-down tokens);
 * `hidden` a decision drew, shuffled or revealed something the taker did not know; `chance` one of the
 * computer's replies drew or shuffled.
 */
export type UndoRefusal = 'none' | 'unknown' | 'opponent' | 'auto' | 'ask' | 'hidden' | 'chance';

const isAsk = (arg: unknown): boolean => (arg as Partial<PlayArgs> | null)?.target?.kind === 'ask';

/**
 * Every kind of decision (game/decisions.ts), and whether a decision of that kind may ever be taken
 * back: null when it may — if, like any decision, it drew, shuffled and revealed nothing (`sealedBy`) —
 * or the reason it never may. A play naming a colour for an ask is never taken back: whatever the
 * answer (a token moved, Nixon asked to choose, or "none"), the Editor has learned about the face-down
 * tokens, even when no id came to light.
 */
export const TAKE_BACK_KINDS: { readonly [K in Prompt['kind']]: (arg: unknown) => 'ask' | null } = {
  play: (arg) => (isAsk(arg) ? 'ask' : null),
  playDrawn: (arg) => (isAsk(arg) ? 'ask' : null),
  // Nixon knows every face-down token: answering reveals nothing to Nixon.
  answer: () => null,
  target: () => null,
  react: () => null,
  // A choice that turns a face-down token up or keeps drawn tokens is judged by what it did (sealedBy).
  choose: () => null,
  pin: () => null,
};

/** A decision on the way to a position: who made it, the move and its argument, and whether the server made it for the seat. */
export interface Decider {
  playerID: PlayerID;
  move: string;
  arg: unknown;
  /** The server decided for the seat (the computer standing in, a clock): not its player's decision. */
  auto: boolean;
}

/** One position of a match's line of play and the decision that led to it from the one before. */
export interface LineStep {
  state: State<WatergateState>;
  /** Null for the first position known (the start of the game, or of the history held). */
  by: Decider | null;
}

/**
 * The positions of the current line of play, oldest first: `steps[0]` is where the known history starts
 * (`origin`: the game's first position, with nothing before it).
 */
export interface Line {
  origin: boolean;
  steps: LineStep[];
}

const randomOf = (s: State): unknown => (s.plugins as { random?: { data?: unknown } }).random?.data ?? null;
/**
 * Whether the PRNG data of two states differ (a state that drew nothing keeps its predecessor's object:
 * game/advance.ts, game/random.ts).
 */
export const drewBetween = (a: State, b: State): boolean => randomOf(a) !== randomOf(b) && JSON.stringify(randomOf(a)) !== JSON.stringify(randomOf(b));

/**
 * Whether going from `before` to `after` drew, shuffled or revealed anything for `seat`: `shuffled` if
 * the PRNG moved on (a shuffle, a draw from the bag), `revealed` if something hidden from the seat
 * before is not hidden from it after (a card drawn, a token turned up or drawn); null if neither.
 */
export function sealedBy(before: State<WatergateState>, after: State<WatergateState>, seat: PlayerID): 'shuffled' | 'revealed' | null {
  if (drewBetween(before, after)) return 'shuffled';
  const still = secretsOf(after.G, seat);
  let revealed = false;
  eachSecret(before.G, seat, (id) => (revealed ||= !still.has(id)));
  return revealed ? 'revealed' : null;
}

/** Whether something hidden from both seats before (a deck, the bag) is not hidden from `seat` after. */
function drawnFor(before: State<WatergateState>, after: State<WatergateState>, seat: PlayerID, otherSeat: PlayerID): boolean {
  const theirs = secretsOf(before.G, otherSeat);
  const still = secretsOf(after.G, seat);
  let drawn = false;
  eachSecret(before.G, seat, (id) => (drawn ||= theirs.has(id) && !still.has(id)));
  return drawn;
}

/** Why the taker's own decision (from `before` to `after`) may not be taken back, or null. */
function ownRefusal(before: State<WatergateState>, after: State<WatergateState>, by: Decider): 'ask' | 'hidden' | null {
  const kind = before.G.prompt?.kind;
  if (kind && TAKE_BACK_KINDS[kind](by.arg)) return 'ask';
  return sealedBy(before, after, by.playerID) ? 'hidden' : null;
}

/**
 * What `taker` may take back now: the index in `line.steps` of the position to return to — just before
 * the taker's most recent decision, and, against the computer (`computer`: its seat), before the
 * computer's replies since — or why not. One take-back returns one decision of the taker's; asked again,
 * the one before it, and so on while (a) and (b) hold.
 */
export function undoPlan(line: Line, taker: PlayerID, computer: PlayerID | null): { to: number } | { why: UndoRefusal } {
  const { steps } = line;
  for (let i = steps.length - 1; i > 0; i--) {
    const by = steps[i].by;
    if (!by) break;
    const before = steps[i - 1].state;
    const after = steps[i].state;
    if (by.playerID === computer && computer !== taker) {
      // The computer's reply: taken back with the taker's decision, unless it drew or shuffled (nobody
      // re-rolls chance) or showed the taker something neither seat knew. The card it played and its
      // own secrets the taker has seen, as the rules accept; what it learned it forgets (it thinks from
      // its seat's view of the current state only).
      if (sealedBy(before, after, computer)) return { why: 'chance' };
      if (drawnFor(before, after, taker, computer)) return { why: 'hidden' };
      continue;
    }
    if (by.playerID !== taker) return { why: 'opponent' };
    if (by.auto) return { why: 'auto' };
    const why = ownRefusal(before, after, by);
    return why ? { why } : { to: i - 1 };
  }
  return { why: line.origin ? 'none' : 'unknown' };
}

/** The earlier position `target` as the match's next state (state ids only grow). */
export const restoredAs = (target: State<WatergateState>, stateID: number): State<WatergateState> => ({ ...target, _stateID: stateID });

/** The stored record of a take-back by `playerID` back to state `to` (a move row, a replay's move). */
export const undoAction = (playerID: PlayerID, to: number): MoveAction => ({ type: 'MAKE_MOVE', payload: { type: UNDO_MOVE, args: [{ to }], playerID } });

/** The state a take-back returns to, or null if the action is not a take-back. */
export function undoTarget(action: MoveAction): number | null {
  if (action.payload.type !== UNDO_MOVE) return null;
  const to = (action.payload.args?.[0] as { to?: unknown } | undefined)?.to;
  if (!Number.isInteger(to)) throw new Error('a take-back that names no earlier state');
  return to as number;
}

/**
 * The state after one stored move: the game's transition, or for a take-back the earlier state it names
 * (`earlier` finds it among the states of the line so far) as the next state id.
 */
export function replayStep(state: State<WatergateState>, action: MoveAction, earlier: (stateID: number) => State<WatergateState> | undefined): State<WatergateState> {
  const to = undoTarget(action);
  if (to === null) return advance(state, action).state;
  const target = earlier(to);
  if (!target) throw new MissingStateError(to);
  return restoredAs(target, state._stateID + 1);
}

/** A take-back names a state the replay does not hold (the replay began after it). */
export class MissingStateError extends Error {
  constructor(readonly stateID: number) {
    super(`a take-back returns to state ${stateID}, which this replay does not hold`);
  }
}
