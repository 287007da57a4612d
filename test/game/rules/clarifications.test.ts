import { describe, expect, it } from 'vitest';
import { legalMoves, Watergate } from '../../../game/index';
import { TOKENS } from '../../../game/tokens';
import { CARDS } from '../../../game/cards';
import { playerView } from '../../../game/view';
import { validateSetupData } from '../../../game/state';
import { run } from '../../../game/flow';
import { E, N, Scenario, fillGreenSlips, nearlyConnected, randomGame } from '../../helpers/scenario';


describe('Clarifications (K1–K18)', () => {
  it('K1: the win is checked after every single change, and whatever is still pending is dropped', () => {
    const s = nearlyConnected(80).track([{ id: 'T10', pos: 3 }, { id: 'T11', pos: 4 }]).hand(E, ['E23']).hand(N, ['N20']);
    s.action(E, 'E23'); // a journalist: no window for Nixon
    s.act(E, 'choose', { split: [{ token: 'T10', steps: 2 }, { token: 'T11', steps: 1 }] });
    expect(s.G.prompt).toEqual({ kind: 'pin', player: E, tokens: ['T10', 'T11'] });
    s.act(E, 'pin', { token: 'T10', space: 'A3' });
    expect(s.G.winner).toBe(E);
    expect(s.G.prompt).toBeNull(); // T11 is never pinned
    expect(s.legal(E)).toEqual([]);
    expect(s.legal(N)).toEqual([]);
  });

  it('K2: card effects may pick a face-down token blind; the ask belongs to value plays only', () => {
    const s = new Scenario(81).track([{ id: 'T02', pos: 0 }, { id: 'T10', pos: 0 }]).hand(E, ['E23']).hand(N, ['N20']);
    s.action(E, 'E23');
    expect(s.refused(E, 'choose', { split: [{ token: 'T02', steps: 3 }] })).toMatch(/blind/);
    s.act(E, 'choose', { split: [{ token: { hidden: 1 }, steps: 3 }] });
    const moved = s.G.track.evidence.filter((t) => t.up);
    expect(moved).toHaveLength(1);
    expect(moved[0].pos).toBe(3);
    expect(s.keys()).not.toContain('ask');
  });

  it('K3: no identity leaks: face-down track tokens are anonymous, drawn tokens are seen by the drawer alone, draws run on the server', () => {
    const s = new Scenario(82).hand(E, ['E31']).hand(N, ['N01']).turn(N);
    s.G.bag = ['T01', 'T09', ...s.G.bag.filter((t) => t !== 'T01' && t !== 'T09')];
    s.action(N, 'N01').pass(E);
    const drawn = s.G.peek!.tokens;
    expect(drawn).toHaveLength(2);
    expect(playerView(s.G, N).peek).toEqual({ player: N, tokens: drawn, count: 2 });
    for (const viewer of [E, null]) {
      const v = playerView(s.G, viewer);
      expect(v.peek).toEqual({ player: N, tokens: null, count: 2 });
      const text = JSON.stringify({ ...v, log: [] });
      for (const t of drawn) expect(text).not.toContain(t);
      expect(v.track.evidence.every((t) => t.id === null)).toBe(true);
      expect('bag' in v).toBe(false);
      expect(v.bagSize).toBe(s.G.bag.length);
    }
    s.act(N, 'choose', { tokens: [] });
    expect(JSON.stringify(s.G.log.slice(-2))).not.toMatch(new RegExp(drawn.join('|')));
    for (const m of Object.values(Watergate.moves!)) expect((m as { client?: boolean }).client).toBe(false);
  });

  it('K3: a drawn token kept to be pinned stays the drawer\'s until it is pinned: nowhere in the other views, prompt and tasks included', () => {
    const s = new Scenario(82).hand(E, ['E31']).hand(N, ['N01']).turn(N);
    s.G.bag = ['T01', 'T09', ...s.G.bag.filter((t) => t !== 'T01' && t !== 'T09')];
    s.action(N, 'N01').pass(E);
    const [kept] = s.G.peek!.tokens;
    s.act(N, 'choose', { tokens: [kept] });
    // More than one space fits it: Nixon chooses where, and until then only he knows which token it is.
    expect(s.G.prompt).toMatchObject({ kind: 'pin', player: N, tokens: [kept] });
    expect(playerView(s.G, N).prompt).toMatchObject({ kind: 'pin', tokens: [kept] });
    for (const viewer of [E, null]) {
      const v = playerView(s.G, viewer);
      expect(v.prompt).toMatchObject({ kind: 'pin', player: N });
      expect(JSON.stringify(v)).not.toContain(`"${kept}"`);
    }
    const space = legalMoves(s.G, N)[0].args[0] as { space: string };
    s.act(N, 'pin', space);
    // Pinned (face down, by Nixon): from now on the board shows it to everyone.
    expect(JSON.stringify(playerView(s.G, E).board)).toContain(`"${kept}"`);
  });

  it('K4: reactions trigger on announcement; requirements are checked then; cards waiting in the chain are public', () => {
    const s = new Scenario(83).momentum(0, 1).hand(E, ['E40', 'E41']).hand(N, ['N05']);
    // The Smoking Gun tape needs Nixon at 2 momentum: refused at announcement.
    s.refused(E, 'play', { card: 'E40', as: 'action' });
    s.momentum(0, 3);
    s.action(E, 'E41');
    expect(s.G.prompt).toEqual({ kind: 'react', player: N, trigger: 'OPPONENT_EVENT_ACTION' });
    expect(playerView(s.G, null).chain).toEqual([{ player: E, card: 'E41', kind: 'action', drawn: false }]);
    s.act(N, 'react', 'N05');
    // Mitchell is a conspirator's action: the Editor may answer it in turn (a re-reaction window).
    expect(s.G.prompt).toEqual({ kind: 'react', player: E, trigger: 'OPPONENT_CONSPIRATOR_ACTION' });
    expect(playerView(s.G, E).chain.map((c) => c.card)).toEqual(['E41', 'N05']);
    s.pass(E);
    expect(s.G.discards[E]).toEqual(['E41']); // cancelled, unused, to the discard pile
    expect(s.G.discards[N]).toEqual(['N05']);
    expect(s.G.prompt).toEqual({ kind: 'play', player: E }); // Nixon has no card left: skipped
  });

  it('K5: a card played through Hunt\'s draw can trigger reactions; Hunt is discarded even if it is cancelled; a drawn reaction is value-only', () => {
    const s = new Scenario(84).hand(E, ['E25', 'E31']).hand(N, ['N04']).deckTop(N, ['N02']).turn(N);
    s.action(N, 'N04').pass(E);
    s.action(N, 'N02');
    expect(s.G.prompt).toEqual({ kind: 'react', player: E, trigger: 'OPPONENT_CONSPIRATOR_ACTION' });
    s.act(E, 'react', 'E25');
    expect(s.G.removed[N]).toEqual(['N02']);
    expect(s.G.discards[N]).toEqual(['N04']);
    const t = new Scenario(85).hand(E, ['E31']).hand(N, ['N04']).deckTop(N, ['N05']).turn(N);
    t.action(N, 'N04').pass(E);
    t.refused(N, 'play', { card: 'N05', as: 'action' });
    t.value(N, 'N05', { kind: 'initiative' });
    expect(t.G.track.initiative).toBe(-4);
  });

  it('K6: the token Nixon names for "Follow the money!" is face up before the Editor decides', () => {
    const s = new Scenario(86).track([{ id: 'T02', pos: 0 }]).hand(E, ['E42', 'E31']).hand(N, ['N04']).turn(N);
    s.value(N, 'N04', { kind: 'evidence', token: 'T02' });
    expect(playerView(s.G, E).track.evidence).toEqual([{ id: 'T02', pos: 0, up: true }]);
    s.act(E, 'react', 'E42');
    expect(s.tokenPos('T02')).toBe(2); // redirected toward the Editor
    expect(s.G.discards[N]).toEqual(['N04']);
    expect(s.G.removed[E]).toEqual(['E42']);
  });

  it('K7: "up to N" allows 0; a TOTAL must use every step on at least one token; pins are mandatory', () => {
    const s = new Scenario(87).track([{ id: 'T02', pos: 1 }, { id: 'T10', pos: 1 }]).hand(E, ['E31']).hand(N, ['N02', 'N07']).turn(N);
    s.action(N, 'N02').pass(E);
    s.act(N, 'choose', { tokens: [] });
    expect(s.tokenPos('T02')).toBe(1);
    s.hand(N, ['N07']).turn(N, 2);
    s.action(N, 'N07');
    s.refused(N, 'choose', { split: [] });
    s.refused(N, 'choose', { split: [{ token: 'T02', steps: 3 }] });
    s.refused(N, 'choose', { split: [{ token: 'T02', steps: 2 }, { token: 'T02', steps: 2 }] });
    s.act(N, 'choose', { split: [{ token: 'T02', steps: 3 }, { token: 'T10', steps: 1 }] });
    expect(s.tokenPos('T02')).toBe(-2);
    expect(s.tokenPos('T10')).toBe(0);
    const p = new Scenario(88).track([{ id: 'T10', pos: 3 }]).hand(E, ['E31']).hand(N, ['N20']);
    p.value(E, 'E31', { kind: 'evidence', token: 'T10' });
    expect(p.legal(E).every((m) => m.move === 'pin')).toBe(true);
    p.refused(E, 'pin', null);
  });

  it('K8: tokens moved by one effect move together, then are pinned one by one, each pin resolving fully first', () => {
    const s = new Scenario(89).track([{ id: 'T01', pos: 4 }, { id: 'T10', pos: 4 }, { id: 'T04', pos: -2 }]).markers(0, 4).hand(E, ['E23']).hand(N, ['N20']);
    s.action(E, 'E23');
    s.act(E, 'choose', { split: [{ token: 'T01', steps: 2 }, { token: 'T10', steps: 1 }] });
    expect(s.G.prompt).toEqual({ kind: 'pin', player: E, tokens: ['T01', 'T10'] });
    s.act(E, 'pin', { token: 'T01', space: 'A2' });
    // The red "1" gave the Editor momentum: its space-1 ability comes before the next pin.
    expect(s.G.momentum.cards[E]).toBe(1);
    expect(s.G.prompt).toMatchObject({ kind: 'choose', player: E, step: { op: 'RETURN_TRACK_EVIDENCE' } });
    s.act(E, 'choose', { tokens: ['T04'] });
    expect(s.G.prompt).toEqual({ kind: 'pin', player: E, tokens: ['T10'] });
  });

  it('K9: PIN_FROM_BAG returns the unchosen tokens before the pin; a colour filter accepts a two-colour token', () => {
    const s = new Scenario(90).hand(E, ['E37']).hand(N, []);
    s.G.bag.push(...s.G.track.evidence.map((t) => t.id));
    s.G.track.evidence = [];
    const rest = s.G.bag.filter((t) => !['T26', 'T10', 'T18'].includes(t));
    s.G.removedTokens.push(...rest);
    s.G.bag = ['T26', 'T10', 'T18'];
    s.action(E, 'E37');
    expect(s.G.prompt).toMatchObject({ kind: 'choose', step: { op: 'PIN_FROM_BAG' } });
    expect(s.legal(E).map((m) => m.args[0])).toEqual([{ tokens: [] }, { tokens: ['T26'] }]);
    s.act(E, 'choose', { tokens: ['T26'] });
    expect(s.G.bag.sort()).toEqual(['T10', 'T18']);
    s.act(E, 'pin', { token: 'T26', space: 'A1' }); // a yellow slip
    expect(s.G.board.A1).toEqual({ token: 'T26', up: true });
  });

  it('K10: an Editor ability resolves at once in assessment; at step 3 the tokens on spaces 1–4 can still be targeted', () => {
    const s = new Scenario(91).track([{ id: 'T04', pos: -2 }]).markers(0, 2);
    s.endCards();
    expect(s.G.prompt).toMatchObject({ kind: 'choose', player: E, step: { op: 'RETURN_TRACK_EVIDENCE' } });
    s.act(E, 'choose', { tokens: ['T04'] });
    expect(s.G.round).toBe(2); // Nixon had nothing left to pin
    expect(s.G.board.A2).toBeNull();
  });

  it('K10: a red "1" pinned while no momentum token is on the track (between steps 3 and 4) does nothing', () => {
    const s = new Scenario(92).track([]).markers(0, 1).momentum(2, 0);
    s.G.removedTokens.push(...s.G.bag.filter((t) => t !== 'T01' && t !== 'T02'));
    s.G.bag = ['T01', 'T02'];
    s.endCards();
    // The Editor's third token (step 3): space 3 draws 2 and pins 1.
    expect(s.G.momentum.cards[E]).toBe(3);
    expect(s.G.prompt).toMatchObject({ kind: 'choose', player: E, step: { op: 'PIN_FROM_BAG' } });
    expect(s.G.track.momentum).toBeNull();
    s.act(E, 'choose', { tokens: ['T01'] });
    s.act(E, 'pin', { token: 'T01', space: 'A2' });
    expect(s.G.board.A2).toEqual({ token: 'T01', up: true });
    expect(s.G.round).toBe(2);
    expect(s.G.track.momentum).toBe(0); // the red "1" was not stored for the new token
  });

  it('K11: the initiative gained mid-round turns the card at once for everyone; the turn order does not change', () => {
    const s = new Scenario(93).markers(-2, 0).hand(E, ['E31', 'E39']).hand(N, ['N15', 'N20']).turn(N);
    s.value(N, 'N15', { kind: 'initiative' });
    for (const v of [E, N, null]) expect(playerView(s.G, v).initiative).toBe(N);
    expect(s.G.leader).toBe(E);
    expect(s.G.prompt).toEqual({ kind: 'play', player: E });
  });

  it('K12: a value play with no legal target is still legal: the card is discarded with no effect', () => {
    const s = new Scenario(94).track([]).markers(null, null).hand(E, ['E31']).hand(N, ['N20']);
    expect(s.legal(E).map((m) => m.args[0])).toEqual([{ card: 'E31', as: 'value', target: { kind: 'none' } }, { card: 'E31', as: 'action' }]);
    s.value(E, 'E31', { kind: 'none' });
    expect(s.G.discards[E]).toEqual(['E31']);
    expect(s.keys()).toContain('value.none');
    const t = new Scenario(95).hand(E, ['E31']);
    t.refused(E, 'play', { card: 'E31', as: 'value', target: { kind: 'none' } });
  });

  it('K13: both hands empty at the start of the cards phase: straight to assessment', () => {
    const s = new Scenario(96).momentum(0, 4).markers(0, -1);
    for (const p of [E, N]) {
      s.G.removed[p].push(...s.G.hands[p], ...s.G.decks[p]);
      s.G.hands[p] = [];
      s.G.decks[p] = [];
    }
    s.G.prompt = null;
    s.G.tasks.push({ t: 'round' });
    run(s.G, s.rng);
    const keys = s.keys();
    expect(keys.slice(keys.lastIndexOf('round'))).toContain('assessment');
    expect(s.G.winner).toBe(N); // step 3 gave Nixon his 5th token
  });

  it('K15: face-down evidence only ever stands on space 0 of the track', () => {
    let seen = 0;
    for (let g = 0; g < 20; g++)
      randomGame(700 + g, {
        after: (G) => {
          for (const t of G.track.evidence) if (!t.up) (expect(t.pos).toBe(0), seen++);
        },
      });
    expect(seen).toBeGreaterThan(100);
  });

  it('K16: rule options are validated; pinImpossible "removeFromGame" takes an unpinnable token out of the game', () => {
    expect(validateSetupData({ jokerFallback: 'rulebook2019', pinImpossible: 'removeFromGame' })).toBeUndefined();
    expect(validateSetupData({ jokerFallback: 'house' })).toMatch(/jokerFallback/);
    expect(validateSetupData({ reactionsUseTurn: true })).toMatch(/unknown/);
    for (const inherited of ['constructor', 'toString', '__proto__']) expect(validateSetupData(JSON.parse(`{"${inherited}": "x"}`)), inherited).toMatch(/unknown/);
    expect(validateSetupData('x')).toMatch(/object/);
    expect(Watergate.validateSetupData!(undefined, 3)).toMatch(/2 players/);
    const s = fillGreenSlips(new Scenario(97, { pinImpossible: 'removeFromGame' }).track([{ id: 'T17', pos: 3 }]).hand(E, ['E30']).hand(N, ['N20']));
    s.value(E, 'E30', { kind: 'evidence', token: 'T17' });
    expect(s.G.removedTokens).toEqual(['T17']);
    expect(s.G.bag).not.toContain('T17');
  });

  it('K17: a joker is a card colour only; every evidence token has real colours', () => {
    expect(TOKENS.every((t) => t.colours.every((c) => ['blue', 'yellow', 'green'].includes(c)))).toBe(true);
    expect(Object.values(CARDS).filter((c) => c.colour === 'joker').length).toBe(9);
  });

  it('K18: The system works replays an own removed, non-reaction event whose requirements hold; the replay opens no window', () => {
    const s = new Scenario(98).removed(E, ['E31', 'E34', 'E40']).hand(E, ['E35']).hand(N, ['N05', 'N20']);
    s.action(E, 'E35');
    expect(s.G.prompt).toEqual({ kind: 'react', player: N, trigger: 'OPPONENT_EVENT_ACTION' }); // Mitchell may answer it
    s.pass(N);
    // Only John Dean qualifies: Mass demonstration is a reaction, the Smoking Gun tape's requirement fails: chosen automatically.
    expect(s.G.informants.I_DEAN).toBe('up');
    expect(s.G.removed[E]).toEqual(['E31', 'E34', 'E40', 'E35']);
    expect(s.G.prompt).toEqual({ kind: 'play', player: N });
    const none = new Scenario(99).hand(E, ['E35']).hand(N, []);
    none.action(E, 'E35');
    expect(none.G.removed[E]).toEqual(['E35']);
    expect(none.keys()).toContain('step.nothing');
  });
});
