/**
 * The balance proposals `npm run bench:bots -- --variant NAME` measures (tools/balance-variants.ts): each
 * must change what the game does in the way its description says, and touch only components whose
 * provenance is not the rulebook. The variants patch the component modules, so this file (its own
 * module graph under vitest) checks the game before and after applying them.
 */
import { describe, expect, it } from 'vitest';
import { CARDS, MOMENTUM_CARDS } from '../game';
import { applyVariant, VARIANTS } from '../tools/balance-variants';
import { E, N, Scenario } from './helpers/scenario';

/** Judge John Sirica played for its value on the initiative, from the middle of the track. */
const siricaOnInitiative = () => {
  const s = new Scenario(301).markers(0, 0).hand(E, ['E38']).hand(N, ['N20']).turn(E);
  s.value(E, 'E38', { kind: 'initiative' });
  return s.G.track.initiative;
};

/** The Editor takes the round's momentum token at assessment step 3 (K10): his momentum space 1 acts at once. */
const editorFirstMomentum = () => {
  const s = new Scenario(302).track([{ id: 'T04', pos: -2 }]).markers(0, 2);
  s.endCards();
  expect(s.G.momentum.cards[E]).toBe(1);
  return s.G.prompt;
};

describe('balance proposals (bench:bots --variant)', () => {
  it('each proposal changes only components not printed in the rulebook', () => {
    expect(CARDS.E38.provenance.valueColour).not.toBe('R');
    expect(MOMENTUM_CARDS['0'].provenance.startsWith('D')).toBe(true);
    expect(() => applyVariant('no-such-proposal')).toThrow(/unknown --variant "no-such-proposal"; known: sirica-3, editor-momentum-1-draw/);
    expect(Object.keys(VARIANTS)).toEqual(['sirica-3', 'editor-momentum-1-draw']);
  });

  it('sirica-3: Judge John Sirica moves a marker 3 steps for its value instead of 2', () => {
    expect(siricaOnInitiative()).toBe(2);
    applyVariant('sirica-3');
    expect(siricaOnInitiative()).toBe(3);
  });

  it("editor-momentum-1-draw: the Editor's first momentum token draws 2 tokens to pin 1 instead of returning one of Nixon's", () => {
    expect(editorFirstMomentum()).toMatchObject({ kind: 'choose', player: E, step: { op: 'RETURN_TRACK_EVIDENCE' } });
    applyVariant('editor-momentum-1-draw');
    expect(editorFirstMomentum()).toMatchObject({ kind: 'choose', player: E, step: { op: 'PIN_FROM_BAG', draw: 2, pin: 1 } });
  });
});
