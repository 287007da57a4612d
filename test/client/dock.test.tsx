// @vitest-environment happy-dom
/**
 * The phone's dock (the prompt, the last move and the hand's drawer, fixed at the bottom) scrolls inside
 * itself when full: a new decision, or the drawer opening or closing, brings its top, the prompt, back
 * in sight; the player's own scrolling stays put while the decision is the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { Dock } from '../../client/board/phone';

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
