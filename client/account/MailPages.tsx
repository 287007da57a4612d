/**
 * The pages e-mail links open (server/mail/routes.ts): #/verify-email/<token> confirms an address,
 * #/reset/<token> sets a new password; and the "Forgot password?" form under the sign-in form, shown only
 * when the server can send e-mail.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountError, call } from './api';
import { emailState } from './EmailSettings';

export function VerifyEmailPage({ token }: { token: string }): ReactNode {
  const { t } = useTranslation();
  const [state, setState] = useState<'busy' | 'done' | 'failed' | 'taken'>('busy');
  useEffect(() => {
    call('/auth/email/verify', { token }).then(
      () => setState('done'),
      (e: unknown) => setState(e instanceof AccountError && e.status === 409 ? 'taken' : 'failed'),
    );
  }, [token]);
  return (
    <section className="panel" data-verify-email={state}>
      <h1>{t('mail.title')}</h1>
      <p role="status">{t(state === 'busy' ? 'mail.verifying' : state === 'done' ? 'mail.verifyDone' : state === 'taken' ? 'mail.verifyTaken' : 'mail.verifyFailed')}</p>
      <a href="#/account">{t('mail.toAccount')}</a>
    </section>
  );
}

export function ResetPage({ token }: { token: string }): ReactNode {
  const { t } = useTranslation();
  const [state, setState] = useState<'form' | 'busy' | 'done' | 'failed'>('form');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('password') ?? '');
    setState('busy');
    call('/auth/reset', { token, password }).then(
      () => setState('done'),
      () => setState('failed'),
    );
  };
  return (
    <section className="panel" data-reset={state}>
      <h1>{t('mail.resetTitle')}</h1>
      {state === 'done' ? (
        <p role="status">
          {t('mail.resetDone')} <a href="#/account">{t('mail.toAccount')}</a>
        </p>
      ) : (
        <form onSubmit={submit}>
          <label className="field">
            <span>{t('account.newPassword')}</span>
            <input name="password" type="password" autoComplete="new-password" required minLength={8} maxLength={200} />
          </label>
          <button type="submit" className="primary" disabled={state === 'busy'}>
            {t('mail.resetSave')}
          </button>
          {state === 'failed' && (
            <p className="error" role="alert">
              {t('mail.resetFailed')}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

export function ForgotPassword(): ReactNode {
  const { t } = useTranslation();
  const [available, setAvailable] = useState(false);
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => {
    emailState().then(
      (s) => setAvailable(s.available),
      () => undefined,
    );
  }, []);
  if (!available) return null;
  if (!open)
    return (
      <p>
        <button type="button" className="link" onClick={() => setOpen(true)} data-forgot>
          {t('mail.forgot')}
        </button>
      </p>
    );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const who = String(new FormData(e.currentTarget).get('who') ?? '').trim();
    setNote(null);
    call('/auth/forgot', who.includes('@') ? { email: who } : { username: who }).then(
      () => setNote({ text: t('mail.forgotSent'), error: false }),
      (err: unknown) => setNote({ text: err instanceof AccountError && err.status === 429 ? t('mail.tooMany') : t('mail.forgotFailed'), error: true }),
    );
  };
  return (
    <form className="panel" aria-labelledby="forgot-title" onSubmit={submit} data-forgot-form>
      <h2 id="forgot-title">{t('mail.forgot')}</h2>
      <label className="field">
        <span>{t('mail.forgotWho')}</span>
        <input name="who" required maxLength={254} autoComplete="username" />
      </label>
      <button type="submit">{t('mail.forgotSend')}</button>
      {note && (
        <p className={note.error ? 'error' : 'hint'} role={note.error ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
    </form>
  );
}
