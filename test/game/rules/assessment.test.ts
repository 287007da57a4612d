import { describe, expect, it } from 'vitest';
import { E, N, Scenario } from '../../helpers/scenario';

describe('Assessment phase (R18–R22)', () => {
  it('R18: step 1 returns the evidence tokens on space 0, face up or down, to the bag', () => {
    const s = new Scenario(20).track([{ id: 'T02', pos: 0 }, { id: 'T04', pos: 0, up: true }]);
    const bag = s.G.bag.length;
    s.endCards();
    expect(s.G.round).toBe(2);
    // 2 came back, 3 were drawn for round 2.
    expect(s.G.bag.length).toBe(bag + 2 - 3);
    expect(s.keys()).toContain('assess.bag');
  });

  it('R19: step 2 gives the initiative to the player on whose side the token lies', () => {
    for (const [pos, holder] of [[2, E], [-1, N]] as const) {
      const s = new Scenario(21).track([]).markers(pos, 0);
      s.endCards();
      expect(s.G.initiative).toBe(holder);
      expect(s.G.track.initiative).toBe(0); // back on 0 for the new round (R21)
    }
  });

  it('R19: step 2 is skipped when the initiative was gained during the round', () => {
    const s = new Scenario(22).track([]).markers(null, 0);
    s.G.initiative = E; // gained by the Editor, who also led the round: on 0 it would have gone to Nixon
    s.endCards();
    expect(s.G.initiative).toBe(E);
  });

  it('R20: step 3 gives the momentum token to the side it lies on; on 0 it returns to the supply', () => {
    const nixon = new Scenario(23).track([]).markers(0, -2);
    nixon.endCards();
    expect(nixon.G.momentum.cards[N]).toBe(1);
    expect(nixon.G.momentum.supply).toBe(7);
    const zero = new Scenario(24).track([]).markers(0, 0);
    zero.endCards();
    expect(zero.G.momentum.cards).toEqual({ [E]: 0, [N]: 0 });
    expect(zero.G.momentum.supply).toBe(8); // returned, then one taken for round 2
    const editor = new Scenario(25).track([]).markers(0, 3);
    editor.endCards();
    expect(editor.G.momentum.cards[E]).toBe(1);
  });

  it('R20: step 3 is skipped when the momentum token was gained during the round', () => {
    const s = new Scenario(26).track([]).markers(0, null).momentum(0, 1);
    s.endCards();
    expect(s.G.momentum.cards).toEqual({ [E]: 0, [N]: 1 });
    expect(s.G.momentum.supply).toBe(6);
    expect(s.G.track.momentum).toBe(0);
  });

  it('R21: step 4 puts the initiative token and a new momentum token from the supply on 0', () => {
    const s = new Scenario(27).track([]).markers(3, -3);
    s.endCards();
    expect(s.G.track.initiative).toBe(0);
    expect(s.G.track.momentum).toBe(0);
    expect(s.G.momentum.cards[N]).toBe(1);
    expect(s.G.momentum.supply).toBe(7); // the round's token went to Nixon at step 3; a new one came from the 8
  });

  it('R21: if the supply is empty at step 4, Nixon wins at once', () => {
    const s = new Scenario(28).track([]).markers(0, 2).momentum(3, 4);
    s.G.momentum.removed = s.G.momentum.supply; // nothing left in the supply
    s.G.momentum.supply = 0;
    s.endCards();
    // The Editor took the token at step 3 (space 4 ability: nothing face down to remove), then step 4 found no token.
    expect(s.G.winner).toBe(N);
    expect(s.G.endReason).toBe('supply');
  });

  it('R22: each player gains the tokens on their side; the initiative holder after step 2 pins all of theirs first', () => {
    const s = new Scenario(29)
      .track([{ id: 'T01', pos: 2 }, { id: 'T19', pos: 4 }, { id: 'T09', pos: -3 }])
      .markers(-1, 0);
    s.endCards();
    expect(s.G.initiative).toBe(N);
    expect(s.G.prompt).toMatchObject({ kind: 'pin', player: N, tokens: ['T09'] });
    s.act(N, 'pin', { token: 'T09', space: 'A1' });
    // Nixon's red "1" moved the new momentum token (just placed on 0) toward him.
    expect(s.G.track.momentum).toBe(-1);
    expect(s.G.prompt).toMatchObject({ kind: 'pin', player: E, tokens: ['T01', 'T19'] });
    s.act(E, 'pin', { token: 'T19', space: 'A4' });
    s.act(E, 'pin', { token: 'T01', space: 'A2' });
    expect(s.G.board.A1).toEqual({ token: 'T09', up: false });
    expect(s.G.board.A2).toEqual({ token: 'T01', up: true });
    expect(s.G.round).toBe(2);
    expect(s.G.track.momentum).toBe(0);
  });

  it('R22: a new round starts after step 5, the new holder drawing 5 cards', () => {
    const s = new Scenario(30).track([]).markers(-2, 0);
    s.endCards();
    expect(s.G.round).toBe(2);
    expect(s.G.phase).toBe('cards');
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
    expect(s.G.hands[N]).toHaveLength(5);
  });
});
