/**
 * The reaction chains (docs/RULES.md R16, K4–K6: the chain, each reaction cancelling the card below it): each reaction
 * cancels the card directly below it; a cancelled reaction lets the card below resolve after all. A
 * reaction is an extra card from hand and play continues with whoever was next before the chain.
 */
import { describe, expect, it } from 'vitest';
import { playerView } from '../../../game/view';
import { E, expectPrompt, N, nixonTurn, editorTurn, offered, whereIs } from './setup';

describe('reaction chains', () => {
  it('R16: a window opens whenever the reactor holds any card (only "pass" if none reacts); the reactor keeps his next turn', () => {
    const s = nixonTurn(['N06', 'N11'], ['E39', 'E23']).track([{ id: 'T02', pos: 1 }]);
    s.action(N, 'N06');
    expectPrompt(s, { kind: 'react', player: E, trigger: 'OPPONENT_CONSPIRATOR_ACTION' });
    expect(offered(s, E, 'react')).toEqual([null]);
    s.refused(E, 'react', 'E39');
    s.pass(E);
    s.act(N, 'choose', { tokens: ['T02'] });
    expect(s.G.bag).toContain('T02');
    expect(s.G.prompt).toEqual({ kind: 'play', player: E });
    expect(s.G.hands[E]).toEqual(['E39', 'E23']);
  });

  it('E25 Ben Bradlee vs a conspirator: cancelled and removed, Bradlee discarded; Mitchell can never answer Bradlee', () => {
    const s = nixonTurn(['N02', 'N05', 'N11'], ['E25', 'E39']).track([{ id: 'T02', pos: 1 }]);
    s.action(N, 'N02');
    s.act(E, 'react', 'E25');
    // A journalist's action is no trigger for Mitchell: no window for Nixon although he holds him.
    expect(s.G.prompt).toEqual({ kind: 'play', player: E });
    expect(s.G.hands[N]).toEqual(['N05', 'N11']);
    expect(s.tokenPos('T02')).toBe(1);
    expect(whereIs(s, 'N02')).toBe('removed');
    expect(whereIs(s, 'E25')).toBe('discard');
    expect(s.G.chain).toEqual([]);
  });

  it('N05 Mitchell vs Mass demonstration: the conspirator resolves after all; Mass demonstration goes to the discard pile unused', () => {
    const s = nixonTurn(['N06', 'N05', 'N11'], ['E34', 'E39']).track([{ id: 'T02', pos: 2 }]);
    s.action(N, 'N06');
    s.act(E, 'react', 'E34');
    expectPrompt(s, { kind: 'react', player: N, trigger: 'OPPONENT_EVENT_ACTION' });
    expect(offered(s, N, 'react')).toEqual([null, 'N05']);
    s.act(N, 'react', 'N05');
    // Mitchell's reaction is a conspirator action: the Editor may answer again (he holds no reaction now).
    expectPrompt(s, { kind: 'react', player: E, trigger: 'OPPONENT_CONSPIRATOR_ACTION' });
    expect(s.G.chain.map((e) => e.card)).toEqual(['N06', 'E34', 'N05']); // public "in play" area
    s.pass(E);
    expectPrompt(s, { kind: 'choose', player: N, card: 'N06' }); // Ehrlichman restored
    s.act(N, 'choose', { tokens: ['T02'] });
    expect(s.G.bag).toContain('T02');
    expect(whereIs(s, 'N06')).toBe('discard');
    expect(whereIs(s, 'E34')).toBe('discard'); // cancelled event: discarded, not removed
    expect(whereIs(s, 'N05')).toBe('discard');
    expect(s.G.prompt).toEqual({ kind: 'play', player: E });
  });

  it('E25 Bradlee vs N05 Mitchell: the Editor event Mitchell blocked happens after all; Mitchell is removed', () => {
    const s = editorTurn(['E39', 'E25', 'E23'], ['N05', 'N11']).markers(0, 0);
    s.action(E, 'E39');
    s.act(N, 'react', 'N05');
    expect(offered(s, E, 'react')).toEqual([null, 'E25']);
    s.act(E, 'react', 'E25');
    expect(s.G.track.momentum).toBe(2); // Saturday Night Massacre restored
    expect(whereIs(s, 'E39')).toBe('removed'); // it resolved normally: an event is removed
    expect(whereIs(s, 'N05')).toBe('removed');
    expect(whereIs(s, 'E25')).toBe('discard');
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
    expect(s.G.hands[E]).toEqual(['E23']);
  });

  it('E34 Mass demonstration vs N05 Mitchell: the event is restored, Mitchell removed, Mass demonstration removed', () => {
    const s = editorTurn(['E39', 'E34', 'E23'], ['N05', 'N11']).markers(0, -1);
    s.action(E, 'E39');
    s.act(N, 'react', 'N05');
    s.act(E, 'react', 'E34');
    expectPrompt(s, { kind: 'react', player: N, trigger: 'OPPONENT_EVENT_ACTION' }); // Mass demonstration is an event
    expect(offered(s, N, 'react')).toEqual([null]); // no second Mitchell
    s.pass(N);
    expect(s.G.track.momentum).toBe(2);
    expect(whereIs(s, 'E39')).toBe('removed');
    expect(whereIs(s, 'N05')).toBe('removed');
    expect(whereIs(s, 'E34')).toBe('removed');
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
  });

  it('stack of four: conspirator ← Mass demonstration ← Mitchell ← Bradlee: Mitchell removed, so Mass demonstration cancels the conspirator', () => {
    const s = nixonTurn(['N02', 'N05', 'N11'], ['E34', 'E25', 'E39']).track([{ id: 'T02', pos: 1 }]);
    s.action(N, 'N02');
    s.act(E, 'react', 'E34');
    s.act(N, 'react', 'N05');
    s.act(E, 'react', 'E25');
    expect(s.tokenPos('T02')).toBe(1); // Colson never happened
    expect(whereIs(s, 'N02')).toBe('removed');
    expect(whereIs(s, 'N05')).toBe('removed');
    expect(whereIs(s, 'E34')).toBe('removed');
    expect(whereIs(s, 'E25')).toBe('discard');
    expect(s.G.prompt).toEqual({ kind: 'play', player: E });
  });

  describe('"Follow the money!"', () => {
    it('E42 redirect: the named token moves from its start toward the Editor by the card value; reaching space 5 the Editor gains and pins it', () => {
      const s = nixonTurn(['N19', 'N11'], ['E42', 'E39']).markers(0, 0).track([{ id: 'T01', pos: 3 }]);
      s.value(N, 'N19', { kind: 'evidence', token: 'T01' });
      s.act(E, 'react', 'E42').pass(N);
      expect(s.tokenPos('T01')).toBeUndefined(); // 3 + 2 = 5: gained by the Editor
      expectPrompt(s, { kind: 'pin', player: E, tokens: ['T01'] });
      s.act(E, 'pin', { token: 'T01', space: 'A2' });
      expect(s.G.board.A2).toEqual({ token: 'T01', up: true });
      expect(s.G.track.momentum).toBe(1); // its red "1" pulls toward the Editor
      expect(whereIs(s, 'N19')).toBe('discard'); // unused
      expect(whereIs(s, 'E42')).toBe('removed');
      expect(s.G.prompt).toEqual({ kind: 'play', player: E });
    });

    it('K6: a face-down token Nixon names is turned face up before the window (the Editor sees it); passing lets the move happen', () => {
      const s = nixonTurn(['N16', 'N11'], ['E42', 'E39']).track([{ id: 'T10', pos: 0, up: false }]);
      s.value(N, 'N16', { kind: 'evidence', token: 'T10' });
      expectPrompt(s, { kind: 'react', player: E, trigger: 'OPPONENT_VALUE_MOVES_EVIDENCE' });
      expect(s.G.track.evidence).toEqual([{ id: 'T10', pos: 0, up: true }]);
      expect(playerView(s.G, E).track.evidence).toEqual([{ id: 'T10', pos: 0, up: true }]);
      s.pass(E);
      expect(s.tokenPos('T10')).toBe(-2);
      expect(whereIs(s, 'N16')).toBe('discard');
    });

    it('N05 Mitchell may answer "Follow the money!": it goes to the discard pile and Nixon\'s value move happens', () => {
      const s = nixonTurn(['N19', 'N05', 'N11'], ['E42', 'E39']).track([{ id: 'T02', pos: 1 }]);
      s.value(N, 'N19', { kind: 'evidence', token: 'T02' });
      s.act(E, 'react', 'E42');
      expect(offered(s, N, 'react')).toEqual([null, 'N05']);
      s.act(N, 'react', 'N05');
      s.pass(E);
      expect(s.tokenPos('T02')).toBe(-1); // 1 - 2: Nixon's move after all
      expect(whereIs(s, 'E42')).toBe('discard');
      expect(whereIs(s, 'N05')).toBe('discard');
      expect(whereIs(s, 'N19')).toBe('discard');
      expect(s.G.prompt).toEqual({ kind: 'play', player: E });
    });
  });

  it('N05 Mitchell may answer E35 The system works: nothing is replayed and The system works goes to the discard pile', () => {
    const s = editorTurn(['E35', 'E23'], ['N05', 'N11']).markers(0, 0);
    s.removed(E, ['E39']);
    s.action(E, 'E35');
    s.act(N, 'react', 'N05').pass(E);
    expect(s.G.track.momentum).toBe(0);
    expect(whereIs(s, 'E35')).toBe('discard');
    expect(whereIs(s, 'E39')).toBe('removed');
    expect(whereIs(s, 'N05')).toBe('discard');
  });

  describe('A brilliant mood locks the Editor\'s reaction events', () => {
    const locked = () => {
      const s = nixonTurn(['N08', 'N02', 'N19', 'N11'], ['E34', 'E42', 'E25', 'E23', 'E39']).track([{ id: 'T02', pos: 1 }]);
      s.action(N, 'N08');
      expect(s.G.eventsRestricted).toBe(true);
      s.value(E, 'E39', { kind: 'initiative' });
      return s;
    };

    it('N08 lock: Mass demonstration cannot answer a conspirator, Bradlee (a journalist) still can', () => {
      const s = locked();
      s.action(N, 'N02');
      expectPrompt(s, { kind: 'react', player: E });
      expect(offered(s, E, 'react')).toEqual([null, 'E25']);
      s.refused(E, 'react', 'E34');
      s.act(E, 'react', 'E25');
      expect(whereIs(s, 'N02')).toBe('removed');
    });

    it('N08 lock: "Follow the money!" cannot answer a value move (ruling D3: no window opens) and the move happens', () => {
      const s = locked();
      s.value(N, 'N19', { kind: 'evidence', token: 'T02' });
      expect(s.G.prompt).toEqual({ kind: 'play', player: E });
      expect(s.tokenPos('T02')).toBe(-1);
      expect(s.G.hands[E]).toContain('E42');
    });
  });

  describe('Howard Hunt and nested windows (K5)', () => {
    it('N04 Hunt: the drawn card can trigger a reaction; Bradlee cancels it and Hunt is still discarded', () => {
      const s = nixonTurn(['N04', 'N11'], ['E25', 'E39']).markers(0, 0).deckTop(N, ['N02']).track([{ id: 'T02', pos: 1 }]);
      s.action(N, 'N04').pass(E);
      expect(s.G.track.momentum).toBe(-2);
      s.action(N, 'N02'); // the drawn Colson
      expectPrompt(s, { kind: 'react', player: E, trigger: 'OPPONENT_CONSPIRATOR_ACTION' });
      s.act(E, 'react', 'E25');
      expect(s.tokenPos('T02')).toBe(1);
      expect(whereIs(s, 'N02')).toBe('removed');
      expect(whereIs(s, 'N04')).toBe('discard');
      expect(whereIs(s, 'E25')).toBe('discard');
      expect(s.G.prompt).toEqual({ kind: 'play', player: E });
    });

    it('N04 Hunt: a drawn value move on evidence opens the "Follow the money!" window', () => {
      const s = nixonTurn(['N04', 'N11'], ['E42', 'E39']).deckTop(N, ['N19']).track([{ id: 'T02', pos: 0, up: true }]);
      s.action(N, 'N04').pass(E);
      s.value(N, 'N19', { kind: 'evidence', token: 'T02' });
      s.act(E, 'react', 'E42').pass(N);
      expect(s.tokenPos('T02')).toBe(2);
      expect(whereIs(s, 'N19')).toBe('discard');
      expect(whereIs(s, 'N04')).toBe('discard');
      expect(whereIs(s, 'E42')).toBe('removed');
    });

    it('N04 Hunt: a reaction card drawn by Hunt can only be used for its value', () => {
      const s = nixonTurn(['N04', 'N11']).markers(0, 0).deckTop(N, ['N05']);
      s.action(N, 'N04');
      expect(s.G.prompt).toEqual({ kind: 'playDrawn', player: N });
      expect(s.legal(N).every((m) => (m.args[0] as { as: string }).as === 'value')).toBe(true);
      s.refused(N, 'play', { card: 'N05', as: 'action' });
      s.value(N, 'N05', { kind: 'initiative' });
      expect(s.G.track.initiative).toBe(-4);
      expect(whereIs(s, 'N05')).toBe('discard');
    });

    it('N04 Hunt: if Hunt is cancelled neither his momentum step nor his draw happens', () => {
      const s = nixonTurn(['N04', 'N11'], ['E25', 'E39']).markers(0, 0).deckTop(N, ['N19']);
      const deck = [...s.G.decks[N]];
      s.action(N, 'N04').act(E, 'react', 'E25');
      expect(s.G.track.momentum).toBe(0);
      expect(s.G.decks[N]).toEqual(deck);
      expect(s.G.drawnCard).toBeNull();
      expect(whereIs(s, 'N04')).toBe('removed');
      expect(s.G.prompt).toEqual({ kind: 'play', player: E });
    });

    it('N04 Hunt cancelled by Mass demonstration and restored by Mitchell resolves in full', () => {
      const s = nixonTurn(['N04', 'N05', 'N11'], ['E34', 'E39']).markers(0, 0).deckTop(N, ['N19']);
      s.action(N, 'N04').act(E, 'react', 'E34').act(N, 'react', 'N05').pass(E);
      expect(s.G.track.momentum).toBe(-2);
      expect(s.G.prompt).toEqual({ kind: 'playDrawn', player: N });
      s.value(N, 'N19', { kind: 'momentum' });
      expect(s.G.track.momentum).toBe(-4);
      expect(whereIs(s, 'N04')).toBe('discard');
      expect(whereIs(s, 'E34')).toBe('discard');
    });

    it('N07 Gambit drawn by Hunt may recycle', () => {
      const s = nixonTurn(['N04', 'N02', 'N11']).deckTop(N, ['N07']).track([{ id: 'T02', pos: 1 }]);
      s.action(N, 'N04');
      s.action(N, 'N07'); // one eligible token: the 4 steps go to it
      expect(s.tokenPos('T02')).toBe(-3);
      expectPrompt(s, { kind: 'choose', player: N, card: 'N07', step: { op: 'GAMBIT_RECYCLE' } });
      s.act(N, 'choose', { card: 'N02' });
      expect(whereIs(s, 'N07')).toBe('discard');
      expect(whereIs(s, 'N02')).toBe('removed');
      expect(whereIs(s, 'N04')).toBe('discard');
      expect(s.G.hands[N]).toEqual(['N11']);
    });
  });
});
