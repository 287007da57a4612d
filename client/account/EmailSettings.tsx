/**
 * The account page's e-mail section (server/mail/routes.ts): an optional address, confirmed by a link,
 * and which notices it receives. Shown only when the server can send e-mail (GET /auth/email says so).
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { call } from './api';
import { refusalText } from './AccountPage';

export const NOTICE_KINDS = ['turn', 'challenge', 'end', 'clock', 'daily'] as const;
type Kind = (typeof NOTICE_KINDS)[number];

export interface EmailState {
  available: boolean;
  email?: string | null;
  verified?: boolean;
  prefs?: Record<Kind, boolean>;
}

export const emailState = () => call<EmailState>('/auth/email');

export default function EmailSettings(): ReactNode {
  const { t } = useTranslation();
  const [s, setS] = useState<EmailState | null>(null);
  const [email, setEmail] = useState('');
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const load = () =>
    emailState().then(
      (x) => (setS(x), setEmail(x.email ?? '')),
      () => setS({ available: false }),
    );
  useEffect(() => void load(), []);
  if (!s?.available) return null;
  const act = async (f: () => Promise<unknown>, ok: string) => {
    setNote(null);
    try {
      await f();
      setNote({ text: t(ok), error: false });
      await load();
    } catch (e) {
      setNote({ text: refusalText(t, e), error: true });
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void act(() => call('/auth/email', { email: email.trim() || null, lang: currentLanguage() }), email.trim() ? 'mail.sent' : 'mail.removed');
  };
  const toggle = (k: Kind, on: boolean) => void act(() => call('/auth/email/settings', { [k]: on, lang: currentLanguage() }), 'mail.settingsSaved');
  return (
    <section className="panel" aria-labelledby="email-title" data-email-settings>
      <h2 id="email-title">{t('mail.title')}</h2>
      <form onSubmit={save}>
        <label className="field">
          <span>{t('mail.address')}</span>
          <input type="email" value={email} maxLength={254} autoComplete="email" onChange={(e) => setEmail(e.target.value)} />
        </label>
        <p className="hint">{t('mail.hint')}</p>
        {s.email && <p data-email-status>{s.verified ? t('mail.verified', { email: s.email }) : t('mail.unverified', { email: s.email })}</p>}
        <button type="submit">{s.email && !s.verified && email.trim() === s.email ? t('mail.resend') : t('mail.save')}</button>
      </form>
      {s.email && s.verified && s.prefs && (
        <fieldset>
          <legend>{t('mail.kindsTitle')}</legend>
          {NOTICE_KINDS.map((k) => (
            <p key={k}>
              <label className="check">
                <input type="checkbox" checked={s.prefs![k]} onChange={(e) => toggle(k, e.target.checked)} data-email-kind={k} /> {t(`mail.kind.${k}`)}
              </label>
            </p>
          ))}
        </fieldset>
      )}
      {note && (
        <p className={note.error ? 'error' : 'hint'} role={note.error ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
    </section>
  );
}
