/**
 * A served match's recent line of play (game/undo.ts `Line`): the positions since the last point nothing
 * before could ever be taken back, with the decision that led to each and the clock as that decision
 * found it (docs/ARCHITECTURE.md "Take-backs"). Kept beside the state in memory, fed by every move saved
 * here and every move replayed from storage; a take-back cuts it back to the position it returns to.
 *
 * It stays short: a position reached by a draw from the PRNG (every round's deal, a private draw from
 * the bag) closes everything before it for both seats (the walk refuses there), so the line keeps only
 * the position before that one; and never more than MAX_STEPS.
 */
import type { State } from 'boardgame.io';
import { type PlayerID, type WatergateState } from '../../game/index';
import { drewBetween, undoTarget, type Decider, type Line, type LineStep } from '../../game/undo';
import type { MatchClock } from '../../protocol/index';
import type { MoveRow } from '../storage/types';

const MAX_STEPS = 64;

export interface PlayStep extends LineStep {
  /** The match's clock as the decision that led here found it (null: untimed, or not known). */
  clock: MatchClock | null;
}

export class PlayLine implements Line {
  steps: PlayStep[];
  /** See game/undo.ts Line: nothing before steps[0] can be taken back (the game's start, or a draw). */
  origin: boolean;
  /** A reload of the whole history from storage is under way (the line did not reach back far enough). */
  rebuilding = false;

  constructor(start: State, origin: boolean) {
    this.steps = [{ state: start as State<WatergateState>, by: null, clock: null }];
    this.origin = origin;
  }

  get head(): State<WatergateState> {
    return this.steps[this.steps.length - 1].state;
  }

  /** The position with this state id on the line, if the line holds it. */
  find(stateID: number): State<WatergateState> | undefined {
    for (let i = this.steps.length - 1; i >= 0; i--) if (this.steps[i].state._stateID === stateID) return this.steps[i].state;
    return undefined;
  }

  /** A state that `row` produced from the head (a move, or a take-back: the line is cut back to it). */
  push(state: State, row: Pick<MoveRow, 'action' | 'auto' | 'clock'>): void {
    const to = undoTarget(row.action);
    if (to !== null) return this.cut(to, state);
    const p = row.action.payload;
    const by: Decider = { playerID: p.playerID as PlayerID, move: p.type, arg: p.args?.[0], auto: row.auto === true };
    const before = this.head;
    this.steps.push({ state: state as State<WatergateState>, by, clock: row.clock ?? null });
    if (drewBetween(before, state)) {
      // Drawn from the PRNG: nobody may go back past this, so what lies before it is never needed.
      this.steps.splice(0, this.steps.length - 2);
      this.origin = true;
    } else if (this.steps.length > MAX_STEPS) {
      this.steps.splice(0, this.steps.length - MAX_STEPS);
      this.origin = false;
    }
  }

  /** A take-back to the position `to`: it is now the line's head, as `state` (its new id). */
  private cut(to: number, state: State): void {
    const i = this.steps.findIndex((s) => s.state._stateID === to);
    if (i < 0) {
      // Not held here (a line shorter than the take-back): what came before is unknown.
      this.steps = [{ state: state as State<WatergateState>, by: null, clock: null }];
      this.origin = false;
      return;
    }
    this.steps.splice(i + 1);
    this.steps[i] = { ...this.steps[i], state: state as State<WatergateState> };
  }
}
