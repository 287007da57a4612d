// @vitest-environment happy-dom
/**
 * The account page's sign-up form with the server's answers stubbed: a username the server would refuse
 * (look-alike scripts mixed, a space, the computer's name) is refused in the player's language before
 * anything is sent; a good one is sent as typed.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { initI18n, loadPageWords, setLanguage } from '../../client/i18n';
import AccountPage from '../../client/account/AccountPage';
import pages from '../../client/i18n/locales/pages/pt-BR';
import ptBR from '../../client/i18n/locales/pt-BR';

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'pt-BR');
  await initI18n();
  await setLanguage('pt-BR');
  await loadPageWords();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-up form', () => {
  it('refuses in Portuguese what the server would refuse, sending nothing; sends a good username', async () => {
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.pathname === '/auth/session') return new Response(JSON.stringify({ me: null }), { headers: { 'content-type': 'application/json' } });
        sent.push(`${url.pathname} ${String(init?.body)}`);
        return new Response(JSON.stringify({ error: 'not now' }), { status: 503, headers: { 'content-type': 'application/json' } });
      }),
    );
    const { container } = render(<AccountPage />);
    await vi.waitFor(() => expect(container.querySelector('[data-sign-up]')).not.toBeNull());
    const form = container.querySelector('[data-sign-up]') as HTMLFormElement;
    const submit = (username: string) => {
      fireEvent.change(form.querySelector('input[name="username"]')!, { target: { value: username } });
      fireEvent.change(form.querySelector('input[name="password"]')!, { target: { value: 'long enough' } });
      fireEvent.submit(form);
    };
    const error = () => container.querySelector('[data-account-error]')?.textContent;
    for (const [name, words] of [
      ['Woodwаrd', pages.account!.usernameRefused!.scripts],
      ['has space', pages.account!.usernameRefused!.form],
      ['Computador', ptBR.lobby!.nameRefused!.computer],
    ] as const) {
      submit(name);
      await vi.waitFor(() => expect(error(), name).toBe(words));
    }
    expect(sent).toEqual([]);
    submit('Woodward');
    await vi.waitFor(() => expect(sent).toEqual([`/auth/signup ${JSON.stringify({ username: 'Woodward', password: 'long enough' })}`]));
  });
});
