/**
 * #/account: optional accounts (guests play exactly as before). Signed out: sign in (password or
 * passkey) or create an account. Signed in: the matches this browser held as a guest offered to the
 * account, its passkeys (listed, named, removed; adding one asks for the password), the turn-notification webhook for every seat, the password, "download my data",
 * sign out here or everywhere, and deleting the account. Loaded on demand with the page words.
 */
import './account.css';
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { checkUsername, NAME_REGISTERED, PASSKEY_NAME, PASSKEY_NEEDS_PASSWORD, SEEN_TOGETHER_REFUSAL, USERNAME_LOOKALIKE, type Me, type PasskeyView } from '../../protocol/accounts';
import { checkName } from '../../protocol/names';
import type { HeldSeat } from '../lobby/seats';
import { AccountError, changePassword, claimSeats, deleteAccount, listPasskeys, logIn, logOut, logOutEverywhere, me as whoAmI, removePasskey, setAccountWebhook, signUp } from './api';
import { PushSettings } from './PushSettings';
import { rememberAccount, syncSeats } from './session';
import EmailSettings from './EmailSettings';
import { ForgotPassword } from './MailPages';
import { passkeyBlock } from './passkeyHost';

type T = ReturnType<typeof useTranslation>['t'];

/** A refusal in the player's words where we have them, else the server's. */
export function refusalText(t: T, e: unknown): string {
  if (e instanceof AccountError) {
    if (e.status === 429) return t('lobby.rateLimited', { seconds: e.retryAfter ?? 1 });
    if (e.status === 401) return t('account.refused');
    if (e.status === 403 && e.message === NAME_REGISTERED) return t('lobby.nameRefused.registered');
    if (e.status === 403 && e.message === PASSKEY_NEEDS_PASSWORD) return t('account.passkeyNeedsPassword');
    if (e.status === 409 && e.message === USERNAME_LOOKALIKE) return t('account.lookalike');
    if (e.status === 409 && e.message === SEEN_TOGETHER_REFUSAL) return t('challenge.seenTogether');
    if (e.status === 409) return t('account.taken');
    return t('lobby.error', { message: e.message });
  }
  if (e instanceof Error && e.name === 'NotAllowedError') return t('account.passkeyCancelled');
  return e instanceof TypeError ? t('lobby.offline') : t('lobby.error', { message: e instanceof Error ? e.message : String(e) });
}

/**
 * A passkey ceremony's failure, naming who refused: the server (its answer, in the player's words where we
 * have them) or the browser (the authenticator was cancelled, timed out or not allowed here).
 */
export function passkeyRefusal(t: T, e: unknown): string {
  if (e instanceof AccountError) return t('account.passkeyServerRefused', { reason: e.status === 403 && e.message === PASSKEY_NEEDS_PASSWORD ? t('account.passkeyNeedsPassword') : e.status === 429 || e.status === 401 ? refusalText(t, e) : e.message });
  if (e instanceof TypeError) return t('lobby.offline');
  return t('account.passkeyBrowserRefused', { reason: e instanceof Error && e.name === 'NotAllowedError' ? t('account.passkeyCancelled') : e instanceof Error ? e.message : String(e) });
}

/** Why passkeys cannot work on this page (an IP address host, no WebAuthn, no secure context), shown instead of the buttons. */
function PasskeyBlocked(): ReactNode {
  const { t } = useTranslation();
  const b = passkeyBlock();
  if (!b) return null;
  return (
    <p className="hint" data-passkey-unavailable>
      {t(`account.passkeyUnavailable.${b.why}`, b.why === 'ipHost' ? { host: b.host, url: b.url } : b.why === 'ipHostRemote' ? { host: b.host } : {})}
    </p>
  );
}

/** Why the server would refuse `raw` as a new username (protocol/names.ts, then protocol/accounts.ts), or null. */
function usernameRefusal(t: T, raw: string): string | null {
  const c = checkName(raw);
  if ('problem' in c) return c.code === 'length' ? t('account.usernameRefused.form') : t(`lobby.nameRefused.${c.code}`);
  const u = checkUsername(c.name);
  return 'code' in u ? t(`account.usernameRefused.${u.code}`) : null;
}

function SignedOut({ done }: { done: (username: string) => void }): ReactNode {
  const { t } = useTranslation();
  // Each refusal under the form (or the passkey button) that caused it.
  const [error, setError] = useState<{ text: string; form: 'signIn' | 'signUp' } | null>(null);
  const [keyError, setKeyError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const keys = passkeyBlock() === null;
  const errorIn = (form: 'signIn' | 'signUp') =>
    error?.form === form && (
      <p className="error" role="alert" data-account-error>
        {error.text}
      </p>
    );
  const run = async (f: () => Promise<string>, passkey: boolean, form: 'signIn' | 'signUp' = 'signIn') => {
    setBusy(true);
    setError(null);
    setKeyError(null);
    try {
      done(await f());
    } catch (e) {
      if (passkey) setKeyError(passkeyRefusal(t, e));
      else setError({ text: refusalText(t, e), form });
    } finally {
      setBusy(false);
    }
  };
  const form = (kind: 'signIn' | 'signUp') => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const [u, p] = [String(f.get('username') ?? ''), String(f.get('password') ?? '')];
    // A new username is checked here first, by the server's rule, so a refusal is in the player's words.
    const refused = kind === 'signUp' ? usernameRefusal(t, u) : null;
    if (refused) return setError({ text: refused, form: kind });
    void run(async () => (kind === 'signIn' ? await logIn(u, p) : await signUp(u, p)).username, false, kind);
  };
  return (
    <>
      <p className="hint">{t('account.optional')}</p>
      <div className="account-forms">
        <form className="panel" aria-labelledby="sign-in-title" onSubmit={form('signIn')} data-sign-in>
          <h2 id="sign-in-title">{t('account.signIn')}</h2>
          <label className="field">
            <span>{t('account.username')}</span>
            <input name="username" autoComplete="username webauthn" required maxLength={24} />
          </label>
          <label className="field">
            <span>{t('account.password')}</span>
            <input name="password" type="password" autoComplete="current-password" required maxLength={200} />
          </label>
          <p className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {t('account.signIn')}
            </button>
            {keys && (
              <button type="button" disabled={busy} data-passkey-sign-in onClick={() => void run(async () => (await import('./passkey')).signInWithPasskey(), true)}>
                {t('account.passkeySignIn')}
              </button>
            )}
          </p>
          {errorIn('signIn')}
          <PasskeyBlocked />
          {keyError && (
            <p className="error" role="alert" data-passkey-error>
              {keyError}
            </p>
          )}
        </form>
        <form className="panel" aria-labelledby="sign-up-title" onSubmit={form('signUp')} data-sign-up>
          <h2 id="sign-up-title">{t('account.signUp')}</h2>
          <label className="field">
            <span>{t('account.username')}</span>
            <input name="username" autoComplete="username" required minLength={3} maxLength={24} />
          </label>
          <label className="field">
            <span>{t('account.newPassword')}</span>
            <input name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={200} />
          </label>
          <p className="hint">{t('account.usernameRule')}</p>
          <button type="submit" className="primary" disabled={busy}>
            {t('account.create')}
          </button>
          {errorIn('signUp')}
        </form>
      </div>
      <ForgotPassword />
    </>
  );
}

/** The account's passkeys: name, when added and last used, and a Remove button each; adding one asks for the password. */
function Passkeys({ account, act, reload }: { account: Me; act: (f: () => Promise<unknown>, ok: string) => Promise<void>; reload: () => void }): ReactNode {
  const { t, i18n } = useTranslation();
  const [keys, setKeys] = useState<PasskeyView[]>([]);
  // Adding a passkey answers under its own form, naming whether the browser or the server refused.
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const usable = passkeyBlock() === null;
  useEffect(() => {
    listPasskeys().then(setKeys, () => undefined);
  }, [account.passkeys]);
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    setNote(null);
    void (async () => {
      try {
        await (await import('./passkey')).addPasskey({ password: String(f.get('password') ?? '') || undefined, name: String(f.get('passkeyName') ?? '').trim() || undefined });
        form.reset();
        setNote({ text: t('account.passkeyAdded'), error: false });
        reload();
      } catch (err) {
        setNote({ text: passkeyRefusal(t, err), error: true });
      }
    })();
  };
  return (
    <section className="panel" aria-labelledby="passkey-title">
      <h2 id="passkey-title">{t('account.passkeys')}</h2>
      <p>{t('account.passkeyCount', { count: account.passkeys })}</p>
      {keys.length > 0 && (
        <ul className="passkey-list" data-passkeys>
          {keys.map((k) => (
            <li key={k.id} data-passkey={k.name}>
              <strong>{k.name}</strong>{' '}
              <span className="hint">
                {t('account.passkeyAddedOn', { date: date.format(k.addedAt) })} · {k.lastUsedAt === null ? t('account.passkeyNeverUsed') : t('account.passkeyLastUsed', { date: date.format(k.lastUsedAt) })}
              </span>{' '}
              <button type="button" aria-label={t('account.removePasskeyNamed', { name: k.name })} onClick={() => void act(async () => setKeys(await removePasskey(k.id)), 'account.passkeyRemoved')}>
                {t('account.removePasskey')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <PasskeyBlocked />
      {usable && (
        <form onSubmit={add} data-passkey-form>
          <label className="field">
            <span>{t('account.passkeyName')}</span>
            <input name="passkeyName" maxLength={PASSKEY_NAME.max} placeholder={t('account.passkeyNamePlaceholder')} />
          </label>
          {account.hasPassword && (
            <label className="field">
              <span>{t('account.password')}</span>
              <input name="password" type="password" autoComplete="current-password" maxLength={200} />
            </label>
          )}
          <p className="hint">{t('account.passkeyPasswordHint')}</p>
          <button type="submit" data-add-passkey>
            {t('account.addPasskey')}
          </button>
          {note && (
            <p className={note.error ? 'error' : 'hint'} role={note.error ? 'alert' : 'status'} data-passkey-note>
              {note.text}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

function SignedIn({ account, reload, signedOut }: { account: Me; reload: () => void; signedOut: () => void }): ReactNode {
  const { t } = useTranslation();
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [guest, setGuest] = useState<HeldSeat[]>([]);
  const [webhook, setWebhook] = useState(account.webhook ?? '');
  const [deleting, setDeleting] = useState(false);
  useEffect(() => {
    syncSeats().then((s) => setGuest(s.guestSeats), () => undefined);
  }, []);
  const act = async (f: () => Promise<unknown>, ok: string) => {
    setNote(null);
    try {
      await f();
      setNote({ text: t(ok), error: false });
      reload();
    } catch (e) {
      setNote({ text: refusalText(t, e), error: true });
    }
  };
  const fields = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    return new FormData(e.currentTarget);
  };
  return (
    <>
      <p data-signed-in={account.username}>
        {t('account.signedInAs', { name: account.username })} · <a href={`#/player/${encodeURIComponent(account.username)}`}>{t('account.yourProfile')}</a>
      </p>
      {guest.length > 0 && (
        <section className="panel claim" aria-labelledby="claim-title">
          <h2 id="claim-title">{t('account.claimTitle')}</h2>
          <p>{t('account.claimText', { count: guest.length })}</p>
          <button
            type="button"
            className="primary"
            data-claim
            onClick={() =>
              void act(async () => {
                await claimSeats(guest.map((s) => ({ matchID: s.matchID, playerID: s.playerID as '0' | '1', credentials: s.credentials })));
                setGuest((await syncSeats()).guestSeats);
              }, 'account.claimed')
            }
          >
            {t('account.claim', { count: guest.length })}
          </button>
        </section>
      )}
      <Passkeys account={account} act={act} reload={reload} />
      <EmailSettings />
      <form className="panel" aria-labelledby="webhook-title" onSubmit={(e) => (e.preventDefault(), void act(() => setAccountWebhook(webhook || null), webhook ? 'notify.saved' : 'notify.removed'))}>
        <h2 id="webhook-title">{t('account.webhookTitle')}</h2>
        <label className="field">
          <span>{t('account.webhook')}</span>
          <input type="url" value={webhook} maxLength={500} onChange={(e) => setWebhook(e.target.value)} placeholder="https://discord.com/api/webhooks/…" />
        </label>
        <p className="hint">{t('account.webhookHint')}</p>
        <button type="submit">{t('notify.save')}</button>
      </form>
      <PushSettings />
      <form className="panel" aria-labelledby="password-title" onSubmit={(e) => {
        const f = fields(e);
        void act(() => changePassword(String(f.get('password') ?? ''), String(f.get('newPassword') ?? ''), f.get('removePasskeys') === 'on'), 'account.passwordChanged');
      }}>
        <h2 id="password-title">{account.hasPassword ? t('account.changePassword') : t('account.setPassword')}</h2>
        {account.hasPassword && (
          <label className="field">
            <span>{t('account.password')}</span>
            <input name="password" type="password" autoComplete="current-password" maxLength={200} />
          </label>
        )}
        <label className="field">
          <span>{t('account.newPassword')}</span>
          <input name="newPassword" type="password" autoComplete="new-password" minLength={8} maxLength={200} required />
        </label>
        {account.passkeys > 0 && (
          <label className="check">
            <input name="removePasskeys" type="checkbox" /> {t('account.removePasskeysToo', { count: account.passkeys })}
          </label>
        )}
        <button type="submit">{t('account.savePassword')}</button>
      </form>
      <section className="panel" aria-labelledby="session-title">
        <h2 id="session-title">{t('account.data')}</h2>
        <p className="actions">
          <a className="button" href="/me/data" download="watergate-account.json" data-download>
            {t('account.download')}
          </a>
          <button type="button" data-sign-out onClick={() => void logOut().then(signedOut)}>
            {t('account.signOut')}
          </button>
          <button type="button" data-sign-out-all onClick={() => void logOutEverywhere().then(signedOut)}>
            {t('account.signOutEverywhere')}
          </button>
          <button type="button" className="danger" onClick={() => setDeleting(true)}>
            {t('account.delete')}
          </button>
        </p>
        <p className="hint">{t('account.signOutEverywhereHint')}</p>
        {deleting && (
          <form role="alertdialog" aria-labelledby="delete-question" onSubmit={(e) => {
            const f = fields(e);
            const v = String(f.get('confirm') ?? '');
            void deleteAccount(account.hasPassword ? { password: v } : { confirm: v }).then(signedOut, (err: unknown) => setNote({ text: refusalText(t, err), error: true }));
          }}>
            <p id="delete-question">{t('account.deleteQuestion')}</p>
            <label className="field">
              <span>{account.hasPassword ? t('account.password') : t('account.typeUsername')}</span>
              <input name="confirm" type={account.hasPassword ? 'password' : 'text'} required maxLength={200} />
            </label>
            <button type="submit" className="danger">
              {t('account.deleteForever')}
            </button>
          </form>
        )}
      </section>
      {note && (
        <p className={note.error ? 'error' : 'hint'} role={note.error ? 'alert' : 'status'} data-account-note>
          {note.text}
        </p>
      )}
    </>
  );
}

export default function AccountPage(): ReactNode {
  const { t } = useTranslation();
  const [account, setAccount] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    whoAmI().then(
      (m) => {
        setAccount(m);
        rememberAccount(m?.username ?? null);
      },
      (e: unknown) => setError(refusalText(t, e)),
    );
  }, [t]);
  useEffect(reload, [reload]);
  return (
    <div className="account-page">
      <h1>{t('account.title')}</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {account === undefined ? (
        <p>{t('app.loading')}</p>
      ) : account ? (
        <SignedIn account={account} reload={reload} signedOut={() => (rememberAccount(null), setAccount(null))} />
      ) : (
        <SignedOut done={(u) => (rememberAccount(u), reload())} />
      )}
    </div>
  );
}
