// @vitest-environment happy-dom
/**
 * Every chip and symbol on the board is explained three ways — on hover (a title), on a tap (the meaning
 * opens under it) and to screen readers (in its name) — and "Show sources" explains the provenance codes
 * in the player's language, never with the notes the card data keeps for the project's developers.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { Provenance } from '../../client/board/Card';
import { i18n, initI18n, setLanguage } from '../../client/i18n';
import { CARDS, type PlayerID, type WatergateState } from '../../game';
import { renderBoard } from '../helpers/board';
import { E, N, Scenario } from '../helpers/scenario';

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
});
afterEach(cleanup);

const board = (G: WatergateState, seat: PlayerID | null) => renderBoard(G, seat);

describe('chips and symbols', () => {
  it('the initiative card\'s "5 → / 4 →" chips and every momentum space say what they mean on hover, on a tap and to screen readers', () => {
    const s = new Scenario(410).hand(E, ['E24']).hand(N, ['N02']).turn(E);
    const page = board(s.G, E);
    const chips = [...page.querySelectorAll('.initiative-card [data-explain]')];
    expect(chips.map((c) => c.textContent)).toEqual([
      expect.stringMatching(/^5 → .+ holds the initiative card: .+ draws 5 cards when the next round begins\.$/),
      expect.stringMatching(/^4 → .+ draws 4 cards when the next round begins\.$/),
    ]);
    for (const chip of chips) expect(chip.getAttribute('title')).toBe(chip.querySelector('.sr-only')!.textContent);
    expect(page.querySelectorAll('.explain-text')).toHaveLength(0);
    fireEvent.click(chips[0]);
    expect(page.querySelector('.initiative-card .explain-text')!.textContent).toBe(chips[0].getAttribute('title'));
    fireEvent.click(chips[0]);
    expect(page.querySelectorAll('.explain-text')).toHaveLength(0);
    // Nixon's five spaces (empty circles) and the Editor's four.
    const slots = [...page.querySelectorAll('.momentum-card.role-1 .slots [data-explain]')];
    expect(slots.map((c) => c.getAttribute('title'))).toEqual([1, 2, 3, 4, 5].map((n) => `Nixon’s momentum card, space ${n} of 5: empty.`));
    expect(page.querySelectorAll('.momentum-card.role-0 .slots [data-explain]')).toHaveLength(4);
    fireEvent.click(slots[4]);
    expect(page.querySelector('.momentum-card.role-1 .explain-text')!.textContent).toBe('Nixon’s momentum card, space 5 of 5: empty.');
  });

  it('the symbols of the board and the track are explained in a list a tap opens', () => {
    const s = new Scenario(410).hand(E, ['E24']).hand(N, ['N02']).turn(E);
    const legend = board(s.G, N).querySelector('[data-legend]')!;
    expect(legend.querySelector('summary')!.textContent).toBe('What the symbols mean');
    expect([...legend.querySelectorAll('li')].map((l) => l.textContent)).toContain('? on a dark disc: a face-down evidence token.');
  });
});

describe('"Show sources"', () => {
  it('explains R/S/H/D in each language and shows no developer note on any card', async () => {
    const notes = Object.values(CARDS).map((c) => c.provenance.note).filter((n): n is string => !!n);
    expect(notes.length).toBeGreaterThan(5);
    for (const [lng, rulebook] of [
      ['en', 'rulebook'],
      ['pt-BR', 'livro de regras'],
      ['zh-CN', '规则书'],
    ] as const) {
      await setLanguage(lng);
      for (const id of Object.keys(CARDS)) {
        const { container } = render(<Provenance id={id} />);
        const titles = [container.querySelector('.provenance')!.getAttribute('title')!, ...[...container.querySelectorAll('abbr')].map((a) => a.getAttribute('title')!)];
        for (const title of titles) for (const note of notes) expect(title.includes(note), `${lng} ${id}`).toBe(false);
        expect(titles.join(' ')).not.toMatch(/o-python|docs\/|review:|\(was \d/i);
        cleanup();
      }
      const s = new Scenario(410).hand(E, ['E24']).turn(E);
      localStorage.setItem('watergate.sources', 'on');
      const page = board(s.G, E);
      expect(page.querySelector('[data-sources-legend]')!.textContent).toContain(rulebook);
      localStorage.removeItem('watergate.sources');
      cleanup();
    }
    await setLanguage('en');
    expect(i18n.language).toBe('en');
  });
});
