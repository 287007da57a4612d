// @vitest-environment happy-dom
/**
 * A new decision starts at its question wherever the prompt scrolls inside a box of its own: the phone's
 * dock (the prompt, the last move and the hand's drawer, fixed at the bottom) returns to its top on a new
 * decision or when the drawer opens or closes, and a wide screen's prompt box to its first line; the
 * player's own scrolling stays put while the decision is the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { State } from 'boardgame.io';
import type { BoardProps } from 'boardgame.io/react';
import { Dock } from '../../client/board/phone';
import type { WatergateState } from '../../game';

afterEach(cleanup);

const tall = <div style={{ height: '2000px' }}>prompt, last move, hand</div>;
const dockOf = (c: HTMLElement) => c.querySelector('.dock') as HTMLElement;

describe('the dock on a phone', () => {
  it('returns to its top on a new decision or when the drawer opens or closes, and only then', () => {
    const { container, rerender } = render(<Dock handOpen={false} at="3:play:0">{tall}</Dock>);
    const dock = dockOf(container);
    dock.scrollTop = 300;
    rerender(<Dock handOpen={false} at="3:play:0">{tall}</Dock>);
    expect(dock.scrollTop).toBe(300); // the same decision: the player's scrolling stays
    rerender(<Dock handOpen={false} at="5:react:0">{tall}</Dock>);
    expect(dock.scrollTop).toBe(0);
    dock.scrollTop = 250;
    rerender(<Dock handOpen={true} at="5:react:0">{tall}</Dock>);
    expect(dock.scrollTop).toBe(0);
    expect(dock.dataset.hand).toBe('open');
    dock.scrollTop = 400;
    rerender(<Dock handOpen={false} at="5:react:0">{tall}</Dock>);
    expect(dock.scrollTop).toBe(0);
  });
});

describe('the dock when the decision is on the board', () => {
  it('folds to one line for a board decision, unfolds on a tap for that decision only, and folds again for the next', async () => {
    const { initI18n } = await import('../../client/i18n');
    await initI18n();
    // The phone layout, as styles.css's phone query sets it.
    document.documentElement.style.setProperty('--layout', 'phone');
    const { container, rerender } = render(<Dock handOpen={false} at="7:pin:0" onBoard>{tall}</Dock>);
    const dock = dockOf(container);
    expect(dock.dataset.folded).toBe('true');
    const unfold = container.querySelector('.dock-unfold') as HTMLButtonElement;
    expect(unfold.getAttribute('aria-label')).toBe('Show the whole prompt');
    unfold.click();
    await new Promise((r) => setTimeout(r, 0));
    expect(dock.dataset.folded).toBeUndefined();
    expect(container.querySelector('.dock-unfold')).toBeNull();
    rerender(<Dock handOpen={false} at="8:pin:0" onBoard>{tall}</Dock>);
    expect(dock.dataset.folded).toBe('true');
    // A card to choose is not on the board: the dock shows all of itself.
    rerender(<Dock handOpen={true} at="9:play:0">{tall}</Dock>);
    expect(dock.dataset.folded).toBeUndefined();
  });

  it('does not fold outside the phone layout, where the dock is a plain box with no unfold button in sight', () => {
    document.documentElement.style.setProperty('--layout', '');
    const { container } = render(<Dock handOpen={false} at="7:pin:0" onBoard>{tall}</Dock>);
    expect(dockOf(container).dataset.folded).toBeUndefined();
    expect(container.querySelector('.dock-unfold')).toBeNull();
  });
});

describe('a long prompt on a wide screen', () => {
  it('starts each decision at its question, however far its box was scrolled', async () => {
    const { InitializeGame } = await import('boardgame.io/internal');
    const { Watergate, legalMoves, advanceMove, playerView } = await import('../../game');
    const { WatergateBoard } = await import('../../client/board/Board');
    const { initI18n } = await import('../../client/i18n');
    await initI18n();
    // Two decisions of the Editor in a row, from a seeded game: the prompt's box stays the same element.
    type S = State<WatergateState>;
    let s = InitializeGame({ game: { ...Watergate, seed: 'dock' }, numPlayers: 2 }) as S;
    let pair: [S, S] | null = null;
    for (let i = 0; i < 300 && !pair; i++) {
      const p = s.G.prompt!.player;
      const m = legalMoves(s.G, p)[0];
      const r = advanceMove(s, p, m.move, m.args[0]);
      if ('error' in r) throw new Error(r.error);
      if (p === '0' && r.state.G.prompt?.player === '0') pair = [s, r.state];
      s = r.state;
    }
    expect(pair).not.toBeNull();
    const props = (st: S) => ({ G: playerView(st.G, '0'), ctx: {}, playerID: '0', moves: {}, events: {}, isConnected: true, isActive: true, isMultiplayer: false }) as unknown as BoardProps<WatergateState>;
    const { container, rerender } = render(<WatergateBoard {...props(pair![0])} />);
    const box = container.querySelector('.prompt.mine') as HTMLElement;
    box.scrollTop = 200;
    rerender(<WatergateBoard {...props(pair![0])} />);
    expect(box.scrollTop).toBe(200);
    rerender(<WatergateBoard {...props(pair![1])} />);
    expect(container.querySelector('.prompt.mine')).toBe(box);
    expect(box.scrollTop).toBe(0);
  });
});
