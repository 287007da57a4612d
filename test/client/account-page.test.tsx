// @vitest-environment happy-dom
/**
 * The account page's sign-up form with the server's answers stubbed: a username the server would refuse
 * (look-alike scripts mixed, a space, the computer's name) is refused in the player's language before
 * anything is sent; a good one is sent as typed. Signed in, the passkeys are listed (added, last used)
 * and removed, a password change may remove them all, and a look-alike username is refused in words.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { usePageWords } from '../helpers/page-words';
import { USERNAME_LOOKALIKE } from '../../protocol/accounts';
import AccountPage from '../../client/account/AccountPage';
import pages from '../../client/i18n/locales/pages/pt-BR';
import ptBR from '../../client/i18n/locales/pt-BR';

usePageWords('pt-BR');

describe('the sign-up form', () => {
  it('refuses in Portuguese what the server would refuse, sending nothing; sends a good username', async () => {
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.pathname === '/auth/session') return new Response(JSON.stringify({ me: null }), { headers: { 'content-type': 'application/json' } });
        // A server without e-mail: the page asks once, and shows no e-mail parts.
        if (url.pathname === '/auth/email') return new Response(JSON.stringify({ available: false }), { headers: { 'content-type': 'application/json' } });
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
    const error = () => container.querySelector('[data-sign-up] [data-account-error]')?.textContent;
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

describe('passkeys and a look-alike username', () => {
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('lists the passkeys with when they were added and last used, removes one, and a password change may remove them all', async () => {
    const sent: string[] = [];
    let keys = [
      { id: 'AAAAAAAAAAAAAAAA', name: 'Notebook', addedAt: Date.UTC(2026, 0, 5), lastUsedAt: Date.UTC(2026, 1, 7) },
      { id: 'BBBBBBBBBBBBBBBB', name: 'Passkey 2', addedAt: Date.UTC(2026, 2, 1), lastUsedAt: null },
    ];
    // happy-dom has no WebAuthn: a browser that has it (the page hides the passkey form without it).
    vi.stubGlobal('PublicKeyCredential', class {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.pathname === '/auth/session') return json({ me: { username: 'Woodward', hasPassword: true, passkeys: keys.length, webhook: null } });
        if (url.pathname === '/auth/passkeys') return json({ passkeys: keys });
        if (url.pathname === '/auth/email') return json({ available: false });
        if (url.pathname === '/me/matches') return json({ matches: [] });
        sent.push(`${url.pathname} ${String(init?.body)}`);
        if (url.pathname === '/auth/passkeys/AAAAAAAAAAAAAAAA/delete') return json({ passkeys: (keys = keys.slice(1)) });
        return json({});
      }),
    );
    const { container, getByRole } = render(<AccountPage />);
    await vi.waitFor(() => expect(container.querySelectorAll('[data-passkey]').length).toBe(2));
    const first = container.querySelector('[data-passkey="Notebook"]')!.textContent!;
    expect(first).toContain(pages.account!.passkeyAddedOn!.split(' ')[0]);
    expect(first).toContain(pages.account!.passkeyLastUsed!.split(' ')[0]);
    expect(container.querySelector('[data-passkey="Passkey 2"]')!.textContent).toContain(pages.account!.passkeyNeverUsed);
    // Adding one asks for the password.
    expect(container.querySelector('[data-passkey-form] input[name="password"]')).not.toBeNull();
    fireEvent.click(getByRole('button', { name: 'Remover a chave de acesso “Notebook”' }));
    await vi.waitFor(() => expect(container.querySelectorAll('[data-passkey]').length).toBe(1));
    expect(sent).toEqual(['/auth/passkeys/AAAAAAAAAAAAAAAA/delete {}']);
    const form = container.querySelector('input[name="newPassword"]')!.closest('form')!;
    fireEvent.change(form.querySelector('input[name="password"]')!, { target: { value: 'old password' } });
    fireEvent.change(form.querySelector('input[name="newPassword"]')!, { target: { value: 'new password' } });
    fireEvent.click(form.querySelector('input[name="removePasskeys"]')!);
    fireEvent.submit(form);
    await vi.waitFor(() => expect(sent.at(-1)).toBe(`/auth/password ${JSON.stringify({ password: 'old password', newPassword: 'new password', removePasskeys: true })}`));
  });

  it('says in the page language that a username looks like an existing one', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.pathname === '/auth/session') return json({ me: null });
        return json({ error: USERNAME_LOOKALIKE }, 409);
      }),
    );
    const { container } = render(<AccountPage />);
    await vi.waitFor(() => expect(container.querySelector('[data-sign-up]')).not.toBeNull());
    const form = container.querySelector('[data-sign-up]') as HTMLFormElement;
    fireEvent.change(form.querySelector('input[name="username"]')!, { target: { value: 'aIice' } });
    fireEvent.change(form.querySelector('input[name="password"]')!, { target: { value: 'long enough' } });
    fireEvent.submit(form);
    await vi.waitFor(() => expect(container.querySelector('[data-account-error]')?.textContent).toBe(pages.account!.lookalike));
  });
});
