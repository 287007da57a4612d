import { describe, expect, it } from 'vitest';
import { playerView } from '../../../game/view';
import { E, N, Scenario } from '../../helpers/scenario';

/** Three face-down tokens on 0 of known colours (T02 blue, T10 yellow, T18 green) unless given. */
const fresh = (seed = 1) => new Scenario(seed).track([{ id: 'T02', pos: 0 }, { id: 'T10', pos: 0 }, { id: 'T18', pos: 0 }]);

describe('Cards phase (R8–R17)', () => {
  it('R8: players alternate one card a turn; a player with no cards is skipped and the other keeps playing', () => {
    const s = fresh().hand(E, ['E39']).hand(N, ['N11', 'N20']);
    s.value(E, 'E39', { kind: 'initiative' });
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
    s.value(N, 'N11', { kind: 'momentum' });
    expect(s.G.prompt).toEqual({ kind: 'play', player: N }); // the Editor has no card left
    s.value(N, 'N20', { kind: 'momentum' });
    // Neither has a card: assessment, then round 2 with fresh hands.
    expect(s.G.round).toBe(2);
    expect(s.G.hands[s.G.initiative]).toHaveLength(5);
  });

  it('R8: a player may play only one card per turn and only on their own turn', () => {
    const s = fresh().hand(E, ['E39', 'E31']).hand(N, ['N11']);
    s.refused(N, 'play', { card: 'N11', as: 'value', target: { kind: 'momentum' } });
    s.value(E, 'E39', { kind: 'initiative' });
    s.refused(E, 'play', { card: 'E31', as: 'value', target: { kind: 'initiative' } });
  });

  it('R9: a card is used for either its value or its action, never both', () => {
    const s = fresh().hand(E, ['E27', 'E31']).hand(N, ['N20']);
    s.value(E, 'E27', { kind: 'initiative' });
    expect(s.G.informants.I_BUTTERFIELD).toBe('supply'); // the value play did not pin the picture
    expect(s.G.track.initiative).toBe(3);
    s.turn(E, 2);
    s.refused(E, 'play', { card: 'E31', as: 'action', target: { kind: 'initiative' } });
    s.action(E, 'E31').pass(N);
    expect(s.G.informants.I_DEAN).toBe('up');
    expect(s.G.track.initiative).toBe(3); // the action play moved no token by value
  });

  it('R10: a value moves one token exactly the value toward your side: initiative, momentum or matching evidence', () => {
    const s = fresh().track([{ id: 'T11', pos: 1 }, { id: 'T04', pos: -1 }, { id: 'T26', pos: 0, up: true }, { id: 'T18', pos: 2 }]);
    s.hand(E, ['E29', 'E28', 'E23']).hand(N, ['N15', 'N20']);
    s.value(E, 'E29', { kind: 'initiative' });
    expect(s.G.track.initiative).toBe(4);
    s.value(N, 'N15', { kind: 'momentum' });
    expect(s.G.track.momentum).toBe(-4);
    s.turn(E, 2);
    // E28 is blue: a yellow token does not match, a blue one and a blue/yellow one do.
    s.refused(E, 'play', { card: 'E28', as: 'value', target: { kind: 'evidence', token: 'T11' } });
    expect(s.legal(E).filter((m) => (m.args[0] as { card: string }).card === 'E28').map((m) => (m.args[0] as { target?: unknown }).target)).toEqual(
      expect.arrayContaining([{ kind: 'evidence', token: 'T04' }, { kind: 'evidence', token: 'T26' }]),
    );
    s.value(E, 'E28', { kind: 'evidence', token: 'T26' });
    expect(s.tokenPos('T26')).toBe(3);
    s.turn(E, 3);
    // A joker matches any colour.
    s.value(E, 'E23', { kind: 'evidence', token: 'T18' });
    expect(s.tokenPos('T18')).toBe(4);
  });

  it('R11: a face-down token is turned face up when moved; Nixon moves a face-down token of a matching colour directly', () => {
    const s = fresh().hand(E, ['E31']).hand(N, ['N04']).turn(N);
    s.value(N, 'N04', { kind: 'evidence', token: 'T02' });
    // K6: named, it is face up before the Editor's window ("Follow the money!") closes.
    expect(s.G.track.evidence.find((t) => t.id === 'T02')).toEqual({ id: 'T02', pos: 0, up: true });
    s.pass(E);
    expect(s.G.track.evidence.find((t) => t.id === 'T02')).toEqual({ id: 'T02', pos: -2, up: true });
  });

  it('R12: the Editor cannot name a face-down token; she asks for a colour and Nixon must answer', () => {
    const s = fresh().track([{ id: 'T02', pos: 0 }, { id: 'T03', pos: 0 }, { id: 'T10', pos: 0 }]).hand(E, ['E28']).hand(N, ['N11']);
    expect(s.refused(E, 'play', { card: 'E28', as: 'value', target: { kind: 'evidence', token: 'T02' } })).toMatch(/target/);
    s.value(E, 'E28', { kind: 'ask', colour: 'blue' });
    expect(s.G.prompt).toEqual({ kind: 'answer', player: N, card: 'E28', colour: 'blue' });
    s.refused(N, 'answer', 'T10'); // yellow does not answer a blue ask
    s.act(N, 'answer', 'T03');
    expect(s.G.track.evidence.find((t) => t.id === 'T03')).toEqual({ id: 'T03', pos: 3, up: true });
    expect(s.G.track.evidence.find((t) => t.id === 'T02')!.up).toBe(false);
    expect(s.G.discards[E]).toContain('E28');
  });

  it('R12: with exactly one matching face-down token it is chosen automatically (a two-colour token matches either colour)', () => {
    const s = fresh().track([{ id: 'T26', pos: 0 }, { id: 'T18', pos: 0 }]).hand(E, ['E31']).hand(N, ['N11']);
    s.value(E, 'E31', { kind: 'ask', colour: 'yellow' });
    expect(s.G.track.evidence.find((t) => t.id === 'T26')).toEqual({ id: 'T26', pos: 2, up: true });
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
  });

  it('R12: when none matches, the Editor must move the initiative, the momentum or a face-up token of the named colour', () => {
    const s = fresh().track([{ id: 'T10', pos: 0 }, { id: 'T11', pos: 1 }, { id: 'T04', pos: -1 }]).hand(E, ['E28']).hand(N, ['N11']);
    s.value(E, 'E28', { kind: 'ask', colour: 'blue' });
    expect(s.keys()).toContain('ask.none');
    expect(s.G.prompt).toEqual({ kind: 'target', player: E, card: 'E28', colour: 'blue' });
    s.refused(E, 'play', { card: 'E28', as: 'action' }); // the card cannot switch to its action
    s.refused(E, 'target', { kind: 'evidence', token: 'T11' }); // yellow: not the named colour
    expect(s.legal(E).map((m) => m.args[0])).toEqual([{ kind: 'initiative' }, { kind: 'momentum' }, { kind: 'evidence', token: 'T04' }]);
    s.act(E, 'target', { kind: 'evidence', token: 'T04' });
    expect(s.tokenPos('T04')).toBe(2);
    expect(s.G.discards[E]).toContain('E28');
  });

  it('R12: the ask is offered only while a face-down token is on the track', () => {
    const s = fresh().track([{ id: 'T04', pos: 0, up: true }]).hand(E, ['E28']);
    s.refused(E, 'play', { card: 'E28', as: 'value', target: { kind: 'ask', colour: 'blue' } });
    expect(s.legal(E).some((m) => (m.args[0] as { target?: { kind: string } }).target?.kind === 'ask')).toBe(false);
  });

  it('R12: the named colour must be the card\'s colour; a joker may name any colour', () => {
    const s = fresh().hand(E, ['E28', 'E23']);
    s.refused(E, 'play', { card: 'E28', as: 'value', target: { kind: 'ask', colour: 'green' } });
    const asks = s.legal(E).filter((m) => (m.args[0] as { card: string; target?: { kind: string } }).card === 'E23' && (m.args[0] as { target?: { kind: string } }).target?.kind === 'ask');
    expect(asks).toHaveLength(3);
  });

  it('R13: a token reaching your space 5 is gained at once and can no longer be moved this round', () => {
    const s = fresh().markers(-2, -3).hand(E, ['E39', 'E29']).hand(N, ['N15', 'N06']).turn(N);
    s.value(N, 'N15', { kind: 'initiative' });
    expect(s.G.track.initiative).toBeNull();
    expect(s.G.initiative).toBe(N); // the initiative card turns at once (K11)
    s.value(E, 'E39', { kind: 'momentum' });
    expect(s.G.track.momentum).toBe(-2);
    s.value(N, 'N06', { kind: 'momentum' });
    expect(s.G.momentum.cards[N]).toBe(1);
    expect(s.G.track.momentum).toBeNull();
    const targets = s.legal(E).map((m) => (m.args[0] as { target?: { kind: string } }).target?.kind);
    expect(targets).not.toContain('initiative');
    expect(targets).not.toContain('momentum');
  });

  it('R13: a gained evidence token is pinned now by the player who gained it', () => {
    const s = fresh().track([{ id: 'T02', pos: -3 }]).hand(E, ['E31']).hand(N, ['N04']).turn(N);
    s.value(N, 'N04', { kind: 'evidence', token: 'T02' }).pass(E);
    expect(s.G.prompt).toEqual({ kind: 'pin', player: N, tokens: ['T02'] });
    s.act(N, 'pin', { token: 'T02', space: 'A2' });
    expect(s.G.board.A2).toEqual({ token: 'T02', up: false });
  });

  it('R14: after a value play the card goes to its owner\'s discard pile', () => {
    const s = fresh().hand(E, ['E27']).hand(N, ['N11']);
    s.value(E, 'E27', { kind: 'initiative' });
    expect(s.G.discards[E]).toEqual(['E27']);
    expect(s.G.removed[E]).toEqual([]);
  });

  it('R15: an action is carried out; an event is then removed, a conspirator or journalist discarded', () => {
    const s = fresh().hand(E, ['E27', 'E24']).hand(N, ['N02', 'N12']);
    s.action(E, 'E27').pass(N);
    expect(s.G.informants.I_BUTTERFIELD).toBe('up');
    expect(s.G.removed[E]).toEqual(['E27']);
    s.action(N, 'N02').pass(E);
    // Colson: up to 2 tokens 2 steps each toward Nixon.
    s.act(N, 'choose', { tokens: ['T02', 'T10'] });
    expect(s.tokenPos('T02')).toBe(-2);
    expect(s.G.discards[N]).toEqual(['N02']);
    s.action(E, 'E24').passWindows();
    s.act(E, 'choose', { tokens: [] });
    expect(s.G.discards[E]).toEqual(['E24']);
  });

  it('R15: parts that are impossible are skipped, the rest still happens', () => {
    const s = fresh().informant('I_BUTTERFIELD', 'up').markers(-1, 0).hand(E, ['E31']).hand(N, ['N12']).turn(N);
    s.action(N, 'N12'); // Executive privilege: pin Butterfield (already on the board), initiative 2 steps
    expect(s.G.informants.I_BUTTERFIELD).toBe('up');
    expect(s.G.track.initiative).toBe(-3);
    expect(s.G.removed[N]).toEqual(['N12']);
  });

  it('R16: a reaction window opens whenever the reacting player holds a card, whatever it is', () => {
    const s = fresh().hand(E, ['E27', 'E31']).hand(N, ['N11']);
    s.action(E, 'E27');
    expect(s.G.prompt).toEqual({ kind: 'react', player: N, trigger: 'OPPONENT_EVENT_ACTION' });
    expect(s.legal(N)).toEqual([{ move: 'react', args: [null] }]);
    s.refused(N, 'react', 'N11');
    s.pass(N);
    expect(s.G.informants.I_BUTTERFIELD).toBe('up');
    // With an empty hand there is no window.
    const t = fresh().hand(E, ['E27']).hand(N, []);
    t.action(E, 'E27');
    expect(t.G.informants.I_BUTTERFIELD).toBe('up');
  });

  it('R16: a reaction is an extra card out of turn: it does not use up the reacting player\'s next turn', () => {
    const s = fresh().hand(E, ['E25', 'E31']).hand(N, ['N02', 'N11']).turn(N);
    s.action(N, 'N02');
    expect(s.G.prompt).toEqual({ kind: 'react', player: E, trigger: 'OPPONENT_CONSPIRATOR_ACTION' });
    s.act(E, 'react', 'E25');
    expect(s.G.removed[N]).toEqual(['N02']); // cancelled and removed from the game
    expect(s.G.discards[E]).toEqual(['E25']);
    expect(s.G.prompt).toEqual({ kind: 'play', player: E }); // the Editor still has her turn
    expect(s.G.hands[E]).toEqual(['E31']); // one card fewer
  });

  it('R17: discard piles and removed cards are open; hands and decks are secret, their sizes public', () => {
    const s = fresh().hand(E, ['E27', 'E31']).hand(N, ['N11', 'N20']);
    s.action(E, 'E27').pass(N).value(N, 'N11', { kind: 'momentum' });
    for (const viewer of [E, N, null]) {
      const v = playerView(s.G, viewer);
      expect(v.removed[E]).toEqual(['E27']);
      expect(v.discards[N]).toEqual(['N11']);
      expect(v.handSizes).toEqual({ [E]: 1, [N]: 1 });
      expect(v.deckSizes).toEqual({ [E]: s.G.decks[E].length, [N]: s.G.decks[N].length });
      expect(v.hands[E]).toEqual(viewer === E ? ['E31'] : null);
      expect(v.hands[N]).toEqual(viewer === N ? ['N20'] : null);
      expect(JSON.stringify(v)).not.toContain(s.G.decks[E][0]);
      expect('decks' in v).toBe(false);
    }
  });
});
