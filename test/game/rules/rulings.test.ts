import { describe, expect, it } from 'vitest';
import { E, N, Scenario, nearlyConnected } from '../../helpers/scenario';

describe('Rulings (G1–G8)', () => {
  it('G1: a value is used in full on one token; steps past space 5 are lost', () => {
    const s = new Scenario(60).track([{ id: 'T11', pos: 3 }, { id: 'T12', pos: 1 }]).hand(E, ['E29']).hand(N, ['N20']);
    s.value(E, 'E29', { kind: 'evidence', token: 'T11' });
    // Gained at 5 (not 7), the other yellow token did not take the spare steps.
    expect(s.G.prompt).toMatchObject({ kind: 'pin', player: E, tokens: ['T11'] });
    expect(s.tokenPos('T12')).toBe(1);
    // A play cannot name how many steps: the whole value is always used.
    const t = new Scenario(61).track([]).hand(E, ['E29']).hand(N, ['N20']);
    t.act(E, 'play', { card: 'E29', as: 'value', target: { kind: 'initiative' }, steps: 1 });
    expect(t.G.track.initiative).toBe(4);
  });

  it('G2: a joker ask locks the named colour: after "none" only that colour, the initiative or the momentum; no action', () => {
    const s = new Scenario(62).track([{ id: 'T10', pos: 0 }, { id: 'T04', pos: 1 }, { id: 'T19', pos: -1 }]).hand(E, ['E23']).hand(N, ['N20']);
    s.value(E, 'E23', { kind: 'ask', colour: 'green' });
    expect(s.G.prompt).toEqual({ kind: 'target', player: E, card: 'E23', colour: 'green' });
    s.refused(E, 'target', { kind: 'evidence', token: 'T04' });
    s.refused(E, 'play', { card: 'E23', as: 'action' });
    s.act(E, 'target', { kind: 'evidence', token: 'T19' });
    expect(s.tokenPos('T19')).toBe(1);
  });

  it('G2 (option rulebook2019): after a failed joker ask a face-up token of any colour may move', () => {
    const s = new Scenario(63, { jokerFallback: 'rulebook2019' }).track([{ id: 'T10', pos: 0 }, { id: 'T04', pos: 1 }]).hand(E, ['E23']).hand(N, ['N20']);
    s.value(E, 'E23', { kind: 'ask', colour: 'green' });
    expect(s.G.prompt).toEqual({ kind: 'target', player: E, card: 'E23', colour: null });
    s.act(E, 'target', { kind: 'evidence', token: 'T04' });
    expect(s.tokenPos('T04')).toBe(3);
    // A coloured card keeps its colour locked in both modes.
    const t = new Scenario(64, { jokerFallback: 'rulebook2019' }).track([{ id: 'T10', pos: 0 }, { id: 'T19', pos: 1 }]).hand(E, ['E28']).hand(N, ['N20']);
    t.value(E, 'E28', { kind: 'ask', colour: 'blue' });
    expect(t.G.prompt).toEqual({ kind: 'target', player: E, card: 'E28', colour: 'blue' });
  });

  it('G3: a red "1" pinned while the momentum token is gained has no effect, now or later', () => {
    const s = new Scenario(65).track([{ id: 'T01', pos: 2 }]).markers(0, null).momentum(0, 1).hand(E, ['E28']).hand(N, ['N20']);
    s.value(E, 'E28', { kind: 'evidence', token: 'T01' });
    s.act(E, 'pin', { token: 'T01', space: 'A2' });
    expect(s.G.track.momentum).toBeNull();
    s.endCards();
    expect(s.G.track.momentum).toBe(0); // the new token starts on 0: nothing was stored
  });

  it('G4: gaining the initiative mid-round gives no extra turn', () => {
    const s = new Scenario(66).markers(2, 0).hand(E, ['E29', 'E31']).hand(N, ['N20', 'N11']).turn(N);
    s.G.initiative = N;
    s.value(N, 'N20', { kind: 'momentum' });
    s.value(E, 'E29', { kind: 'initiative' });
    expect(s.G.initiative).toBe(E);
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
  });

  it('G5: with an empty supply at step 4 Nixon wins before step 5, even if those pins would connect', () => {
    const s = nearlyConnected(67)
      .track([{ id: 'T10', pos: 3 }]) // the Editor would pin it on A3 and connect
      .markers(0, null); // this round's momentum token was gained: nothing returns at step 3
    s.G.momentum.removed = s.G.momentum.supply;
    s.G.momentum.supply = 0;
    s.endCards();
    expect(s.G.winner).toBe(N);
    expect(s.G.endReason).toBe('supply');
    expect(s.G.board.A3).toBeNull();
  });

  it('G6: the Editor\'s two paths may share evidence', () => {
    // Butterfield: B01–A1; Sloan: C1–B03–A1. Both run through A1.
    const s = new Scenario(68)
      .informant('I_BUTTERFIELD', 'up')
      .informant('I_SLOAN', 'up')
      .pinned('B01', 'T18', true)
      .pinned('C1', 'T03', true)
      .pinned('B03', 'T19', true)
      .track([{ id: 'T10', pos: 3 }])
      .hand(E, ['E31'])
      .hand(N, ['N20']);
    s.value(E, 'E31', { kind: 'evidence', token: 'T10' });
    s.act(E, 'pin', { token: 'T10', space: 'A1' });
    expect(s.G.winner).toBe(E);
    expect(s.G.connected).toEqual(['I_BUTTERFIELD', 'I_SLOAN']);
  });

  it('G7: an initiative token on 0 at step 2 goes to the player who did not hold the initiative this round', () => {
    const s = new Scenario(69).track([]).markers(0, 0);
    s.endCards();
    expect(s.G.initiative).toBe(N);
    s.G.track.initiative = 0;
    s.endCards();
    expect(s.G.initiative).toBe(E);
  });

  it('G8: Howard Hunt moves the momentum token first; if it was already gained he still draws and plays the top card', () => {
    const s = new Scenario(70).markers(0, null).momentum(0, 1).hand(E, ['E31']).hand(N, ['N04']).deckTop(N, ['N11']).turn(N);
    s.action(N, 'N04').pass(E);
    expect(s.G.prompt).toEqual({ kind: 'playDrawn', player: N });
    expect(s.G.drawnCard).toEqual({ player: N, card: 'N11' });
    s.value(N, 'N11', { kind: 'initiative' });
    expect(s.G.track.initiative).toBe(-1);
    expect(s.G.discards[N]).toEqual(['N11', 'N04']);
    const t = new Scenario(71).markers(0, -1).hand(E, ['E31']).hand(N, ['N04']).deckTop(N, ['N11']).turn(N);
    t.action(N, 'N04').pass(E);
    expect(t.G.track.momentum).toBe(-3); // momentum first, then the draw
    expect(t.G.prompt).toEqual({ kind: 'playDrawn', player: N });
  });
});
