// @vitest-environment happy-dom
/**
 * What the board tells a player beyond the prompt: the opponent's last move (from the public record), the
 * full text of the card a reaction would answer, the card tracker (public piles only, never the opponent's
 * hand) and the "Show sources" switch, remembered in this browser.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, waitFor } from '@testing-library/react';
import { initI18n } from '../../client/i18n';
import { cardActionLines } from '../../client/i18n/words';
import { CARDS, type PlayerID, type WatergateState } from '../../game';
import { translator } from '../helpers/i18n';
import { E, N, Scenario } from '../helpers/scenario';
import { renderBoard } from '../helpers/board';

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
  // The board's own stylesheet, so what it hides is hidden here too.
  const style = document.createElement('style');
  style.textContent = readFileSync('client/styles.css', 'utf8');
  document.head.appendChild(style);
});
beforeEach(() => localStorage.removeItem('watergate.sources'));
afterEach(cleanup);

const board = (G: WatergateState, seat: PlayerID | null) => renderBoard(G, seat);

const ids = (els: Iterable<Element>) => [...els].map((e) => e.getAttribute('data-card')).sort();

describe('the last move', () => {
  it("marks the piece the opponent moved, where it came from and the card played; not the viewer's own move", async () => {
    const s = new Scenario(410).markers(0, 0).hand(E, ['E24', 'E31']).hand(N, ['N02', 'N20']).turn(N);
    s.value(N, 'N02', { kind: 'initiative' });
    const editor = board(s.G, E);
    const moved = editor.querySelector('.track [data-piece="initiative"]')!;
    expect(moved.getAttribute('data-last-move')).toBe('to');
    expect(editor.querySelector('.track [data-piece="momentum"]')!.hasAttribute('data-last-move')).toBe(false);
    expect(editor.querySelector('.track [data-last-move="from"]')!.getAttribute('data-from')).toBe('0');
    await waitFor(() => expect(ids(editor.querySelectorAll('[data-last-move="card"] [data-card]'))).toEqual(['N02']));
    expect(editor.querySelector('.last-move summary')!.textContent).toBe("Nixon's last move");
    cleanup();
    // Nixon's own board marks nothing: it is his own move.
    expect(board(s.G, N).querySelectorAll('[data-last-move]')).toHaveLength(0);
    cleanup();
    // Once the Editor has answered with a move of his own, Nixon's old move is no longer marked for him.
    s.value(E, 'E24', { kind: 'momentum' });
    expect(board(s.G, E).querySelectorAll('[data-last-move]')).toHaveLength(0);
  });

  it('marks the evidence space where the opponent pinned a token', () => {
    const s = new Scenario(411).track([{ id: 'T02', pos: 4, up: true }]).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    s.value(E, 'E24', { kind: 'evidence', token: 'T02' });
    const pin = s.legal(E)[0];
    s.act(E, 'pin', pin.args[0]);
    const space = (pin.args[0] as { space: string }).space;
    const nixon = board(s.G, N);
    expect([...nixon.querySelectorAll('.evidence-board [data-last-move]')].map((e) => e.getAttribute('data-space'))).toEqual([space]);
    // The token left the track for the Editor's gain space: its old space is outlined.
    expect(nixon.querySelector('.track [data-last-move="from"]')!.getAttribute('data-from-piece')).toBe('T02');
  });
});

describe('the reaction prompt', () => {
  it("shows the whole text of the opponent's card the player may react to", async () => {
    const s = new Scenario(86).track([{ id: 'T02', pos: 0 }]).hand(E, ['E42', 'E31']).hand(N, ['N04']).turn(N);
    s.value(N, 'N04', { kind: 'evidence', token: 'T02' });
    expect(s.G.prompt).toMatchObject({ kind: 'react', player: E });
    const { t } = await translator('en');
    const shown = board(s.G, E).querySelector('.prompt [data-react-to="N04"]')!;
    for (const line of cardActionLines(t, CARDS.N04)) expect(shown.textContent).toContain(line);
    expect(shown.textContent).toContain(t('history.N04'));
  });
});

describe('the card tracker', () => {
  it('counts the public piles and cards in play for each side, and never the opponent\'s hand', async () => {
    const s = new Scenario(412).hand(E, ['E24', 'E31']).hand(N, ['N20', 'N02', 'N07']).discard(E, ['E25', 'E26']).removed(E, ['E42']).discard(N, ['N05']).removed(N, ['N11']);
    const c = board(s.G, E);
    expect(c.querySelector('[data-tracker]')).toBeNull(); // loaded only when opened
    fireEvent.click(c.querySelector('[data-tracker-toggle]')!);
    await waitFor(() => expect(c.querySelector('[data-tracker]')).not.toBeNull());
    const side = (p: PlayerID) => c.querySelector(`[data-tracker-side="${p}"]`)!;
    // The Editor's side: his discard and removed piles, and his own hand (he sees it).
    expect(ids(side(E).querySelectorAll('.tracker-seen [data-card]'))).toEqual([...s.G.discards[E], ...s.G.removed[E], ...s.G.hands[E]].sort());
    expect(side(E).querySelector('h3')!.textContent).toBe(`Editor: ${2 + 1 + 2} of 20 cards seen`);
    // Nixon's side: only his public piles; his hand is among the cards not seen yet.
    expect(ids(side(N).querySelectorAll('.tracker-seen [data-card]'))).toEqual([...s.G.discards[N], ...s.G.removed[N]].sort());
    const unseen = ids(side(N).querySelectorAll('.tracker-unseen [data-card]'));
    expect(unseen).toHaveLength(18);
    for (const id of s.G.hands[N]) expect(unseen).toContain(id);
    expect(side(N).querySelector('[data-card-status="hand"]')).toBeNull();
  });
});

describe('"Show sources"', () => {
  it('hides provenance badges and space codes until turned on, and remembers the choice', () => {
    const s = new Scenario(413).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const visible = (c: HTMLElement, sel: string) => [...c.querySelectorAll(sel)].filter((e) => getComputedStyle(e).display !== 'none').length;
    let c = board(s.G, E);
    expect(c.querySelectorAll('.hand .provenance').length).toBe(2);
    expect(visible(c, '.hand .provenance')).toBe(0);
    expect(visible(c, '.evidence-board .space-code')).toBe(0);
    fireEvent.click(c.querySelector('[data-show-sources]')!);
    expect(c.querySelector('.game')!.classList.contains('show-sources')).toBe(true);
    cleanup();
    // A new board in this browser starts with sources shown (checked on a new board: happy-dom keeps the
    // computed style of an element cached when only an ancestor's class changes).
    c = board(s.G, E);
    expect((c.querySelector('[data-show-sources]') as HTMLInputElement).checked).toBe(true);
    expect(visible(c, '.hand .provenance')).toBe(2);
    expect(visible(c, '.evidence-board .space-code')).toBeGreaterThan(10);
    fireEvent.click(c.querySelector('[data-show-sources]')!);
    expect(localStorage.getItem('watergate.sources')).toBe('off');
  });
});
