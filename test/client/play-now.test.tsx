// @vitest-environment happy-dom
/**
 * "Play now" with the server's answers stubbed: a page whose ticket lapsed while it waited (a tab kept in
 * the background polls rarely, and the server takes an unpolled ticket for a closed page) asks again with
 * the same request and goes on waiting, with no error shown, and opens the match once paired; any other
 * refusal of a poll is shown.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { initI18n } from '../../client/i18n';
import PlayNow from '../../client/account/PlayNow';

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const waiting = (ticket: string) => ({ ticket, status: 'waiting', waitedSeconds: 0, suggestedLevel: 'normal' });

/** A stubbed server: each path answers from its own queue of replies; every request is noted. */
function server(replies: Record<string, Response[]>) {
  const sent: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
      sent.push({ path, body: init?.body ? JSON.parse(String(init.body)) : null });
      return replies[path]?.shift() ?? json({ error: 'not expected' }, 500);
    }),
  );
  return sent;
}

const start = (container: HTMLElement) => fireEvent.click(container.querySelector('[data-play-now] button.primary')!);

describe('"Play now" while its ticket lapses', () => {
  it('asks again with the same request, shows no error, and opens the match once paired', async () => {
    const sent = server({
      '/pair': [json(waiting('A'.repeat(32))), json(waiting('B'.repeat(32)))],
      '/pair/poll': [json({ error: 'this pairing ticket expired: ask again' }, 404), json({ ...waiting('B'.repeat(32)), status: 'paired', matchID: 'm1', playerID: '1', playerCredentials: 'c' })],
    });
    window.location.hash = '#/';
    const { container } = render(<PlayNow name={() => 'Ann'} signedIn={false} vsComputer={() => undefined} />);
    start(container);
    await vi.waitFor(() => expect(window.location.hash).toBe('#/match/m1'), { timeout: 8_000, interval: 100 });
    expect(sent.map((s) => s.path)).toEqual(['/pair', '/pair/poll', '/pair', '/pair/poll']);
    expect(sent[2].body).toEqual(sent[0].body);
    expect(sent[0].body).toMatchObject({ side: 'either', name: 'Ann' });
    expect(sent[3].body).toEqual({ ticket: 'B'.repeat(32) });
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });

  it('shows any other refusal of a poll and stops waiting', async () => {
    const sent = server({
      '/pair': [json(waiting('A'.repeat(32)))],
      '/pair/poll': [json({ error: 'too many requests: wait a moment' }, 429)],
    });
    const { container } = render(<PlayNow name={() => 'Ann'} signedIn={false} vsComputer={() => undefined} />);
    start(container);
    await vi.waitFor(() => expect(container.querySelector('[role="alert"]')).not.toBeNull(), { timeout: 8_000, interval: 100 });
    expect(container.querySelector('[data-pairing]')).toBeNull();
    expect(sent.map((s) => s.path)).toEqual(['/pair', '/pair/poll']);
  });
});
