/**
 * The balance proposals `npm run bench:bots -- --variant NAME` measures (tools/balance-variants.ts): each
 * must change what the game does in the way its description says, and touch only components whose
 * provenance is not the rulebook. A proposal patches the component modules, so every test loads fresh
 * copies of the game, the proposals and the scenario helper.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

async function fresh() {
  const [game, variants, scenario] = await Promise.all([import('../../game'), import('../../tools/balance-variants'), import('../helpers/scenario')]);
  const { E, N, Scenario } = scenario;
  return {
    ...game,
    ...variants,
    /** Judge John Sirica played for its value on the initiative, from the middle of the track: where it ends. */
    siricaOnInitiative: () => {
      const s = new Scenario(301).markers(0, 0).hand(E, ['E38']).hand(N, ['N20']).turn(E);
      s.value(E, 'E38', { kind: 'initiative' });
      return s.G.track.initiative;
    },
    /** The Editor takes the round's momentum token at assessment step 3 (K10): what her momentum space 1 asks. */
    editorFirstMomentum: () => {
      const s = new Scenario(302).track([{ id: 'T04', pos: -2 }]).markers(0, 2);
      s.endCards();
      expect(s.G.momentum.cards[E]).toBe(1);
      return s.G.prompt;
    },
  };
}

const RETURN_ONE = { kind: 'choose', player: '0', step: { op: 'RETURN_TRACK_EVIDENCE' } };
const DRAW_TWO = { kind: 'choose', player: '0', step: { op: 'PIN_FROM_BAG', draw: 2, pin: 1 } };

describe('balance proposals (bench:bots --variant)', () => {
  beforeEach(() => void vi.resetModules());

  it('each proposal changes only components not printed in the rulebook; an unknown one is refused by name', async () => {
    const { CARDS, MOMENTUM_CARDS, VARIANTS, applyVariant } = await fresh();
    expect(CARDS.E38.provenance.valueColour).not.toBe('R');
    expect(MOMENTUM_CARDS['0'].provenance.startsWith('D')).toBe(true);
    expect(Object.keys(VARIANTS)).toEqual(['sirica-2', 'editor-momentum-1-draw']);
    expect(() => applyVariant('no-such-proposal')).toThrow(/unknown --variant "no-such-proposal"; known: sirica-2, editor-momentum-1-draw/);
  });

  it('the adopted change: Judge John Sirica moves a marker 3 steps for its value; sirica-2 plays the components before it', async () => {
    const g = await fresh();
    expect(g.siricaOnInitiative()).toBe(3);
    g.applyVariant('sirica-2');
    expect(g.siricaOnInitiative()).toBe(2);
    expect(g.editorFirstMomentum()).toMatchObject(RETURN_ONE);
  });

  it("editor-momentum-1-draw: the Editor's first momentum token draws 2 tokens to pin 1 instead of returning one of Nixon's", async () => {
    const g = await fresh();
    expect(g.editorFirstMomentum()).toMatchObject(RETURN_ONE);
    g.applyVariant('editor-momentum-1-draw');
    expect(g.editorFirstMomentum()).toMatchObject(DRAW_TWO);
    expect(g.siricaOnInitiative()).toBe(3);
  });
});
