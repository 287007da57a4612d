// @vitest-environment happy-dom
/**
 * The lobby's create form for a signed-in player, with the server's answers stubbed: a rated match is
 * offered only what a rated match may have (protocol/rated.ts) — no hints, no "computer plays on", no
 * other rules, take-backs off, hand-over choices from the time control's floor — and sends exactly that;
 * unticking "Rated" gives the choices back. A rematch's seat kept for the old opponent is not offered in the list.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import LobbyPage from '../../client/lobby/LobbyPage';
import { rememberAccount } from '../../client/account/session';
import { usePageWords } from '../helpers/page-words';

usePageWords();

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the create form, signed in', () => {
  it('offers a rated match only the rated settings, and sends only them', async () => {
    const sent: { rated?: boolean; setupData?: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
        const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
        if (path === '/auth/me') return json(200, { username: 'Ann', hasPassword: true, passkeys: 0, webhook: null });
        if (path === '/me/matches') return json(200, { matches: [] });
        if (path === '/games/watergate') return json(200, { matches: [] });
        if (path === '/games/watergate/create') {
          sent.push(JSON.parse(String(init?.body)));
          return json(429, { error: 'too many new matches from your address: try again in 9 seconds', retryAfter: 9 });
        }
        return json(404, { error: 'not here' });
      }),
    );
    rememberAccount('Ann');
    const { container } = render(<LobbyPage />);
    const $ = (sel: string) => container.querySelector(sel);
    const abandonChoices = () => [...container.querySelectorAll('[data-abandon] option')].map((o) => (o as HTMLOptionElement).value);
    const create = async () => {
      fireEvent.click($('[data-create="0"]')!);
      await vi.waitFor(() => expect($('[data-lobby-error]')).not.toBeNull());
      fireEvent.click($('[data-lobby-error] button')!);
      return sent[sent.length - 1];
    };

    await vi.waitFor(() => expect($('[data-rated-create]')).not.toBeNull());
    expect(($('[data-rated-create]') as HTMLInputElement).checked).toBe(true);
    expect($('[data-rated-rules]')!.textContent).toBe('Rated matches are played with one of these clocks, the standard rules, no hints and no take-backs; a seat is handed over no sooner than the clock allows.');
    // Untimed: no hints, no "never", nothing under a day.
    expect($('[data-hints]')).toBeNull();
    expect(abandonChoices()).toEqual(['1440']);
    expect(($('[data-take-backs]') as HTMLSelectElement).disabled).toBe(true);
    expect(($('.rules-options') as HTMLElement).hidden).toBe(true);
    expect(await create()).toEqual({ numPlayers: 2, unlisted: false, rated: true, setupData: { abandonMinutes: 1440 } });

    // Live: its clock, lost on time; hand-over never, or from 5 minutes.
    fireEvent.change($('[data-clock-preset]')!, { target: { value: 'live' } });
    expect($('[data-on-timeout]')).toBeNull();
    expect(abandonChoices()).toEqual(['', '5', '15', '60', '1440']);
    expect((await create()).setupData).toEqual({ clock: { initialSeconds: 600, incrementSeconds: 10, onTimeout: 'lose' } });

    // Unrated: the choices come back, and are sent.
    fireEvent.click($('[data-rated-create]')!);
    expect($('[data-rated-rules]')).toBeNull();
    fireEvent.change($('[data-on-timeout]')!, { target: { value: 'bot' } });
    fireEvent.change($('[data-clock-preset]')!, { target: { value: 'none' } });
    fireEvent.click($('[data-hints]')!);
    expect(abandonChoices()).toEqual(['', '5', '15', '60', '1440']);
    const unrated = await create();
    expect(unrated.rated).toBe(false);
    expect(unrated.setupData).toEqual({ jokerFallback: 'errata2023', pinImpossible: 'returnToBag', hints: true, takeBacks: 'consent' });
    rememberAccount(null);
  });

  it("does not offer a rematch's seat kept for the old opponent to others in the list", async () => {
    const until = Date.now() + 3_600_000;
    const rematch = { matchID: 'rm', gameName: 'watergate', players: [{ id: 0 }, { id: 1, name: 'Ann' }], createdAt: 1, updatedAt: 1, kept: { seat: '0', until } };
    const open = { ...rematch, matchID: 'op', kept: undefined };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request) => {
        const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
        return path === '/games/watergate' ? json(200, { matches: [rematch, open] }) : json(404, { error: 'not here' });
      }),
    );
    const { container } = render(<LobbyPage />);
    await vi.waitFor(() => expect(container.querySelectorAll('li.match')).toHaveLength(2));
    const kept = container.querySelector('[data-match="rm"] [data-join="0"]') as HTMLButtonElement;
    expect(kept.disabled).toBe(true);
    expect(kept.title).toMatch(/^Kept for the rematch's old opponent until /);
    expect((container.querySelector('[data-match="op"] [data-join="0"]') as HTMLButtonElement).disabled).toBe(false);
  });
});
