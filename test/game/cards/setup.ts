/**
 * Small helpers shared by the card tests: turns set up for one side, the bag narrowed so a draw is known,
 * and the arguments of the legal moves (what the board would offer).
 */
import { afterEach, expect } from 'vitest';
import { E, N, Scenario } from '../../helpers/scenario';
import { expectAccounted } from '../../helpers/invariants';
import type { CardId, PlayerID, Prompt, TokenId } from '../../../game/types';

export { E, N, Scenario };

/**
 * Nixon to play on his `turn`-th turn of round 1 (2 by default, so A brilliant mood's NOT_FIRST_TURN holds).
 * The Editor holds `editor`: with no card he gets no reaction window and his turns are skipped.
 */
export function nixonTurn(hand: CardId[], editor: CardId[] = [], turn = 2): Scenario {
  return made(new Scenario(1).hand(N, hand).hand(E, editor).turn(N, turn).track([]));
}

/** The Editor to play on his first turn of round 1; Nixon holds `nixon` (no card: no reaction window). */
export function editorTurn(hand: CardId[], nixon: CardId[] = []): Scenario {
  return made(new Scenario(1).hand(E, hand).hand(N, nixon).turn(E, 1).track([]));
}

/** Every scenario of a test is checked after it: all 40 cards, 36 tokens and 9 momentum tokens accounted for. */
const scenarios: Scenario[] = [];
const made = (s: Scenario): Scenario => (scenarios.push(s), s);
afterEach(() => {
  for (const s of scenarios.splice(0)) expectAccounted(s.G);
});

/** The momentum token was gained by p earlier this round: off the track, on p's momentum card. */
export function momentumGained(s: Scenario, p: PlayerID): Scenario {
  s.G.track.momentum = null;
  s.G.momentum.cards[p]++;
  return s;
}

/**
 * Leaves only `ids` in the bag so that a draw is known: the other bag tokens are set aside (as if removed
 * from the game), so every token stays accounted for.
 */
export function bagOnly(s: Scenario, ids: TokenId[]): Scenario {
  const G = s.G;
  for (const id of ids) if (!G.bag.includes(id)) throw new Error(`${id} is not in the bag`);
  G.removedTokens.push(...G.bag.filter((id) => !ids.includes(id)));
  G.bag = [...ids];
  return s;
}

/** The arguments of p's legal moves of one kind. */
export function offered(s: Scenario, p: PlayerID, move = 'choose'): unknown[] {
  return s.legal(p).filter((m) => m.move === move).map((m) => m.args[0]);
}

/** The action plays p is offered now. */
export function actionsOffered(s: Scenario, p: PlayerID): CardId[] {
  return s
    .legal(p)
    .filter((m) => m.move === 'play' && (m.args[0] as { as: string }).as === 'action')
    .map((m) => (m.args[0] as { card: CardId }).card);
}

/** Asserts the prompt's kind and player, and any other fields given (partially: `step: { op }` is enough). */
export function expectPrompt(s: Scenario, prompt: { kind: Prompt['kind']; player: PlayerID } & Record<string, unknown>): void {
  expect(s.G.prompt).toMatchObject(prompt);
}

/** Where a card is now. */
export function whereIs(s: Scenario, card: CardId): string {
  const G = s.G;
  for (const p of [E, N])
    for (const [name, pile] of [
      ['hand', G.hands[p]],
      ['deck', G.decks[p]],
      ['discard', G.discards[p]],
      ['removed', G.removed[p]],
    ] as const)
      if (pile.includes(card)) return name;
  if (G.resolving.includes(card)) return 'resolving';
  if (G.drawnCard?.card === card) return 'drawn';
  return 'nowhere';
}
