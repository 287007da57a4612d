/** The component data modules: counts, distributions, board geometry, provenance, and docs/COMPONENTS.md made from them. */
import { readFileSync } from 'node:fs';
import { COMPONENTS_DOC, componentsDoc } from '../../tools/components-doc';
import { describe, expect, it } from 'vitest';
import { CARDS, DECKS } from '../../game/cards';
import { ADJACENT, INFORMANTS, NODES, SPACES, THREADS } from '../../game/board';
import { BAG_TOKENS, SPARE_TOKENS, TOKEN, TOKENS } from '../../game/tokens';
import { MOMENTUM_CARDS } from '../../game/momentum';
import type { PlayerID } from '../../game/types';

const count = <T,>(xs: T[]) => xs.reduce<Record<string, number>>((m, x) => ((m[String(x)] = (m[String(x)] ?? 0) + 1), m), {});

describe('component data (docs/COMPONENTS.md)', () => {
  it('docs/COMPONENTS.md is written from this data (npm run docs:components)', async () => {
    expect(readFileSync(COMPONENTS_DOC, 'utf8')).toBe(await componentsDoc());
  });

  it('40 cards, 20 a side, with the value, colour and type mix of §2.1 and §2.2', () => {
    const side = (p: PlayerID) => DECKS[p].map((id) => CARDS[id]);
    expect(Object.keys(CARDS)).toHaveLength(40);
    const nixon = side('1');
    expect(count(nixon.map((c) => c.value))).toEqual({ 1: 4, 2: 7, 3: 4, 4: 5 });
    expect(count(nixon.map((c) => c.colour))).toEqual({ blue: 5, yellow: 5, green: 6, joker: 4 });
    expect(count(nixon.map((c) => c.type))).toEqual({ CONSPIRATOR: 6, EVENT: 14 });
    const editor = side('0');
    // Judge John Sirica (E38) is worth 3 since the balance change of 2026-12-01 (docs/BALANCE.md).
    expect(count(editor.map((c) => c.value))).toEqual({ 1: 4, 2: 5, 3: 8, 4: 3 });
    expect(count(editor.map((c) => c.colour))).toEqual({ blue: 5, yellow: 5, green: 5, joker: 5 });
    expect(count(editor.map((c) => c.type))).toEqual({ EVENT: 17, JOURNALIST: 3 });
    expect(CARDS.E42.name).toBe('"Follow the money!"');
    expect(CARDS.E42.number).toBe(42);
  });

  it('every card shows its provenance; events are removed, others discarded (history notes: client/i18n locales)', () => {
    for (const c of Object.values(CARDS)) {
      expect(c.provenance.name).toMatch(/^(R|S|H|D|R\+D)$/);
      expect(c.provenance.effect).toMatch(/^(R|S|H|D|R\+D)$/);
      expect(c.after).toBe(c.type === 'EVENT' ? 'REMOVE' : 'DISCARD');
      // A reaction only cancels (no steps of its own); every other card has an action to resolve.
      expect(c.steps.length > 0, `${c.id} has steps`).toBe(!c.reaction);
    }
    expect(Object.values(CARDS).filter((c) => c.reaction).map((c) => c.id)).toEqual(['N05', 'E25', 'E34', 'E42']);
    expect(CARDS.N07.recycle).toBe(true);
  });

  it('the board: 37 nodes, 29 evidence spaces (blue 9, yellow 10, green 10), 79 threads; ring A touches Nixon', () => {
    expect(NODES).toHaveLength(37);
    expect(SPACES).toHaveLength(29);
    expect(count(SPACES.map((s) => s.colour))).toEqual({ blue: 9, yellow: 10, green: 10 });
    expect(THREADS).toHaveLength(79);
    expect([...ADJACENT.NIXON].sort()).toEqual(['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7']);
    for (const i of INFORMANTS) expect(ADJACENT[i.id].every((n) => n.startsWith('B') || n.startsWith('C'))).toBe(true);
  });

  it('insiders are 2 evidence spaces from Nixon, outsiders 3 (§3.1)', () => {
    const distance = (from: string) => {
      const seen = new Map<string, number>([[from, 0]]);
      const queue = [from];
      while (queue.length) {
        const n = queue.shift()!;
        for (const m of ADJACENT[n]) if (!seen.has(m) && (m === 'NIXON' || !m.startsWith('I_'))) (seen.set(m, seen.get(n)! + 1), queue.push(m));
      }
      return seen.get('NIXON')! - 1;
    };
    for (const i of INFORMANTS) expect(distance(i.id), i.name).toBe(i.group === 'insider' ? 2 : 3);
  });

  it('36 tokens: 30 in the bag (24 single, 6 two-colour, 6 red "1", each colour on 12) and 6 spares', () => {
    expect(TOKENS).toHaveLength(36);
    expect(BAG_TOKENS).toHaveLength(30);
    expect(SPARE_TOKENS).toHaveLength(6);
    const bag = BAG_TOKENS.map((id) => TOKEN[id]);
    expect(bag.filter((t) => t.colours.length === 2)).toHaveLength(6);
    expect(bag.filter((t) => t.momentum)).toHaveLength(6);
    for (const c of ['blue', 'yellow', 'green'] as const) expect(bag.filter((t) => t.colours.includes(c))).toHaveLength(12);
    expect(SPARE_TOKENS.some((id) => TOKEN[id].momentum)).toBe(false);
  });

  it('momentum cards: Nixon 5 spaces without abilities, the Editor 4 spaces with one ability each', () => {
    expect(MOMENTUM_CARDS['1'].spaces).toBe(5);
    expect(MOMENTUM_CARDS['1'].abilities.every((a) => a.length === 0)).toBe(true);
    expect(MOMENTUM_CARDS['0'].abilities.map((a) => a[0].op)).toEqual(['RETURN_TRACK_EVIDENCE', 'FLIP_INFORMANT', 'PIN_FROM_BAG', 'REMOVE_BOARD_EVIDENCE']);
  });
});
