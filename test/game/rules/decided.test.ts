/** Readings we chose where the rules are silent (docs/RULINGS.md, D1–D11). */
import { describe, expect, it } from 'vitest';
import { playerView } from '../../../game/view';
import { CARDS, INFORMANTS, legalMoves } from '../../../game/index';
import { E, N, Scenario, fillGreenSlips, randomGame } from '../../helpers/scenario';

describe('Decided readings (docs/RULINGS.md)', () => {
  it('D1: the Editor picks a face-down track token blind as { hidden: k }; out-of-range or named ids are refused', () => {
    const t = new Scenario(101).track([{ id: 'T02', pos: 0 }, { id: 'T10', pos: 0 }]).hand(E, ['E23']).hand(N, ['N20']);
    t.action(E, 'E23');
    t.refused(E, 'choose', { split: [{ token: { hidden: 2 }, steps: 3 }] });
    t.refused(E, 'choose', { split: [{ token: { hidden: 0 }, steps: 1 }, { token: { hidden: 0 }, steps: 2 }] });
    // The refusal of a named id is the same whether it is face down on the track or in the bag: no probing.
    const down = t.refused(E, 'choose', { split: [{ token: 'T02', steps: 3 }] });
    expect(t.refused(E, 'choose', { split: [{ token: t.G.bag[0], steps: 3 }] })).toBe(down);
    t.act(E, 'choose', { split: [{ token: { hidden: 0 }, steps: 1 }, { token: { hidden: 1 }, steps: 2 }] });
    expect(t.G.track.evidence.map((x) => [x.pos, x.up])).toEqual([[1, true], [2, true]]);
  });

  it('D2: a decision with exactly one possible answer is taken automatically (one token, one empty space)', () => {
    const s = new Scenario(102).track([{ id: 'T02', pos: 3 }]).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    // Every blue slip but A5 is taken.
    ['A2', 'A7', 'B02', 'B06', 'B08', 'B12', 'C1', 'C7'].forEach((sp, i) => s.pinned(sp, ['T01', 'T03', 'T04', 'T05', 'T06', 'T07', 'T08', 'T29'][i], true));
    s.value(E, 'E24', { kind: 'evidence', token: 'T02' });
    expect(s.G.board.A5).toEqual({ token: 'T02', up: true });
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
  });

  it('D3: under A brilliant mood no window opens for a Nixon value move: only an event could answer it', () => {
    const s = new Scenario(103).track([{ id: 'T02', pos: 0 }]).hand(E, ['E42', 'E31']).hand(N, ['N04', 'N20']).turn(N);
    s.G.eventsRestricted = true;
    s.value(N, 'N04', { kind: 'evidence', token: 'T02' });
    expect(s.tokenPos('T02')).toBe(-2);
    expect(s.G.prompt).toEqual({ kind: 'play', player: E });
  });

  it('D4: gained tokens that cannot be pinned now wait while another is pinned, and go back only when none can be pinned', () => {
    // T17 (green) has no empty green slip; T02 (blue) has.
    const s = fillGreenSlips(new Scenario(104).track([{ id: 'T17', pos: 4 }, { id: 'T02', pos: 4 }]).hand(E, ['E23']).hand(N, ['N20']));
    s.action(E, 'E23');
    s.act(E, 'choose', { split: [{ token: 'T17', steps: 2 }, { token: 'T02', steps: 1 }] });
    expect(s.G.prompt).toEqual({ kind: 'pin', player: E, tokens: ['T17', 'T02'] });
    expect(s.legal(E).every((m) => (m.args[0] as { token: string }).token === 'T02')).toBe(true);
    s.act(E, 'pin', { token: 'T02', space: 'A2' });
    expect(s.G.bag).toContain('T17');
  });

  it('D5: the card Howard Hunt draws is secret to the Editor until Nixon plays it', () => {
    const s = new Scenario(105).hand(E, ['E31']).hand(N, ['N04']).deckTop(N, ['N11']).turn(N);
    s.action(N, 'N04').pass(E);
    expect(playerView(s.G, N).drawnCard).toEqual({ player: N, card: 'N11' });
    expect(playerView(s.G, E).drawnCard).toEqual({ player: N, card: null });
    expect(JSON.stringify({ ...playerView(s.G, E), log: [] })).not.toContain('N11');
  });

  it('D6: at step 5 the second player\'s tokens stay on the track until their pinning turn (the Editor\'s space-1 ability may still return one)', () => {
    const s = new Scenario(106).track([{ id: 'T09', pos: -2 }, { id: 'T04', pos: 3 }]).markers(2, 0);
    s.endCards(); // the Editor holds the initiative and pins first
    expect(s.G.initiative).toBe(E);
    expect(s.G.prompt).toEqual({ kind: 'pin', player: E, tokens: ['T04'] });
    expect(s.G.track.evidence.map((t) => t.id)).toEqual(['T09']); // Nixon's token still on the track
  });

  it('D7: NOT_FIRST_TURN counts turns begun this round; a card drawn by Hunt belongs to Hunt\'s turn', () => {
    const first = new Scenario(107).hand(E, ['E31']).hand(N, ['N04']).deckTop(N, ['N08']).turn(N, 1);
    first.action(N, 'N04').pass(E);
    first.refused(N, 'play', { card: 'N08', as: 'action' });
    const second = new Scenario(108).hand(E, ['E31']).hand(N, ['N04']).deckTop(N, ['N08']).turn(N, 2);
    second.action(N, 'N04').pass(E);
    second.action(N, 'N08');
    expect(second.G.eventsRestricted).toBe(true);
  });

  it('D8: the Editor\'s journalists are never removed from the game, so her cards never run out', () => {
    for (let g = 0; g < 60; g++)
      randomGame(900 + g, { after: (G) => expect(G.removed[E].filter((c) => ['E23', 'E24', 'E25'].includes(c))).toEqual([]) });
  });

  it('D10: the Editor may ask for a colour even with a face-up token of that colour on the track (no precondition)', () => {
    const s = new Scenario(110).track([{ id: 'T02', pos: 1, up: true }, { id: 'T10', pos: 0 }]).hand(E, ['E24']).hand(N, ['N20']);
    const targets = legalMoves(s.G, E).filter((m) => (m.args[0] as { card: string }).card === 'E24').map((m) => (m.args[0] as { target?: unknown }).target);
    expect(targets).toContainEqual({ kind: 'evidence', token: 'T02' });
    expect(targets).toContainEqual({ kind: 'ask', colour: 'blue' });
    s.value(E, 'E24', { kind: 'ask', colour: 'blue' });
    expect(s.keys()).toContain('ask');
  });

  it('D11: Deep Throat is an Editor card (E26), not an informant picture on the board', () => {
    expect(CARDS.E26).toMatchObject({ name: 'Deep Throat', side: E });
    expect(INFORMANTS.map((i) => i.name)).not.toContain('Deep Throat');
    expect(INFORMANTS).toHaveLength(7);
  });
});
