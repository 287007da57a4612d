// @vitest-environment happy-dom
/**
 * The e-mail parts of the account pages with the server's answers stubbed, in Portuguese: "Forgot
 * password?" only when the server sends e-mail, sending a username or an address as such; the e-mail
 * section's per-kind switches; the reset page's form; the confirmation page.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { usePageWords } from '../helpers/page-words';
import AccountPage from '../../client/account/AccountPage';
import { ResetPage, VerifyEmailPage } from '../../client/account/MailPages';
import pages from '../../client/i18n/locales/pages/pt-BR';

usePageWords('pt-BR');
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const words = pages.mail!;

/** A fetch stub: `answers[path]` is the reply (GET or POST); every POST is recorded with its body. */
function server(answers: Record<string, unknown>) {
  const sent: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (init?.method === 'POST') sent.push(`${url.pathname} ${String(init.body)}`);
      return url.pathname in answers ? json(answers[url.pathname]) : json({ error: 'no' }, 404);
    }),
  );
  return sent;
}

describe('forgot password', () => {
  it('is offered under the sign-in form when the server sends e-mail, and sends a username or an address', async () => {
    const sent = server({ '/auth/session': { me: null }, '/auth/email': { available: true }, '/auth/forgot': { sent: 'x' } });
    const { container, findByText } = render(<AccountPage />);
    fireEvent.click(await findByText(words.forgot!));
    const form = container.querySelector('[data-forgot-form]') as HTMLFormElement;
    const ask = async (who: string, n: number) => {
      fireEvent.change(form.querySelector('input[name="who"]')!, { target: { value: who } });
      fireEvent.submit(form);
      await vi.waitFor(() => expect(sent).toHaveLength(n));
    };
    await ask('Woodward', 1);
    await ask(' ana@example.org ', 2);
    expect(sent).toEqual(['/auth/forgot {"username":"Woodward"}', '/auth/forgot {"email":"ana@example.org"}']);
    await findByText(words.forgotSent!);
  });

  it('is not offered when the server has no e-mail', async () => {
    server({ '/auth/session': { me: null }, '/auth/email': { available: false } });
    const { container } = render(<AccountPage />);
    await vi.waitFor(() => expect(container.querySelector('[data-sign-in]')).not.toBeNull());
    await new Promise((r) => setTimeout(r, 100));
    expect(container.querySelector('[data-forgot]')).toBeNull();
  });
});

describe('the e-mail section', () => {
  it('shows the confirmed address and switches one kind off in the page language', async () => {
    const me = { username: 'Woodward', hasPassword: true, passkeys: 0, webhook: null };
    const prefs = { turn: true, challenge: true, end: true, clock: true, daily: false };
    const sent = server({ '/auth/session': { me }, '/auth/passkeys': { passkeys: [] }, '/me/matches': { matches: [] }, '/auth/email': { available: true, email: 'w@example.org', verified: true, prefs }, '/auth/email/settings': { prefs } });
    const { container, findByText } = render(<AccountPage />);
    await findByText(words.verified!.replace('{{email}}', 'w@example.org'));
    fireEvent.click(container.querySelector('[data-email-kind="clock"]')!);
    await vi.waitFor(() => expect(sent).toEqual(['/auth/email/settings {"clock":false,"lang":"pt-BR"}']));
  });
});

describe('pages the links open', () => {
  it('the reset page sends the new password with the token and says it is done', async () => {
    const sent = server({ '/auth/reset': { username: 'Woodward' } });
    const token = 'A'.repeat(43);
    const { container, findByText } = render(<ResetPage token={token} />);
    fireEvent.change(container.querySelector('input[name="password"]')!, { target: { value: 'a brand new password' } });
    fireEvent.submit(container.querySelector('form')!);
    await findByText(words.resetDone!);
    expect(sent).toEqual([`/auth/reset {"token":"${token}","password":"a brand new password"}`]);
  });

  it('the confirmation page confirms once opened, or says the link is no good', async () => {
    server({ '/auth/email/verify': { verified: true } });
    const ok = render(<VerifyEmailPage token={'B'.repeat(43)} />);
    await ok.findByText(words.verifyDone!);
    ok.unmount();
    server({});
    const bad = render(<VerifyEmailPage token={'C'.repeat(43)} />);
    await bad.findByText(words.verifyFailed!);
  });
});
