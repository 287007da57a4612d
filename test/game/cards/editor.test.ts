/**
 * One test per Editor card (E23–E42): each card's value/action as docs/COMPONENTS.md lists it and docs/RULES.md R15,
 * R16, K4–K9, K18 define it. Known cards (R) are checked against the rulebook's rulings (§2.4),
 * reconstructed ones (D/S/H) against the primitives of their table row. Reaction chains: reactions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { actionsOffered, bagOnly, E, editorTurn, expectPrompt, N, nixonTurn, offered, whereIs } from './setup';

describe('Editor cards', () => {
  it('E23 Bob Woodward: splits exactly 3 steps among up to 2 tokens, face-down ones named blind; a journalist (no Mitchell window), discarded', () => {
    const s = editorTurn(['E23', 'E39'], ['N05', 'N11']).track([
      { id: 'T02', pos: 1 },
      { id: 'T10', pos: 0, up: false },
      { id: 'T11', pos: 0, up: false },
    ]);
    s.action(E, 'E23');
    expectPrompt(s, { kind: 'choose', player: E, card: 'E23' }); // no reaction window for Nixon
    s.refused(E, 'choose', { split: [{ token: 'T10', steps: 3 }] }); // the Editor cannot name a face-down id
    s.refused(E, 'choose', { split: [{ token: 'T02', steps: 2 }] }); // must use all 3 steps
    s.refused(E, 'choose', { split: [{ token: 'T02', steps: 1 }, { token: { hidden: 0 }, steps: 1 }, { token: { hidden: 1 }, steps: 1 }] });
    s.refused(E, 'choose', { split: [{ token: 'T02', steps: 2 }, { token: { hidden: 2 }, steps: 1 }] }); // only 2 face down
    s.act(E, 'choose', { split: [{ token: 'T02', steps: 2 }, { token: { hidden: 0 }, steps: 1 }] });
    expect(s.tokenPos('T02')).toBe(3);
    const moved = s.G.track.evidence.filter((t) => t.pos === 1);
    const stayed = s.G.track.evidence.filter((t) => t.pos === 0);
    expect(moved).toHaveLength(1);
    expect(moved[0].up).toBe(true); // turned face up as it moved
    expect(stayed).toHaveLength(1);
    expect(stayed[0].up).toBe(false);
    expect(whereIs(s, 'E23')).toBe('discard');
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
  });

  it('E24 Carl Bernstein: turns every face-down track token face up, then 1 token 2 steps toward the Editor; discarded', () => {
    const s = editorTurn(['E24', 'E39']).track([
      { id: 'T10', pos: 0, up: false },
      { id: 'T18', pos: -1 },
      { id: 'T02', pos: 4 },
    ]);
    s.action(E, 'E24');
    expect(s.G.track.evidence.every((t) => t.up)).toBe(true);
    expect(offered(s, E)).toEqual([{ tokens: [] }, { tokens: ['T10'] }, { tokens: ['T18'] }, { tokens: ['T02'] }]);
    s.refused(E, 'choose', { tokens: ['T10', 'T18'] }); // max 1
    s.act(E, 'choose', { tokens: ['T02'] }); // +6: gained at once, pinned face up
    expectPrompt(s, { kind: 'pin', player: E, tokens: ['T02'] });
    s.act(E, 'pin', { token: 'T02', space: 'A2' });
    expect(s.G.board.A2).toEqual({ token: 'T02', up: true });
    expect(s.G.track.evidence).toEqual([
      { id: 'T10', pos: 0, up: true },
      { id: 'T18', pos: -1, up: true },
    ]);
    expect(whereIs(s, 'E24')).toBe('discard');
  });

  it("E25 Ben Bradlee: a reaction, value only on the Editor's turn; answering a conspirator it cancels it and removes it; Bradlee is discarded", () => {
    const s = editorTurn(['E25', 'E39']).markers(0, 0);
    expect(actionsOffered(s, E)).not.toContain('E25');
    s.refused(E, 'play', { card: 'E25', as: 'action' });
    s.value(E, 'E25', { kind: 'momentum' });
    expect(s.G.track.momentum).toBe(3);
    expect(whereIs(s, 'E25')).toBe('discard');

    const r = nixonTurn(['N02', 'N05'], ['E25', 'E39']).track([{ id: 'T02', pos: 1 }]);
    r.action(N, 'N02');
    expectPrompt(r, { kind: 'react', player: E, trigger: 'OPPONENT_CONSPIRATOR_ACTION' });
    expect(offered(r, E, 'react')).toEqual([null, 'E25']);
    r.act(E, 'react', 'E25');
    expect(r.G.track.evidence).toEqual([{ id: 'T02', pos: 1, up: true }]); // Colson did not happen
    expect(whereIs(r, 'N02')).toBe('removed');
    expect(whereIs(r, 'E25')).toBe('discard');
    expect(r.G.prompt).toEqual({ kind: 'play', player: E }); // the Editor's turn comes as before
    expect(r.G.hands[E]).toEqual(['E39']);
  });

  it('E26 Deep Throat: turns every face-down track token face up, then 1 token 3 steps toward the Editor; removed', () => {
    const s = editorTurn(['E26', 'E39'], ['N11']).track([
      { id: 'T10', pos: 0, up: false },
      { id: 'T18', pos: -2 },
    ]);
    s.action(E, 'E26');
    expectPrompt(s, { kind: 'react', player: N, trigger: 'OPPONENT_EVENT_ACTION' }); // an event: Nixon may answer
    s.pass(N);
    expect(s.G.track.evidence.every((t) => t.up)).toBe(true);
    expect(offered(s, E)).toEqual([{ tokens: [] }, { tokens: ['T10'] }, { tokens: ['T18'] }]);
    s.act(E, 'choose', { tokens: ['T18'] });
    expect(s.tokenPos('T18')).toBe(1);
    expect(s.tokenPos('T10')).toBe(0);
    expect(whereIs(s, 'E26')).toBe('removed');
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
  });

  const pictures: [string, string, string][] = [
    ['E27', 'Alexander Butterfield', 'I_BUTTERFIELD'],
    ['E28', 'Hugh Sloan', 'I_SLOAN'],
    ['E29', 'Martha Mitchell', 'I_MMITCHELL'],
    ['E30', 'Rose Mary Woods', 'I_WOODS'],
    ['E31', 'John Dean', 'I_DEAN'],
    ['E32', 'Alfred Baldwin', 'I_BALDWIN'],
    ['E33', 'James McCord', 'I_MCCORD'],
  ];
  for (const [id, name, informant] of pictures)
    it(`${id} ${name}: pins the picture face up; already on the board (either face) nothing happens and the card is still removed`, () => {
      const s = editorTurn([id, 'E39']);
      s.action(E, id);
      expect(s.G.informants[informant]).toBe('up');
      expect(Object.entries(s.G.informants).filter(([, v]) => v !== 'supply')).toEqual([[informant, 'up']]);
      expect(whereIs(s, id)).toBe('removed');
      expect(s.G.prompt).toEqual({ kind: 'play', player: E }); // Nixon holds no card

      for (const face of ['down', 'up'] as const) {
        const t = editorTurn([id, 'E39']).informant(informant, face);
        t.action(E, id);
        expect(t.G.informants[informant]).toBe(face); // not flipped
        expect(t.keys()).toContain('informant.onBoard');
        expect(whereIs(t, id)).toBe('removed');
      }
    });

  it('E31 John Dean: pinning a second connected picture wins at once (R26)', () => {
    const s = editorTurn(['E31', 'E39'], ['N11'])
      .informant('I_WOODS', 'up')
      .pinned('B09', 'T10', true) // Woods - B09 (yellow) - A5 (blue) - Nixon
      .pinned('A5', 'T02', true)
      .pinned('B06', 'T03', true) // Dean - B06 (blue) - A3 (yellow) - Nixon
      .pinned('A3', 'T11', true);
    s.action(E, 'E31').pass(N);
    expect(s.G.winner).toBe(E);
    expect(s.G.endReason).toBe('connected');
    expect(s.G.connected).toEqual(['I_DEAN', 'I_WOODS']);
    expect(s.G.prompt).toBeNull();
  });

  it("E34 Mass demonstration: a reaction, value only on the Editor's turn; answering a conspirator it removes it; Mass demonstration is removed", () => {
    const s = editorTurn(['E34', 'E39']).track([{ id: 'T18', pos: 0, up: true }]);
    s.refused(E, 'play', { card: 'E34', as: 'action' });
    s.value(E, 'E34', { kind: 'evidence', token: 'T18' });
    expect(s.tokenPos('T18')).toBe(1);
    expect(whereIs(s, 'E34')).toBe('discard');

    const r = nixonTurn(['N06', 'N11'], ['E34', 'E39']).track([{ id: 'T02', pos: 1 }]);
    r.action(N, 'N06');
    r.act(E, 'react', 'E34');
    expectPrompt(r, { kind: 'react', player: N, trigger: 'OPPONENT_EVENT_ACTION' }); // Nixon may answer an event
    r.pass(N);
    expect(r.G.track.evidence).toEqual([{ id: 'T02', pos: 1, up: true }]); // Ehrlichman did not happen
    expect(whereIs(r, 'N06')).toBe('removed');
    expect(whereIs(r, 'E34')).toBe('removed');
    expect(r.G.prompt).toEqual({ kind: 'play', player: E });
  });

  describe('E35 The system works', () => {
    it('E35 The system works: replays one of the Editor\'s removed events (not reactions, requirements re-checked); both stay removed', () => {
      const s = editorTurn(['E35', 'E23'], ['N11']).markers(0, 0).momentum(0, 2);
      s.removed(E, ['E39', 'E41', 'E27', 'E42', 'E34']);
      s.action(E, 'E35').pass(N);
      expectPrompt(s, { kind: 'choose', player: E, card: 'E35', step: { op: 'REPLAY_REMOVED_EVENT' } });
      // United States v. Nixon needs 3 Nixon momentum tokens (he has 2); reactions cannot be replayed.
      expect(offered(s, E)).toEqual([{ card: 'E39' }, { card: 'E27' }]);
      for (const card of ['E41', 'E42', 'E34', 'E35', 'E23', 'N11']) s.refused(E, 'choose', { card });
      s.act(E, 'choose', { card: 'E39' });
      expect(s.G.track.momentum).toBe(2); // Saturday Night Massacre carried out
      expect(s.G.prompt).toEqual({ kind: 'play', player: N }); // no second reaction window
      expect(whereIs(s, 'E39')).toBe('removed');
      expect(whereIs(s, 'E35')).toBe('removed');
    });

    it('E35 The system works: a replayed card with a requirement is eligible once it holds (United States v. Nixon at 3)', () => {
      const s = editorTurn(['E35', 'E23']).momentum(0, 3).pinned('B02', 'T03', false);
      s.removed(E, ['E41']);
      s.action(E, 'E35'); // the only eligible card is chosen at once
      expectPrompt(s, { kind: 'choose', player: E, card: 'E41', step: { op: 'FLIP_BOARD_EVIDENCE' } });
      s.act(E, 'choose', { spaces: ['B02'] });
      expect(s.G.board.B02).toEqual({ token: 'T03', up: true });
      expect(whereIs(s, 'E41')).toBe('removed');
      expect(whereIs(s, 'E35')).toBe('removed');
    });

    it('E35 The system works: with nothing eligible nothing happens and the card is still removed', () => {
      const s = editorTurn(['E35', 'E23']).markers(0, 0).momentum(0, 2);
      s.removed(E, ['E41', 'E42']);
      s.discard(E, ['E39']); // a discarded event is not removed: not eligible
      const before = structuredClone(s.G.track);
      s.action(E, 'E35');
      expect(s.keys()).toContain('step.nothing');
      expect(s.G.track).toEqual(before);
      expect(whereIs(s, 'E35')).toBe('removed');
      expect(s.G.prompt).toEqual({ kind: 'play', player: E });
    });
  });

  it('E36 Senate Watergate Committee: pins Dean face up, then turns 1 face-down picture face up (which may be Dean himself)', () => {
    const s = editorTurn(['E36', 'E39']).informant('I_WOODS', 'down').informant('I_SLOAN', 'up');
    s.action(E, 'E36');
    expect(s.G.informants.I_DEAN).toBe('up');
    expect(offered(s, E)).toEqual([{ informants: [] }, { informants: ['I_WOODS'] }]);
    s.refused(E, 'choose', { informants: ['I_SLOAN'] });
    s.refused(E, 'choose', { informants: ['I_BALDWIN'] }); // in the supply
    s.act(E, 'choose', { informants: ['I_WOODS'] });
    expect(s.G.informants.I_WOODS).toBe('up');
    expect(s.G.informants.I_BALDWIN).toBe('supply');
    expect(whereIs(s, 'E36')).toBe('removed');

    const d = editorTurn(['E36', 'E39']).informant('I_DEAN', 'down');
    d.action(E, 'E36');
    expect(d.G.informants.I_DEAN).toBe('down'); // the pin does not flip him
    expect(offered(d, E)).toEqual([{ informants: [] }, { informants: ['I_DEAN'] }]);
    d.act(E, 'choose', { informants: ['I_DEAN'] });
    expect(d.G.informants.I_DEAN).toBe('up');
  });

  it('E37 The Dahlberg check: draws 3, may pin 1 blue (a two-colour token with blue counts, on either colour) face up', () => {
    const s = editorTurn(['E37', 'E39']).markers(0, 0);
    bagOnly(s, ['T02', 'T10', 'T29']);
    s.action(E, 'E37');
    expect([...s.G.peek!.tokens].sort()).toEqual(['T02', 'T10', 'T29']);
    expect(offered(s, E)).toEqual(expect.arrayContaining([{ tokens: [] }]));
    expect(offered(s, E)).toHaveLength(3); // none, T02 or T29: the yellow T10 is not offered
    s.refused(E, 'choose', { tokens: ['T10'] });
    s.refused(E, 'choose', { tokens: ['T02', 'T29'] });
    s.act(E, 'choose', { tokens: ['T29'] });
    expect([...s.G.bag].sort()).toEqual(['T02', 'T10']);
    s.act(E, 'pin', { token: 'T29', space: 'A4' }); // green/blue on a green space
    expect(s.G.board.A4).toEqual({ token: 'T29', up: true });
    expect(s.G.track.momentum).toBe(1); // its red "1"
    expect(whereIs(s, 'E37')).toBe('removed');
  });

  it('E38 Judge John Sirica: pins McCord face up, then sends 1 face-down board token back to the bag', () => {
    const s = editorTurn(['E38', 'E39']).pinned('B02', 'T03', false).pinned('A2', 'T02', true);
    s.action(E, 'E38');
    expect(s.G.informants.I_MCCORD).toBe('up');
    expect(offered(s, E)).toEqual([{ spaces: [] }, { spaces: ['B02'] }]);
    s.refused(E, 'choose', { spaces: ['A2'] });
    s.act(E, 'choose', { spaces: ['B02'] });
    expect(s.G.board.B02).toBeNull();
    expect(s.G.bag).toContain('T03');
    expect(s.G.board.A2).toEqual({ token: 'T02', up: true });
    expect(whereIs(s, 'E38')).toBe('removed');
  });

  it("E39 Saturday Night Massacre: puts the momentum token on the Editor's space 2 wherever it is; removed", () => {
    const s = editorTurn(['E39', 'E23']).markers(-1, -3);
    s.action(E, 'E39');
    expect(s.G.track.momentum).toBe(2);
    expect(s.G.track.initiative).toBe(-1);
    expect(whereIs(s, 'E39')).toBe('removed');
  });

  it('E40 The Smoking Gun tape: needs Nixon to hold 2 momentum tokens; then draws 2 and pins 1 face up', () => {
    const no = editorTurn(['E40', 'E39']).momentum(3, 1);
    expect(actionsOffered(no, E)).not.toContain('E40');
    no.refused(E, 'play', { card: 'E40', as: 'action' });

    const s = editorTurn(['E40', 'E39']).momentum(0, 2);
    bagOnly(s, ['T02', 'T10']);
    expect(actionsOffered(s, E)).toContain('E40');
    s.action(E, 'E40');
    s.refused(E, 'choose', { tokens: ['T02', 'T10'] });
    s.act(E, 'choose', { tokens: ['T10'] });
    expect(s.G.bag).toEqual(['T02']);
    s.refused(E, 'pin', { token: 'T10', space: 'A2' }); // blue space
    s.act(E, 'pin', { token: 'T10', space: 'A1' });
    expect(s.G.board.A1).toEqual({ token: 'T10', up: true });
    expect(whereIs(s, 'E40')).toBe('removed');
  });

  it('E41 United States v. Nixon: needs Nixon to hold 3 momentum tokens; then turns 1 face-down board token face up (red "1" not again)', () => {
    const no = editorTurn(['E41', 'E39']).momentum(0, 2).pinned('A1', 'T09', false);
    no.refused(E, 'play', { card: 'E41', as: 'action' });

    const s = editorTurn(['E41', 'E39']).momentum(0, 3).markers(0, 0).pinned('A1', 'T09', false).pinned('A2', 'T02', true);
    s.action(E, 'E41');
    expect(offered(s, E)).toEqual([{ spaces: [] }, { spaces: ['A1'] }]);
    s.refused(E, 'choose', { spaces: ['A2'] });
    s.act(E, 'choose', { spaces: ['A1'] });
    expect(s.G.board.A1).toEqual({ token: 'T09', up: true });
    expect(s.G.track.momentum).toBe(0);
    expect(whereIs(s, 'E41')).toBe('removed');
  });

  it('E42 "Follow the money!": a reaction, value only on the Editor\'s turn; it redirects Nixon\'s value move toward the Editor and is removed', () => {
    const s = editorTurn(['E42', 'E39']).track([{ id: 'T02', pos: 0, up: true }]);
    s.refused(E, 'play', { card: 'E42', as: 'action' });
    s.value(E, 'E42', { kind: 'evidence', token: 'T02' });
    expect(s.tokenPos('T02')).toBe(2);
    expect(whereIs(s, 'E42')).toBe('discard');

    const r = nixonTurn(['N19', 'N11'], ['E42', 'E39']).track([{ id: 'T02', pos: 1 }]);
    r.value(N, 'N19', { kind: 'evidence', token: 'T02' });
    expectPrompt(r, { kind: 'react', player: E, trigger: 'OPPONENT_VALUE_MOVES_EVIDENCE' });
    expect(r.tokenPos('T02')).toBe(1); // not moved yet
    r.act(E, 'react', 'E42');
    r.pass(N); // Nixon may answer the event (with Mitchell); he holds none
    expect(r.tokenPos('T02')).toBe(3); // 1 + 2 toward the Editor instead of 1 - 2
    expect(whereIs(r, 'N19')).toBe('discard');
    expect(whereIs(r, 'E42')).toBe('removed');
    expect(r.G.prompt).toEqual({ kind: 'play', player: E });
  });
});
