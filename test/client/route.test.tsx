// @vitest-environment happy-dom
/**
 * The page follows its address even when it changed before the page listened for changes: a test or a
 * person may navigate while the page still loads its words, after its first render read the address and
 * before its listener was attached; that hashchange event is gone, and the page must not stay where it was.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { useRoute } from '../../client/route';

function Where() {
  const route = useRoute();
  return <p>{route.page === 'match' ? `match ${route.matchID}` : route.page}</p>;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  history.replaceState(null, '', '#/');
});

describe('useRoute', () => {
  it('shows the address as it is once it listens, when it changed unheard after the first render', async () => {
    history.replaceState(null, '', '#/');
    const listen = window.addEventListener.bind(window);
    vi.spyOn(window, 'addEventListener').mockImplementation((type: string, fn: EventListenerOrEventListenerObject, o?: boolean | AddEventListenerOptions) => {
      if (type !== 'hashchange') return listen(type, fn, o);
      // The address changes just before the page listens, and its event comes and goes before the
      // listener is attached.
      history.replaceState(null, '', '#/match/m1');
      setTimeout(() => listen(type, fn, o), 50);
    });
    render(<Where />);
    expect(await screen.findByText('match m1')).toBeTruthy();
  });

  it('follows later changes of the address', async () => {
    history.replaceState(null, '', '#/');
    render(<Where />);
    expect(screen.getByText('lobby')).toBeTruthy();
    location.hash = '#/replay/r2';
    expect(await screen.findByText('replay')).toBeTruthy();
    location.hash = '#/match/m3';
    expect(await screen.findByText('match m3')).toBeTruthy();
  });
});
