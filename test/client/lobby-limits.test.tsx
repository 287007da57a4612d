// @vitest-environment happy-dom
/**
 * The lobby page with the server's answers stubbed: the list comes a page at a time ("More matches"
 * brings the next, and goes when there is none), and a call refused as too many from this address (429)
 * says so with the wait the server asked for, for a new match and for a match against the computer; a
 * guest's name that a registered player owns is refused in the page's language; leaving a match from
 * "Your matches" calls off the page's read of it (the leave may delete it: a late answer would be a 404).
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { setLanguage, type Language } from '../../client/i18n';
import LobbyPage from '../../client/lobby/LobbyPage';
import { NAME_REGISTERED } from '../../protocol/accounts';
import type { PublicMatch } from '../../protocol/index';
import { usePageWords } from '../helpers/page-words';

usePageWords();

const match = (i: number): PublicMatch => ({ matchID: `m${i}`, gameName: 'watergate', players: [{ id: 0, name: `Host ${i}` }, { id: 1 }], createdAt: 1_000_000 - i, updatedAt: 1_000_000 - i });
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('the lobby page', () => {
  it('pages the open matches with "More matches", and shows a 429 with its wait', async () => {
    const asked: string[] = [];
    let listRefused = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        asked.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
        if (url.pathname === '/games/watergate' && listRefused) return json(429, { error: 'too many requests from your address: try again in 30 seconds', retryAfter: 30 }, { 'Retry-After': '30' });
        if (url.pathname === '/games/watergate' && !url.searchParams.has('after')) return json(200, { matches: Array.from({ length: 50 }, (_, i) => match(i)), next: 'page2' });
        if (url.pathname === '/games/watergate' && url.searchParams.get('after') === 'page2') return json(200, { matches: [match(50), match(51)] });
        if (url.pathname === '/games/watergate/create' || url.pathname === '/games/watergate/vs-computer')
          return json(429, { error: 'too many new matches from your address: try again in 42 seconds', retryAfter: 42 }, { 'Retry-After': '42' });
        return json(404, { error: 'not here' });
      }),
    );
    const { container } = render(<LobbyPage />);
    await vi.waitFor(() => expect(container.querySelectorAll('li.match')).toHaveLength(50));
    expect(asked[0]).toMatch(/^GET \/games\/watergate\?isGameover=false&limit=50$/);
    fireEvent.click(screen.getByText('More matches'));
    await vi.waitFor(() => expect(container.querySelectorAll('li.match')).toHaveLength(52));
    expect(screen.queryByText('More matches')).toBeNull();

    fireEvent.change(container.querySelector('#player-name')!, { target: { value: 'Ann' } });
    fireEvent.click(container.querySelector('[data-create="0"]')!);
    await vi.waitFor(() => expect(container.querySelector('[data-lobby-error]')?.textContent).toContain('Too many requests from your address: try again in 42 s.'));
    fireEvent.click(screen.getByText('Dismiss'));
    expect(container.querySelector('[data-lobby-error]')).toBeNull();
    fireEvent.click(container.querySelector('[data-vs-computer]')!);
    await vi.waitFor(() => expect(container.querySelector('[data-lobby-error]')?.textContent).toContain('try again in 42 s.'));

    // The list refused: the wait is shown, and the page does not ask again before it is over.
    listRefused = true;
    fireEvent.click(screen.getByText('Refresh'));
    await vi.waitFor(() => expect(screen.getByText('Too many requests from your address: try again in 30 s.')).toBeTruthy());
    const asks = asked.filter((a) => a.startsWith('GET /games/watergate?')).length;
    fireEvent.click(screen.getByText('Refresh'));
    await new Promise((r) => setTimeout(r, 50));
    expect(asked.filter((a) => a.startsWith('GET /games/watergate?')).length).toBe(asks);
    // What was listed stays listed meanwhile.
    expect(container.querySelectorAll('li.match')).toHaveLength(52);
  });

  it("says, in the page's language, that a registered player's name is theirs when a guest joins under it", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.pathname === '/games/watergate') return json(200, { matches: [match(1)] });
        if (url.pathname === '/games/watergate/m1/join') return json(403, { error: NAME_REGISTERED });
        return json(404, { error: 'not here' });
      }),
    );
    const said: Record<Language, string> = {
      en: 'That name belongs to a registered player: sign in to use it, or choose another.',
      'pt-BR': 'Esse nome pertence a um jogador registrado',
      'zh-CN': '这个名字属于一位注册玩家',
    };
    try {
      for (const [lang, words] of Object.entries(said) as [Language, string][]) {
        await setLanguage(lang, false);
        const { container, unmount } = render(<LobbyPage />);
        await vi.waitFor(() => expect(container.querySelector('[data-join="1"]')).not.toBeNull());
        fireEvent.change(container.querySelector('#player-name')!, { target: { value: 'Sloan' } });
        fireEvent.click(container.querySelector('[data-join="1"]')!);
        await vi.waitFor(() => expect(container.querySelector('[data-lobby-error]')?.textContent, lang).toContain(words));
        unmount();
      }
    } finally {
      await setLanguage('en', false);
    }
  });
  it('leaving from "Your matches" calls off its read of that match, and asks for it no more', async () => {
    localStorage.setItem('watergate.seats', JSON.stringify({ m9: { matchID: 'm9', playerID: '0', credentials: 'c', name: 'Ann' } }));
    const reads: { signal?: AbortSignal | null }[] = [];
    let left = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.pathname === '/games/watergate') return json(200, { matches: [] });
        if (url.pathname === '/games/watergate/m9/leave') {
          left = true;
          return json(200, {});
        }
        if (url.pathname === '/games/watergate/m9') {
          // Still on its way when the player leaves (the leave deletes the match: the answer would be a 404).
          reads.push(init ?? {});
          return new Promise<Response>((_, fail) => init?.signal?.addEventListener('abort', () => fail(new DOMException('aborted', 'AbortError'))));
        }
        return json(404, { error: 'not here' });
      }),
    );
    try {
      const { container } = render(<LobbyPage />);
      const row = () => container.querySelector('[data-my-match="m9"]');
      await vi.waitFor(() => expect(reads.length).toBeGreaterThan(0));
      fireEvent.click(within(row() as HTMLElement).getByText('Leave'));
      await vi.waitFor(() => expect(left).toBe(true));
      expect(reads.every((r) => r.signal?.aborted)).toBe(true);
      await vi.waitFor(() => expect(row()).toBeNull());
      const asked = reads.length;
      fireEvent.click(screen.getByText('Refresh'));
      await new Promise((r) => setTimeout(r, 50));
      expect(reads.length).toBe(asked);
      expect(JSON.parse(localStorage.getItem('watergate.seats') ?? '{}')).toEqual({});
    } finally {
      localStorage.clear();
      vi.unstubAllGlobals();
    }
  });
});
