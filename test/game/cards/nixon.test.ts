/**
 * One test per Nixon card (N01–N20): each card's value/action as docs/COMPONENTS.md lists it and docs/RULES.md R15,
 * R16, K4–K9 define it. Known cards (R) are checked against the rulebook's rulings (§2.4), reconstructed
 * ones (D/S/H) against the primitives of their table row. Reaction chains are in reactions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { playerView } from '../../../game/view';
import { actionsOffered, bagOnly, E, editorTurn, expectPrompt, momentumGained, N, nixonTurn, offered, whereIs } from './setup';

describe('Nixon cards', () => {
  it('N01 Gordon Liddy: draws 2 tokens, pins 1 face down (red "1" moves momentum), returns the other; Liddy is discarded', () => {
    const s = nixonTurn(['N01', 'N11']);
    bagOnly(s, ['T01', 'T10']);
    s.action(N, 'N01');
    expectPrompt(s, { kind: 'choose', player: N, card: 'N01' });
    expect([...s.G.peek!.tokens].sort()).toEqual(['T01', 'T10']);
    expect(playerView(s.G, E).peek).toEqual({ player: N, tokens: null, count: 2 }); // the Editor does not see them
    expect(offered(s, N)).toEqual(expect.arrayContaining([{ tokens: [] }, { tokens: ['T01'] }, { tokens: ['T10'] }]));
    s.refused(N, 'choose', { tokens: ['T01', 'T10'] }); // pin 1 only
    s.refused(N, 'choose', { tokens: ['T02'] }); // not drawn
    s.act(N, 'choose', { tokens: ['T01'] });
    expect(s.G.bag).toEqual(['T10']); // K9: the unchosen token is back before the pin
    expect(s.G.peek).toBeNull();
    expectPrompt(s, { kind: 'pin', player: N, tokens: ['T01'] });
    s.refused(N, 'pin', { token: 'T01', space: 'A1' }); // A1 is yellow
    s.act(N, 'pin', { token: 'T01', space: 'A2' });
    expect(s.G.board.A2).toEqual({ token: 'T01', up: false });
    expect(s.G.track.momentum).toBe(-1); // red "1" pinned by Nixon
    expect(whereIs(s, 'N01')).toBe('discard');
    expect(s.G.prompt).toEqual({ kind: 'play', player: N }); // the Editor has no card: Nixon plays on
  });

  it('N01 Gordon Liddy: a drawn token with no empty space of its colour cannot be kept; a thin bag gives what it has', () => {
    const blueSpaces = ['A2', 'A5', 'A7', 'B02', 'B06', 'B08', 'B12', 'C1', 'C7'];
    const blueTokens = ['T02', 'T03', 'T04', 'T05', 'T06', 'T07', 'T08', 'T25', 'T26'];
    const s = nixonTurn(['N01', 'N11']);
    blueSpaces.forEach((space, i) => s.pinned(space, blueTokens[i], true));
    bagOnly(s, ['T01', 'T10']);
    s.action(N, 'N01');
    expect(offered(s, N)).toEqual([{ tokens: [] }, { tokens: ['T10'] }]);
    s.refused(N, 'choose', { tokens: ['T01'] });

    const thin = nixonTurn(['N01', 'N11']);
    bagOnly(thin, ['T10']);
    thin.action(N, 'N01');
    expect(thin.G.peek!.tokens).toEqual(['T10']);
    expect(thin.G.bag).toEqual([]);
  });

  it('N02 Chuck Colson: up to 2 track tokens move exactly 2 toward Nixon each (face up); a gained one is pinned face down', () => {
    const s = nixonTurn(['N02', 'N11']).track([
      { id: 'T02', pos: 1 },
      { id: 'T10', pos: 0, up: false },
      { id: 'T18', pos: -4 },
    ]);
    s.action(N, 'N02');
    expectPrompt(s, { kind: 'choose', player: N, card: 'N02' });
    s.refused(N, 'choose', { tokens: ['T02', 'T10', 'T18'] }); // max 2
    s.act(N, 'choose', { tokens: ['T10', 'T18'] }); // Nixon names face-down tokens by id (he knows them)
    expect(s.G.track.evidence.find((t) => t.id === 'T10')).toEqual({ id: 'T10', pos: -2, up: true });
    expect(s.tokenPos('T02')).toBe(1);
    expect(s.tokenPos('T18')).toBeUndefined(); // -6: gained, extra step lost
    expectPrompt(s, { kind: 'pin', player: N, tokens: ['T18'] });
    s.act(N, 'pin', { token: 'T18', space: 'A4' });
    expect(s.G.board.A4).toEqual({ token: 'T18', up: false });
    expect(whereIs(s, 'N02')).toBe('discard');
  });

  it('N02 Chuck Colson (K8): two tokens gained together are pinned one by one in the order Nixon chooses', () => {
    const s = nixonTurn(['N02', 'N11']).markers(0, 0).track([
      { id: 'T01', pos: -4 },
      { id: 'T18', pos: -3 },
    ]);
    s.action(N, 'N02').act(N, 'choose', { tokens: ['T01', 'T18'] });
    expect(s.G.track.evidence).toEqual([]);
    expectPrompt(s, { kind: 'pin', player: N, tokens: ['T01', 'T18'] });
    s.act(N, 'pin', { token: 'T18', space: 'A4' });
    expect(s.G.track.momentum).toBe(0);
    expectPrompt(s, { kind: 'pin', player: N, tokens: ['T01'] });
    s.act(N, 'pin', { token: 'T01', space: 'A2' });
    expect(s.G.board.A4).toEqual({ token: 'T18', up: false });
    expect(s.G.board.A2).toEqual({ token: 'T01', up: false });
    expect(s.G.track.momentum).toBe(-1);
    expect(whereIs(s, 'N02')).toBe('discard');
  });

  it('N03 Bob Haldeman: sends 1 face-up board token back to the bag (face-down ones are safe); discarded', () => {
    const s = nixonTurn(['N03', 'N11']).pinned('A2', 'T02', true).pinned('B02', 'T03', false).pinned('A1', 'T10', true);
    s.action(N, 'N03');
    expectPrompt(s, { kind: 'choose', player: N, card: 'N03' });
    expect(offered(s, N)).toEqual([{ spaces: [] }, { spaces: ['A1'] }, { spaces: ['A2'] }]);
    s.refused(N, 'choose', { spaces: ['B02'] });
    s.refused(N, 'choose', { spaces: ['A1', 'A2'] });
    s.act(N, 'choose', { spaces: ['A2'] });
    expect(s.G.board.A2).toBeNull();
    expect(s.G.bag).toContain('T02');
    expect(s.G.board.A1).toEqual({ token: 'T10', up: true });
    expect(s.G.board.B02).toEqual({ token: 'T03', up: false });
    expect(whereIs(s, 'N03')).toBe('discard');
  });

  describe('N04 Howard Hunt', () => {
    it('N04 Howard Hunt: momentum 2 steps, then draws and plays the top card (R+D); the extra play keeps the turn order', () => {
      const s = nixonTurn(['N04', 'N11'], ['E39']).deckTop(N, ['N19']).markers(0, 0);
      s.action(N, 'N04');
      expectPrompt(s, { kind: 'react', player: E, trigger: 'OPPONENT_CONSPIRATOR_ACTION' });
      s.pass(E);
      expect(s.G.track.momentum).toBe(-2); // momentum first
      expect(s.G.prompt).toEqual({ kind: 'playDrawn', player: N });
      expect(s.G.drawnCard).toEqual({ player: N, card: 'N19' });
      expect(playerView(s.G, E).drawnCard).toEqual({ player: N, card: null }); // secret until played
      expect(s.G.hands[N]).toEqual(['N11']); // the drawn card never enters the hand
      s.refused(N, 'play', { card: 'N11', as: 'value', target: { kind: 'initiative' } });
      s.value(N, 'N19', { kind: 'initiative' });
      expect(s.G.track.initiative).toBe(-2);
      expect(whereIs(s, 'N19')).toBe('discard');
      expect(whereIs(s, 'N04')).toBe('discard');
      expect(s.G.drawnCard).toBeNull();
      expect(s.G.prompt).toEqual({ kind: 'play', player: E }); // the Editor's turn, as before Hunt
    });

    it('N04 Howard Hunt (G8): momentum already gained this round: the step does nothing and the draw still happens', () => {
      const s = momentumGained(nixonTurn(['N04', 'N11']).deckTop(N, ['N19']), N);
      s.action(N, 'N04');
      expect(s.G.track.momentum).toBeNull();
      expect(s.G.prompt).toEqual({ kind: 'playDrawn', player: N });
      expect(s.G.drawnCard).toEqual({ player: N, card: 'N19' });
    });

    it("N04 Howard Hunt: a 5th momentum token from Hunt's step ends the game before the draw", () => {
      const s = nixonTurn(['N04', 'N11']).deckTop(N, ['N19']).markers(0, -3).momentum(0, 4);
      s.action(N, 'N04');
      expect(s.G.winner).toBe(N);
      expect(s.G.endReason).toBe('momentum');
      expect(s.G.momentum.cards[N]).toBe(5);
      expect(s.G.drawnCard).toBeNull();
      expect(s.G.decks[N].at(-1)).toBe('N19');
    });

    it('N04 Howard Hunt: an empty deck is refilled from the discard pile; with both empty nothing is drawn', () => {
      const s = nixonTurn(['N04', 'N11']);
      s.removed(N, [...s.G.decks[N]]).discard(N, ['N19']);
      s.action(N, 'N04');
      expect(s.G.drawnCard).toEqual({ player: N, card: 'N19' });
      expect(s.G.discards[N]).toEqual([]);

      const t = nixonTurn(['N04', 'N11']);
      t.removed(N, [...t.G.decks[N]]);
      t.action(N, 'N04');
      expect(t.G.drawnCard).toBeNull();
      expect(t.keys()).toContain('step.noCard');
      expect(whereIs(t, 'N04')).toBe('discard');
      expect(t.G.prompt).toEqual({ kind: 'play', player: N });
    });
  });

  it('N05 John Mitchell: a reaction, so no action on his turn (value only); answering an Editor event it cancels it to the discard pile', () => {
    const s = nixonTurn(['N05', 'N11']).markers(0, 0);
    expect(actionsOffered(s, N)).not.toContain('N05');
    s.refused(N, 'play', { card: 'N05', as: 'action' });
    s.value(N, 'N05', { kind: 'momentum' });
    expect(s.G.track.momentum).toBe(-4);
    expect(whereIs(s, 'N05')).toBe('discard');

    const r = editorTurn(['E39', 'E23'], ['N05', 'N11']).markers(0, 0);
    r.action(E, 'E39');
    expectPrompt(r, { kind: 'react', player: N, trigger: 'OPPONENT_EVENT_ACTION' });
    r.act(N, 'react', 'N05');
    expectPrompt(r, { kind: 'react', player: E }); // the Editor may answer Mitchell; E23 cannot, so he passes
    expect(offered(r, E, 'react')).toEqual([null]);
    r.pass(E);
    expect(r.G.track.momentum).toBe(0); // Saturday Night Massacre did not happen
    expect(whereIs(r, 'E39')).toBe('discard'); // unused, not removed
    expect(whereIs(r, 'N05')).toBe('discard');
    expect(r.G.hands[N]).toEqual(['N11']);
    expect(r.G.prompt).toEqual({ kind: 'play', player: N }); // Nixon's turn, as before the chain
  });

  it("N06 John Ehrlichman: sends 1 track token not on Nixon's side back to the bag; discarded", () => {
    const s = nixonTurn(['N06', 'N11']).track([
      { id: 'T02', pos: 2 },
      { id: 'T10', pos: 0, up: false },
      { id: 'T18', pos: -2 },
    ]);
    s.action(N, 'N06');
    expect(offered(s, N)).toEqual([{ tokens: [] }, { tokens: ['T02'] }, { tokens: ['T10'] }]);
    s.refused(N, 'choose', { tokens: ['T18'] }); // on his own side
    s.refused(N, 'choose', { tokens: ['T02', 'T10'] });
    s.act(N, 'choose', { tokens: ['T10'] });
    expect(s.G.bag).toContain('T10');
    expect(s.G.track.evidence.map((t) => t.id)).toEqual(['T02', 'T18']);
    // The face-down token goes back unseen: the public record does not name it.
    expect(s.G.log.find((l) => l.key === 'step.return')?.params).toEqual({ tokens: '', hidden: 1 });
    expect(JSON.stringify(s.G.log)).not.toContain('T10');
    expect(whereIs(s, 'N06')).toBe('discard');
  });

  describe('N07 Gambit', () => {
    const setup = (hand: string[]) =>
      nixonTurn(hand).track([
        { id: 'T02', pos: 1 },
        { id: 'T18', pos: 3 },
        { id: 'T10', pos: 0, up: false },
      ]);

    it('N07 Gambit: splits exactly 4 steps among up to 2 tokens, then recycles by removing a conspirator from hand (goes to discard)', () => {
      const s = setup(['N07', 'N02', 'N11']);
      s.action(N, 'N07');
      expectPrompt(s, { kind: 'choose', player: N, card: 'N07', step: { op: 'MOVE_EVIDENCE' } });
      s.refused(N, 'choose', { split: [{ token: 'T02', steps: 3 }] }); // must use all 4
      s.refused(N, 'choose', { split: [{ token: 'T02', steps: 2 }, { token: 'T18', steps: 1 }, { token: 'T10', steps: 1 }] }); // max 2
      s.refused(N, 'choose', { split: [{ token: 'T02', steps: 4 }, { token: 'T18', steps: 0 }] }); // ≥1 step each
      s.act(N, 'choose', { split: [{ token: 'T02', steps: 3 }, { token: 'T18', steps: 1 }] });
      expect(s.tokenPos('T02')).toBe(-2);
      expect(s.tokenPos('T18')).toBe(2);
      expect(s.tokenPos('T10')).toBe(0);
      expectPrompt(s, { kind: 'choose', player: N, card: 'N07', step: { op: 'GAMBIT_RECYCLE' } });
      expect(offered(s, N)).toEqual([{ card: null }, { card: 'N02' }]);
      s.refused(N, 'choose', { card: 'N11' }); // an event, not a conspirator
      s.act(N, 'choose', { card: 'N02' });
      expect(whereIs(s, 'N02')).toBe('removed');
      expect(whereIs(s, 'N07')).toBe('discard');
      expect(s.G.hands[N]).toEqual(['N11']);
    });

    it('N07 Gambit: declining the recycle removes Gambit and keeps the conspirator', () => {
      const s = setup(['N07', 'N02', 'N11']);
      s.action(N, 'N07').act(N, 'choose', { split: [{ token: 'T02', steps: 4 }] });
      expect(s.tokenPos('T02')).toBe(-3);
      s.act(N, 'choose', { card: null });
      expect(whereIs(s, 'N07')).toBe('removed');
      expect(s.G.hands[N]).toEqual(['N02', 'N11']);
    });

    it('N07 Gambit: without a conspirator in hand Gambit is removed; steps past space 5 are lost and the gained token is pinned', () => {
      const s = nixonTurn(['N07', 'N11']).track([{ id: 'T18', pos: -3 }]);
      s.action(N, 'N07'); // one eligible token: all 4 steps go to it, 2 are lost
      expect(s.tokenPos('T18')).toBeUndefined();
      expectPrompt(s, { kind: 'pin', player: N, tokens: ['T18'] });
      s.act(N, 'pin', { token: 'T18', space: 'A6' });
      expect(s.G.board.A6).toEqual({ token: 'T18', up: false });
      expect(whereIs(s, 'N07')).toBe('removed');
      expect(s.G.prompt).toEqual({ kind: 'play', player: N });
    });
  });

  describe('N08 A brilliant mood', () => {
    it("N08 A brilliant mood: refused on Nixon's first turn of the round (NOT_FIRST_TURN); its value is still playable", () => {
      const s = nixonTurn(['N08', 'N11'], [], 1);
      expect(actionsOffered(s, N)).not.toContain('N08');
      expect(actionsOffered(s, N)).toContain('N11');
      s.refused(N, 'play', { card: 'N08', as: 'action' });
      s.value(N, 'N08', { kind: 'momentum' });
      expect(s.G.track.momentum).toBe(-2);
      expect(whereIs(s, 'N08')).toBe('discard');
    });

    it("N08 A brilliant mood: momentum 2 steps, then the Editor's events are value-only (journalists keep their action); removed", () => {
      const s = nixonTurn(['N08', 'N11'], ['E39', 'E23', 'E27']).markers(0, 1);
      s.action(N, 'N08');
      expect(s.G.track.momentum).toBe(-1);
      expect(s.G.eventsRestricted).toBe(true);
      expect(whereIs(s, 'N08')).toBe('removed');
      expect(s.G.prompt).toEqual({ kind: 'play', player: E });
      expect(actionsOffered(s, E)).toEqual(['E23']);
      s.refused(E, 'play', { card: 'E39', as: 'action' });
      s.refused(E, 'play', { card: 'E27', as: 'action' });
      s.value(E, 'E39', { kind: 'momentum' });
      expect(s.G.track.momentum).toBe(0);
    });

    it('N08 A brilliant mood: the event lock ends with the cards phase', () => {
      const s = nixonTurn(['N08'], ['E31']).markers(2, 0);
      s.deckTop(E, ['E39']);
      s.action(N, 'N08');
      s.refused(E, 'play', { card: 'E31', as: 'action' });
      s.value(E, 'E31', { kind: 'initiative' }); // both hands are now empty: assessment, then round 2
      expect(s.G.round).toBe(2);
      expect(s.G.momentum.cards[N]).toBe(1); // A brilliant mood's momentum was won in step 3
      expect(s.G.eventsRestricted).toBe(false);
      expect(s.G.prompt).toEqual({ kind: 'play', player: E }); // the Editor won the initiative token
      expect(s.G.hands[E]).toContain('E39');
      expect(actionsOffered(s, E)).toContain('E39');
    });

    it("N08 A brilliant mood drawn by Hunt counts as the turn that drew it: blocked on Nixon's first turn, allowed later", () => {
      const first = nixonTurn(['N04', 'N11'], [], 1).deckTop(N, ['N08']).markers(0, 0);
      first.action(N, 'N04');
      expect(first.G.prompt).toEqual({ kind: 'playDrawn', player: N });
      expect(actionsOffered(first, N)).toEqual([]);
      first.refused(N, 'play', { card: 'N08', as: 'action' });

      const later = nixonTurn(['N04', 'N11'], [], 2).deckTop(N, ['N08']).markers(0, 0);
      later.action(N, 'N04');
      later.action(N, 'N08');
      expect(later.G.track.momentum).toBe(-4);
      expect(later.G.eventsRestricted).toBe(true);
      expect(whereIs(later, 'N08')).toBe('removed');
      expect(whereIs(later, 'N04')).toBe('discard');
    });
  });

  it('N09 1972 Presidential Election: splits exactly 2 steps among any tokens toward Nixon; removed', () => {
    const s = nixonTurn(['N09', 'N11']).track([
      { id: 'T02', pos: 1 },
      { id: 'T10', pos: 0, up: false },
      { id: 'T18', pos: 2 },
    ]);
    s.action(N, 'N09');
    s.refused(N, 'choose', { split: [{ token: 'T02', steps: 1 }] });
    s.refused(N, 'choose', { split: [{ token: 'T02', steps: 2 }, { token: 'T10', steps: 1 }] });
    s.act(N, 'choose', { split: [{ token: 'T02', steps: 1 }, { token: 'T10', steps: 1 }] });
    expect(s.G.track.evidence).toEqual([
      { id: 'T02', pos: 0, up: true },
      { id: 'T10', pos: -1, up: true },
      { id: 'T18', pos: 2, up: true },
    ]);
    expect(whereIs(s, 'N09')).toBe('removed');
  });

  it('N10 "A third-rate burglary": puts the momentum token on Nixon\'s space 2 wherever it is; nothing if it was gained', () => {
    const s = nixonTurn(['N10', 'N11']).markers(0, 3);
    s.action(N, 'N10');
    expect(s.G.track.momentum).toBe(-2);
    expect(s.G.track.initiative).toBe(0);
    expect(whereIs(s, 'N10')).toBe('removed');

    const g = momentumGained(nixonTurn(['N10', 'N11']), E);
    g.action(N, 'N10');
    expect(g.G.track.momentum).toBeNull();
    expect(g.G.momentum.cards).toEqual({ [E]: 1, [N]: 0 });
    expect(whereIs(g, 'N10')).toBe('removed');
  });

  it('N11 "I am not a crook": momentum 3 steps toward Nixon; reaching his space 5 gains it at once (extra steps lost); removed', () => {
    const s = nixonTurn(['N11', 'N12']).markers(0, -3).momentum(1, 2);
    s.action(N, 'N11');
    expect(s.G.track.momentum).toBeNull();
    expect(s.G.momentum.cards).toEqual({ [E]: 1, [N]: 3 });
    expect(whereIs(s, 'N11')).toBe('removed');

    const t = nixonTurn(['N11', 'N12']).markers(0, 2);
    t.action(N, 'N11');
    expect(t.G.track.momentum).toBe(-1);
  });

  it('N12 Executive privilege: pins Butterfield face down, then initiative 2 steps; a picture already on the board stays as it is', () => {
    const s = nixonTurn(['N12', 'N11']).markers(0, 0);
    s.action(N, 'N12');
    expect(s.G.informants.I_BUTTERFIELD).toBe('down');
    expect(s.G.track.initiative).toBe(-2);
    expect(whereIs(s, 'N12')).toBe('removed');

    const up = nixonTurn(['N12', 'N11']).markers(-3, 0).informant('I_BUTTERFIELD', 'up');
    up.action(N, 'N12');
    expect(up.G.informants.I_BUTTERFIELD).toBe('up'); // not flipped
    expect(up.keys()).toContain('informant.onBoard');
    expect(up.G.track.initiative).toBeNull(); // -5: gained, the initiative card turns at once
    expect(up.G.initiative).toBe(N);
    expect(whereIs(up, 'N12')).toBe('removed');
  });

  it('N13 Hush money: pins McCord face down, then up to 2 track tokens 1 step each toward Nixon', () => {
    const s = nixonTurn(['N13', 'N11']).track([
      { id: 'T02', pos: 1 },
      { id: 'T10', pos: 0, up: false },
      { id: 'T18', pos: 2 },
    ]);
    s.action(N, 'N13');
    expect(s.G.informants.I_MCCORD).toBe('down');
    expectPrompt(s, { kind: 'choose', player: N, card: 'N13' });
    s.refused(N, 'choose', { tokens: ['T02', 'T10', 'T18'] });
    s.act(N, 'choose', { tokens: ['T02', 'T10'] });
    expect(s.G.track.evidence).toEqual([
      { id: 'T02', pos: 0, up: true },
      { id: 'T10', pos: -1, up: true },
      { id: 'T18', pos: 2, up: true },
    ]);
    expect(whereIs(s, 'N13')).toBe('removed');
  });

  it('N14 The 18 1/2-minute gap: pins Woods face down, then sends 1 face-up green (or green two-colour) board token to the bag', () => {
    const s = nixonTurn(['N14', 'N11'])
      .pinned('A4', 'T18', true) // green
      .pinned('B03', 'T29', true) // green/blue
      .pinned('A2', 'T02', true) // blue
      .pinned('B01', 'T19', false); // green, face down
    s.action(N, 'N14');
    expect(s.G.informants.I_WOODS).toBe('down');
    expect(offered(s, N)).toEqual([{ spaces: [] }, { spaces: ['A4'] }, { spaces: ['B03'] }]);
    s.refused(N, 'choose', { spaces: ['A2'] });
    s.refused(N, 'choose', { spaces: ['B01'] });
    s.act(N, 'choose', { spaces: ['B03'] });
    expect(s.G.board.B03).toBeNull();
    expect(s.G.bag).toContain('T29');
    expect(s.G.board.A4).toEqual({ token: 'T18', up: true });
    expect(whereIs(s, 'N14')).toBe('removed');
  });

  it('N15 Martha Mitchell silenced: pins Martha Mitchell face down, then momentum 1 step toward Nixon', () => {
    const s = nixonTurn(['N15', 'N11']).markers(0, 1);
    s.action(N, 'N15');
    expect(s.G.informants.I_MMITCHELL).toBe('down');
    expect(s.G.track.momentum).toBe(0);
    expect(whereIs(s, 'N15')).toBe('removed');
  });

  it('N16 The Dean Report: pins Dean face down (a face-down Dean stays, nothing flips), then momentum 1 step', () => {
    const s = nixonTurn(['N16', 'N11']).markers(0, 0);
    s.action(N, 'N16');
    expect(s.G.informants.I_DEAN).toBe('down');
    expect(s.G.track.momentum).toBe(-1);

    const d = nixonTurn(['N16', 'N11']).markers(0, -4).informant('I_DEAN', 'down');
    d.action(N, 'N16');
    expect(d.G.informants.I_DEAN).toBe('down');
    expect(d.G.momentum.cards[N]).toBe(1);
    expect(whereIs(d, 'N16')).toBe('removed');
  });

  it("N17 Maurice Stans: pins Sloan face down, then sends 1 track token not on Nixon's side back to the bag", () => {
    const s = nixonTurn(['N17', 'N11']).track([
      { id: 'T02', pos: 1 },
      { id: 'T18', pos: -1 },
    ]);
    s.action(N, 'N17');
    expect(s.G.informants.I_SLOAN).toBe('down');
    expect(offered(s, N)).toEqual([{ tokens: [] }, { tokens: ['T02'] }]);
    s.act(N, 'choose', { tokens: ['T02'] });
    expect(s.G.bag).toContain('T02');
    expect(s.G.track.evidence.map((t) => t.id)).toEqual(['T18']);
    expect(whereIs(s, 'N17')).toBe('removed');
  });

  it("N18 Patrick Gray: pins Baldwin face down, then sends 1 track token not on Nixon's side back to the bag (none: skipped)", () => {
    const s = nixonTurn(['N18', 'N11']).track([
      { id: 'T10', pos: 0, up: false },
      { id: 'T18', pos: -1 },
    ]);
    s.action(N, 'N18');
    expect(s.G.informants.I_BALDWIN).toBe('down');
    s.act(N, 'choose', { tokens: ['T10'] });
    expect(s.G.bag).toContain('T10');
    expect(whereIs(s, 'N18')).toBe('removed');

    const none = nixonTurn(['N18', 'N11']).track([{ id: 'T18', pos: -1 }]);
    none.action(N, 'N18');
    expect(none.G.informants.I_BALDWIN).toBe('down');
    expect(none.G.track.evidence).toEqual([{ id: 'T18', pos: -1, up: true }]);
    expect(none.G.prompt).toEqual({ kind: 'play', player: N });
    expect(whereIs(none, 'N18')).toBe('removed');
  });

  it('N19 CIA stalls the FBI: turns 1 face-up board token face down; its red "1" does not trigger again', () => {
    const s = nixonTurn(['N19', 'N11']).markers(0, 0).pinned('A2', 'T01', true).pinned('B02', 'T03', false);
    s.action(N, 'N19');
    expect(offered(s, N)).toEqual([{ spaces: [] }, { spaces: ['A2'] }]);
    s.refused(N, 'choose', { spaces: ['B02'] });
    s.act(N, 'choose', { spaces: ['A2'] });
    expect(s.G.board.A2).toEqual({ token: 'T01', up: false });
    expect(s.G.track.momentum).toBe(0);
    expect(whereIs(s, 'N19')).toBe('removed');
  });

  it('N20 Enemies List: turns 1 face-up picture face down; pictures in the supply are not affected', () => {
    const s = nixonTurn(['N20', 'N11']).informant('I_DEAN', 'up').informant('I_WOODS', 'down');
    s.action(N, 'N20');
    expect(offered(s, N)).toEqual([{ informants: [] }, { informants: ['I_DEAN'] }]);
    s.refused(N, 'choose', { informants: ['I_SLOAN'] });
    s.refused(N, 'choose', { informants: ['I_WOODS'] });
    s.act(N, 'choose', { informants: ['I_DEAN'] });
    expect(s.G.informants.I_DEAN).toBe('down');
    expect(s.G.informants.I_WOODS).toBe('down');
    expect(s.G.informants.I_SLOAN).toBe('supply');
    expect(whereIs(s, 'N20')).toBe('removed');
  });
});
