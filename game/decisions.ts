/**
 * Every decision the game can wait for, as one table — the shape of the primitives' `{options, check,
 * apply}` (primitives.ts) repeated for the prompts: for each prompt kind, the move that answers it, its
 * legal arguments (legalMoves, ai.enumerate, the board's choices), why an argument is refused (checkMove,
 * the server's refusals) and what it does (applyMove). A new kind of prompt is one entry here.
 * test/game/decisions.test.ts checks over random games that `check` passes exactly for the `options`.
 */
import { CARDS } from './cards';
import { applyChoice, checkChoice, stepOptions } from './primitives';
import { actionBlocked, answerAsk, checkAnswer, checkPlay, checkReact, checkTarget, fallbackTargets, legalReactions, placeValue, play, playableCards, react, valueTargets } from './play';
import { checkPin, pinChosen } from './flow';
import { pinSpaces } from './pinning';
import { faceDownOnTrack, matchesColour } from './track';
import { other } from './state';
import type { ChoiceArgs, MoveChoice, PlayArgs, PlayerID, Prompt, Rng, TokenId, ValueTarget, WatergateState } from './types';

type Kind = Prompt['kind'];
type PromptOf<K extends Kind> = Extract<Prompt, { kind: K }>;

export interface Decision<K extends Kind> {
  /** The move (and boardgame.io stage) that answers this prompt. */
  move: MoveChoice['move'];
  /** Every legal argument. */
  options(G: WatergateState, p: PlayerID, pr: PromptOf<K>): unknown[];
  /** Why this argument is refused, or null. Changes nothing. */
  check(G: WatergateState, p: PlayerID, pr: PromptOf<K>, arg: unknown): string | null;
  /** Plays a checked argument (the engine then runs whatever it set going). */
  apply(G: WatergateState, p: PlayerID, pr: PromptOf<K>, arg: unknown, rng: Rng): void;
}

const playDecision = <K extends 'play' | 'playDrawn'>(drawn: boolean): Decision<K> => ({
  move: 'play',
  options(G, p) {
    const out: PlayArgs[] = [];
    for (const card of playableCards(G, p)) {
      const c = CARDS[card];
      for (const target of valueTargets(G, p, c)) out.push({ card, as: 'value', target });
      if (!actionBlocked(G, p, c)) out.push({ card, as: 'action' });
    }
    return out;
  },
  check: (G, p, _pr, arg) => checkPlay(G, p, arg),
  apply(G, p, _pr, arg) {
    const a = arg as PlayArgs;
    G.prompt = null;
    if (drawn) G.drawnCard = null;
    else {
      G.hands[p].splice(G.hands[p].indexOf(a.card), 1);
      G.tasks.push({ t: 'turn', player: other(p) }); // after this play and all it causes: the next turn
    }
    play(G, p, { card: a.card, as: a.as, target: a.target }, drawn);
  },
});

export const DECISIONS: { [K in Kind]: Decision<K> } = {
  play: playDecision(false),
  playDrawn: playDecision(true),
  answer: {
    move: 'answer',
    options: (G, _p, pr) => faceDownOnTrack(G).filter((t) => matchesColour(t.id, pr.colour)).map((t) => t.id),
    check: (G, _p, _pr, arg) => checkAnswer(G, arg),
    apply(G, _p, pr, arg) {
      G.prompt = null;
      answerAsk(G, pr.card, arg as TokenId);
    },
  },
  target: {
    move: 'target',
    options: (G, _p, pr) => fallbackTargets(G, pr.colour),
    check: (G, _p, _pr, arg) => checkTarget(G, arg),
    apply: (G, _p, _pr, arg) => placeValue(G, arg as ValueTarget),
  },
  react: {
    move: 'react',
    options: (G, p) => [null, ...legalReactions(G, p)],
    check: (G, p, _pr, arg) => checkReact(G, p, arg),
    apply: (G, p, _pr, arg) => react(G, p, arg as string | null),
  },
  choose: {
    move: 'choose',
    options: (G, p, pr) => stepOptions(G, p, pr.step),
    check: (G, p, pr, arg) => checkChoice(G, p, pr.step, arg, pr.card),
    apply(G, p, pr, arg, rng) {
      G.prompt = null;
      applyChoice(G, p, pr.step, arg as ChoiceArgs, pr.card, rng);
    },
  },
  pin: {
    move: 'pin',
    options: (G, _p, pr) => pr.tokens.flatMap((token) => pinSpaces(G, token).map((space) => ({ token, space }))),
    check: (G, _p, _pr, arg) => checkPin(G, arg),
    apply(G, p, _pr, arg) {
      const { token, space } = arg as { token: TokenId; space: string };
      pinChosen(G, p, token, space);
    },
  },
};

/** The decision table entry for the prompt the game waits on. */
export const decisionFor = <K extends Kind>(pr: PromptOf<K>): Decision<K> => DECISIONS[pr.kind as K];
