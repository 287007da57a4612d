// @vitest-environment happy-dom
/**
 * A part loaded on demand whose code never arrives (its chunk requested while the server was away) leaves
 * the rest of the page standing: nothing is drawn in its place; a part whose code arrives is drawn.
 */
import { describe, expect, it, vi } from 'vitest';
import { lazy } from 'react';
import { render, screen } from '@testing-library/react';
import { Optional } from '../../client/Optional';

describe('Optional', () => {
  it('draws a lazy part when its code arrives, and nothing (the page standing) when it fails to load', async () => {
    const Arrives = lazy(async () => ({ default: () => <p>the chat</p> }));
    const Fails = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    // React reports the caught error on the console; the page must not go with it.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <main>
        <p>the board</p>
        <Optional>
          <Arrives />
        </Optional>
        <Optional fallback={<p>loading</p>}>
          <Fails />
        </Optional>
      </main>,
    );
    expect(await screen.findByText('the chat')).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByText('loading')).toBeNull());
    expect(screen.getByText('the board')).toBeTruthy();
    quiet.mockRestore();
  });
});
