import { describe, expect, it } from 'vitest';
import { DECKS } from '../../../game/cards';
import { initialState, DEFAULT_OPTIONS } from '../../../game/state';
import { playerView } from '../../../game/view';
import { BAG_TOKENS, SPARE_TOKENS } from '../../../game/tokens';
import { INFORMANT_IDS, SPACE_IDS } from '../../../game/board';
import { seeded } from '../../helpers/rng';
import { E, N, Scenario } from '../../helpers/scenario';

describe('Setup (R1–R5)', () => {
  it('R1: each side shuffles its own 20 cards into a face-down deck; discard and removed piles start empty', () => {
    const a = initialState(DEFAULT_OPTIONS, seeded(1));
    const b = initialState(DEFAULT_OPTIONS, seeded(2));
    for (const p of [E, N]) {
      expect([...a.decks[p]].sort()).toEqual([...DECKS[p]].sort());
      expect(a.discards[p]).toEqual([]);
      expect(a.removed[p]).toEqual([]);
      expect(a.hands[p]).toEqual([]);
    }
    expect(a.decks[E]).not.toEqual(b.decks[E]); // shuffled by the seed
    expect(a.decks[E]).not.toEqual(DECKS[E]);
  });

  it('R2: the Editor starts with the initiative and plays the first card', () => {
    const s = new Scenario(3);
    expect(s.G.initiative).toBe(E);
    expect(s.G.prompt).toEqual({ kind: 'play', player: E });
    expect(s.legal(N)).toEqual([]);
  });

  it('R3: the initiative token and 1 momentum token start on space 0; the other 8 form the supply', () => {
    const G = initialState(DEFAULT_OPTIONS, seeded(4));
    expect(G.track.initiative).toBe(0);
    expect(G.track.momentum).toBe(0);
    expect(G.momentum.supply).toBe(8);
    expect(G.momentum.cards).toEqual({ [E]: 0, [N]: 0 });
  });

  it('R4: the 7 pictures form the informant supply; no informant and no evidence on the board', () => {
    const G = initialState(DEFAULT_OPTIONS, seeded(5));
    expect(Object.keys(G.informants).sort()).toEqual([...INFORMANT_IDS].sort());
    expect(Object.values(G.informants).every((s) => s === 'supply')).toBe(true);
    expect(SPACE_IDS.every((s) => G.board[s] === null)).toBe(true);
  });

  it('R5: the 30 bag tokens go in the bag, the 6 spares stay out; no evidence is drawn at setup', () => {
    const G = initialState(DEFAULT_OPTIONS, seeded(6));
    expect([...G.bag].sort()).toEqual([...BAG_TOKENS].sort());
    expect(G.bag.some((t) => SPARE_TOKENS.includes(t))).toBe(false);
    expect(G.track.evidence).toEqual([]);
  });
});

describe('Setup phase of a round (R6–R7)', () => {
  it('R6: the initiative holder draws 5 cards, the other player 4', () => {
    const s = new Scenario(7);
    expect(s.G.hands[E]).toHaveLength(5);
    expect(s.G.hands[N]).toHaveLength(4);
    expect(s.G.decks[E]).toHaveLength(15);
    expect(s.G.decks[N]).toHaveLength(16);
    // Next round with Nixon holding the initiative: he draws 5.
    s.G.initiative = N;
    s.G.track.initiative = -2;
    s.endCards().passWindows();
    expect(s.G.round).toBe(2);
    expect(s.G.initiative).toBe(N);
    expect(s.G.hands[N]).toHaveLength(5);
    expect(s.G.hands[E]).toHaveLength(4);
  });

  it('R6: an empty deck is refilled from the shuffled discard pile even mid-draw', () => {
    const s = new Scenario(8);
    const G = s.G;
    s.hand(E, []); // all 20 Editor cards in the deck
    const all = [...G.decks[E]];
    s.discard(E, all.slice(0, 10)).removed(E, all.slice(10, 18)); // deck keeps 2
    const deckBefore = [...G.decks[E]];
    s.markers(2, 0); // the Editor keeps the initiative and draws 5
    s.endCards();
    expect(G.round).toBe(2);
    expect(G.initiative).toBe(E);
    expect(G.hands[E]).toHaveLength(5);
    expect(G.hands[E]).toEqual(expect.arrayContaining(deckBefore));
    expect(G.discards[E]).toEqual([]);
    expect(G.decks[E]).toHaveLength(7);
    expect(s.keys()).toContain('reshuffle');
  });

  it('R6 (Decided): with too few cards in deck and discard together, the player draws what there is', () => {
    const s = new Scenario(9);
    const G = s.G;
    s.hand(E, []);
    const all = [...G.decks[E]];
    s.removed(E, all.slice(2));
    s.endCards();
    expect(G.round).toBe(2);
    expect(G.hands[E]).toHaveLength(2);
    expect(G.decks[E]).toEqual([]);
  });

  it('R7: Nixon draws 3 tokens at random onto space 0 face down; only Nixon sees their colours', () => {
    const s = new Scenario(10);
    const fd = s.G.track.evidence;
    expect(fd).toHaveLength(3);
    expect(fd.every((t) => t.pos === 0 && !t.up)).toBe(true);
    expect(s.G.bag).toHaveLength(27);
    const nixon = playerView(s.G, N).track.evidence;
    expect(nixon.map((t) => t.id).sort()).toEqual(fd.map((t) => t.id).sort());
    for (const viewer of [E, null]) {
      const v = playerView(s.G, viewer).track.evidence;
      expect(v).toEqual([0, 1, 2].map(() => ({ id: null, pos: 0, up: false })));
    }
    expect(new Scenario(11).G.track.evidence.map((t) => t.id)).not.toEqual(fd.map((t) => t.id));
  });

  it('R7 (Decided): with fewer than 3 tokens in the bag, Nixon draws what there is', () => {
    const s = new Scenario(12);
    const G = s.G;
    G.removedTokens.push(...G.bag.splice(2)); // only 2 left in the bag
    G.removedTokens.push(...G.track.evidence.map((t) => t.id));
    G.track.evidence = [];
    s.endCards();
    expect(G.round).toBe(2);
    expect(G.track.evidence).toHaveLength(2);
    expect(G.bag).toEqual([]);
  });
});
