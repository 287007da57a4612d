import { describe, expect, it } from 'vitest';
import { E, N, Scenario, fillGreenSlips, nearlyConnected } from '../../helpers/scenario';


describe('Pinning, momentum and the end (R23–R26)', () => {
  it('R23: a gained token goes on an empty space of either of its colours, anywhere: Editor face up, Nixon face down', () => {
    const s = new Scenario(40).pinned('B02', 'T03', true).track([{ id: 'T26', pos: 3 }]).hand(E, ['E31']).hand(N, ['N20']);
    s.value(E, 'E31', { kind: 'evidence', token: 'T26' });
    expect(s.G.prompt).toEqual({ kind: 'pin', player: E, tokens: ['T26'] });
    s.refused(E, 'pin', { token: 'T26', space: 'B02' }); // occupied
    s.refused(E, 'pin', { token: 'T26', space: 'A4' }); // green slip
    const spaces = s.legal(E).map((m) => (m.args[0] as { space: string }).space);
    expect(spaces).toContain('C8'); // yellow, far from any other token
    expect(spaces).toContain('C1'); // blue
    s.act(E, 'pin', { token: 'T26', space: 'C8' });
    expect(s.G.board.C8).toEqual({ token: 'T26', up: true });
    const n = new Scenario(41).track([{ id: 'T26', pos: -3 }]).hand(E, ['E31']).hand(N, ['N16']).turn(N);
    n.value(N, 'N16', { kind: 'evidence', token: 'T26' }).pass(E);
    n.act(N, 'pin', { token: 'T26', space: 'A1' });
    expect(n.G.board.A1).toEqual({ token: 'T26', up: false });
  });

  it('R23: a red "1" moves the momentum token 1 step toward the pinner', () => {
    const s = new Scenario(42).track([{ id: 'T09', pos: 3 }]).markers(0, -2).hand(E, ['E31']).hand(N, ['N20']);
    s.value(E, 'E31', { kind: 'evidence', token: 'T09' });
    s.act(E, 'pin', { token: 'T09', space: 'A1' });
    expect(s.G.track.momentum).toBe(-1);
  });

  it('R23 (Decided): a token with no empty matching space goes back to the bag', () => {
    const s = fillGreenSlips(new Scenario(43).track([{ id: 'T17', pos: 3 }]).hand(E, ['E30']).hand(N, ['N20']));
    const bag = s.G.bag.length;
    s.value(E, 'E30', { kind: 'evidence', token: 'T17' });
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
    expect(s.G.bag.length).toBe(bag + 1);
    expect(s.G.bag).toContain('T17');
    expect(s.keys()).toContain('pin.impossible');
    expect(s.G.track.momentum).toBe(0); // its red "1" did nothing (K12)
  });

  it('R24: a gained momentum token goes on the lowest empty space; the Editor resolves that space at once', () => {
    const s = new Scenario(44).track([{ id: 'T04', pos: -2 }, { id: 'T05', pos: -3 }]).markers(0, 2).hand(E, ['E32']).hand(N, ['N20']);
    s.value(E, 'E32', { kind: 'momentum' });
    expect(s.G.momentum.cards[E]).toBe(1);
    // Space 1: send one token on Nixon's side back to the bag.
    expect(s.G.prompt).toMatchObject({ kind: 'choose', player: E, step: { op: 'RETURN_TRACK_EVIDENCE' } });
    s.act(E, 'choose', { tokens: ['T05'] });
    expect(s.G.track.evidence.map((t) => t.id)).toEqual(['T04']);
    expect(s.G.bag).toContain('T05');
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
  });

  it('R24: the Editor gaining momentum with a full card removes that token from the game', () => {
    const s = new Scenario(45).markers(0, 2).momentum(4, 0).hand(E, ['E32']).hand(N, ['N20']);
    s.value(E, 'E32', { kind: 'momentum' });
    expect(s.G.momentum.cards[E]).toBe(4);
    expect(s.G.momentum.removed).toBe(1);
    expect(s.G.momentum.supply).toBe(4);
  });

  it('R25: Nixon wins at once when he places his 5th momentum token', () => {
    const s = new Scenario(46).markers(0, -3).momentum(0, 4).hand(E, ['E31']).hand(N, ['N16', 'N20']).turn(N);
    s.value(N, 'N16', { kind: 'momentum' });
    expect(s.G.winner).toBe(N);
    expect(s.G.endReason).toBe('momentum');
    expect(s.G.prompt).toBeNull();
    s.refused(E, 'play', { card: 'E31', as: 'value', target: { kind: 'initiative' } });
  });

  it('R26: the Editor wins at once when two face-up informants connect to Nixon through face-up evidence', () => {
    const s = nearlyConnected(47).track([{ id: 'T10', pos: 3 }]).hand(E, ['E31']).hand(N, ['N20']);
    s.value(E, 'E31', { kind: 'evidence', token: 'T10' });
    s.act(E, 'pin', { token: 'T10', space: 'A3' });
    expect(s.G.winner).toBe(E);
    expect(s.G.endReason).toBe('connected');
    expect(s.G.connected).toEqual(['I_BUTTERFIELD', 'I_DEAN']);
  });

  it('R26: a face-down token or an empty space breaks a path; a face-down picture does not count', () => {
    const down = nearlyConnected(48).pinned('A3', 'T13', false).track([]);
    down.endCards();
    expect(down.G.winner).toBeNull();
    const gap = nearlyConnected(49).track([{ id: 'T10', pos: 3 }]).hand(E, ['E31']).hand(N, ['N20']);
    gap.G.board.B06 = null;
    gap.G.bag.push('T05');
    gap.value(E, 'E31', { kind: 'evidence', token: 'T10' });
    gap.act(E, 'pin', { token: 'T10', space: 'A3' });
    expect(gap.G.winner).toBeNull();
    const hidden = nearlyConnected(50).informant('I_DEAN', 'down').track([{ id: 'T10', pos: 3 }]).hand(E, ['E31']).hand(N, ['N20']);
    hidden.value(E, 'E31', { kind: 'evidence', token: 'T10' });
    hidden.act(E, 'pin', { token: 'T10', space: 'A3' });
    expect(hidden.G.winner).toBeNull();
  });
});
