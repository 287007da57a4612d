/**
 * The tutorial's first game, fixed in advance: boardgame.io's seed (so every shuffle and draw is the same
 * each time), every decision of round 1 for both seats, and the steps that explain them. The player (the
 * Editor) makes her moves on the board, one suggested move at a time; the computer's (Nixon's) answers are
 * replayed from this list, so no bot's change of mind can skip a step.
 *
 * Nixon's moves are what our bot chose at level easy for this seed (bots/levels.ts, `deterministic`, seed 1)
 * when the list was made, with the Editor's moves below. test/client/tutorial.test.ts replays the list
 * through the game's reducer and checks that every step's situation arises where the step says.
 */
import type { MoveChoice, PlayerID } from '../../game';

export const TUTORIAL_SEED = 'tutorial-20';

export interface ScriptedMove {
  player: PlayerID;
  move: MoveChoice;
}

const editor = (move: MoveChoice['move'], arg: unknown): ScriptedMove => ({ player: '0', move: { move, args: [arg] } as MoveChoice });
const nixon = (move: MoveChoice['move'], arg: unknown): ScriptedMove => ({ player: '1', move: { move, args: [arg] } as MoveChoice });

/** Every decision of round 1 in order; the n-th move leads to boardgame.io's state n+1 (`_stateID`). */
export const SCRIPT: readonly ScriptedMove[] = [
  editor('play', { card: 'E23', as: 'value', target: { kind: 'momentum' } }),
  nixon('play', { card: 'N01', as: 'value', target: { kind: 'evidence', token: 'T12' } }),
  editor('react', 'E42'),
  nixon('react', null),
  editor('play', { card: 'E41', as: 'value', target: { kind: 'ask', colour: 'yellow' } }),
  nixon('play', { card: 'N16', as: 'action' }),
  editor('play', { card: 'E27', as: 'action' }),
  nixon('react', null),
  nixon('play', { card: 'N07', as: 'action' }),
  nixon('choose', { split: [{ token: 'T22', steps: 3 }, { token: 'T28', steps: 1 }] }),
  editor('play', { card: 'E29', as: 'value', target: { kind: 'evidence', token: 'T28' } }),
  editor('pin', { token: 'T28', space: 'A1' }),
  nixon('play', { card: 'N09', as: 'value', target: { kind: 'momentum' } }),
  nixon('pin', { token: 'T22', space: 'B14' }),
  editor('pin', { token: 'T12', space: 'A3' }),
];

export type StepId = 'welcome' | 'value' | 'reaction' | 'ask' | 'event' | 'pin' | 'assessment' | 'informants' | 'win' | 'done';

export interface TutorialStep {
  id: StepId;
  /** The step starts once this many scripted moves have been made. */
  at: number;
  /** A step with nothing to play: the player reads it and presses "Next". */
  read?: true;
}

/** In order; a step lasts until the next one starts (read steps: until "Next"). */
export const STEPS: readonly TutorialStep[] = [
  { id: 'welcome', at: 0, read: true },
  { id: 'value', at: 0 },
  { id: 'reaction', at: 2 },
  { id: 'ask', at: 4 },
  { id: 'event', at: 6 },
  { id: 'pin', at: 10 },
  { id: 'assessment', at: 12 },
  { id: 'informants', at: SCRIPT.length, read: true },
  { id: 'win', at: SCRIPT.length, read: true },
  { id: 'done', at: SCRIPT.length },
];

/**
 * The step shown after `made` scripted moves, with `read` read steps already dismissed: the last step
 * that has started, except that a read step waits for its "Next" before the ones after it.
 */
export function stepAt(made: number, read: number): number {
  let shown = 0;
  let dismissed = 0;
  for (let i = 0; i < STEPS.length; i++) {
    if (STEPS[i].at > made) break;
    shown = i;
    if (STEPS[i].read) {
      if (dismissed === read) break;
      dismissed++;
    }
  }
  return shown;
}

/** The player's move the tutorial waits for after `made` moves, or null (the computer's turn, or the end). */
export const expectedMove = (made: number): MoveChoice | null => (SCRIPT[made]?.player === '0' ? SCRIPT[made].move : null);
