/**
 * The rules as a pure state machine over plain data, independent of boardgame.io: create a game, ask
 * what a player may do, apply a move. Moves validate everything first and change nothing when illegal.
 * boardgame.io's Game (game/index.ts) and our bots are thin layers over this.
 */
import { checkAnswer, answerAsk, checkPlay, checkReact, checkTarget, placeValue, play, react } from './play';
import { checkPin, pinChosen, run } from './flow';
import { applyChoice, checkChoice } from './primitives';
import { initialState, optionsFrom, other } from './state';
import type { ChoiceArgs, MoveChoice, PlayArgs, PlayerID, Rng, SetupData, ValueTarget, WatergateState } from './types';

export type MoveName = MoveChoice['move'];
export const MOVE_NAMES: readonly MoveName[] = ['play', 'answer', 'target', 'react', 'choose', 'pin'];

/** Which move answers which prompt (also the boardgame.io stage names). */
export const MOVE_FOR_PROMPT = {
  play: 'play',
  playDrawn: 'play',
  answer: 'answer',
  target: 'target',
  react: 'react',
  choose: 'choose',
  pin: 'pin',
} as const satisfies Record<NonNullable<WatergateState['prompt']>['kind'], MoveName>;

/** R1–R7: a new game, already in round 1's cards phase, waiting for the Editor's first card. */
export function newGame(setupData: SetupData | undefined, rng: Rng): WatergateState {
  const G = initialState(optionsFrom(setupData), rng);
  run(G, rng);
  return G;
}

/** Why this move is illegal now, or null. Changes nothing. */
export function checkMove(G: WatergateState, p: PlayerID, move: string, arg: unknown): string | null {
  if (G.winner !== null) return 'the game is over';
  const pr = G.prompt;
  if (!pr) return 'nothing to decide';
  if (pr.player !== p) return 'it is not your decision';
  if (MOVE_FOR_PROMPT[pr.kind] !== move) return `the game waits for "${MOVE_FOR_PROMPT[pr.kind]}", not "${move}"`;
  switch (move) {
    case 'play':
      return checkPlay(G, p, arg);
    case 'answer':
      return checkAnswer(G, arg);
    case 'target':
      return checkTarget(G, arg);
    case 'react':
      return checkReact(G, p, arg);
    case 'choose':
      return pr.kind === 'choose' ? checkChoice(G, p, pr.step, arg, pr.card) : 'nothing to choose';
    case 'pin':
      return checkPin(G, arg);
    default:
      return `unknown move "${move}"`;
  }
}

/** Applies a move if legal; returns the error otherwise (and changes nothing). */
export function applyMove(G: WatergateState, p: PlayerID, move: string, arg: unknown, rng: Rng): string | null {
  const error = checkMove(G, p, move, arg);
  if (error) return error;
  const pr = G.prompt!;
  G.prompt = null;
  switch (move) {
    case 'play': {
      const a = arg as PlayArgs;
      const drawn = pr.kind === 'playDrawn';
      if (drawn) G.drawnCard = null;
      else {
        G.hands[p].splice(G.hands[p].indexOf(a.card), 1);
        G.tasks.push({ t: 'turn', player: other(p) }); // after this play and all it causes: the next turn
      }
      play(G, p, { card: a.card, as: a.as, target: a.target }, drawn);
      break;
    }
    case 'answer':
      answerAsk(G, (pr as { card: string }).card, arg as string);
      break;
    case 'target':
      G.prompt = pr;
      placeValue(G, arg as ValueTarget);
      break;
    case 'react':
      G.prompt = pr;
      react(G, p, arg as string | null);
      break;
    case 'choose': {
      const c = pr as Extract<typeof pr, { kind: 'choose' }>;
      applyChoice(G, p, c.step, arg as ChoiceArgs, c.card, rng);
      break;
    }
    case 'pin': {
      G.prompt = pr;
      const { token, space } = arg as { token: string; space: string };
      pinChosen(G, p, token, space);
      break;
    }
  }
  run(G, rng);
  return null;
}
