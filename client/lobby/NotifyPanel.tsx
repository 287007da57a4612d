/**
 * "Notify me when it's my turn", opened from the match bar (loaded on demand with the page words): the
 * browser's notifications (while this tab is hidden) and, for when no board is open at all, a webhook
 * for this seat (Discord-compatible: the server posts `{"content"}` with the match link). The address is
 * remembered in this browser to offer it again in the next match; the server shows it to nobody.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { roleName } from '../i18n/words';
import { askNotify, notifyState, stopNotify } from '../notify';
import type { HeldSeat } from './seats';

const WEBHOOK = 'watergate.webhook';

/** `asked`: the permission question the match bar's button put to the browser, if it did. */
export default function NotifyPanel({ matchID, seat, asked }: { matchID: string; seat: HeldSeat; asked: Promise<unknown> | null }): ReactNode {
  const { t } = useTranslation();
  const [state, setState] = useState(notifyState);
  useEffect(() => void asked?.then(() => setState(notifyState())), [asked]);
  const [webhook, setWebhook] = useState(() => localStorage.getItem(WEBHOOK) ?? '');
  const [result, setResult] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const signedIn = localStorage.getItem('watergate.account') !== null;
  const send = async (value: string | null) => {
    setBusy(true);
    // The lobby API as the match page loads it: on demand (its chunk holds boardgame.io's LobbyClient).
    const { errorText, setSeatWebhook } = await import('./api');
    try {
      await setSeatWebhook(matchID, seat, value);
      if (value) localStorage.setItem(WEBHOOK, value);
      setResult({ text: t(value ? 'notify.saved' : 'notify.removed'), error: false });
    } catch (e) {
      setResult({ text: t('lobby.error', { message: errorText(e) }), error: true });
    }
    setBusy(false);
  };
  return (
    <section className="panel notify-panel" id="notify-panel" aria-labelledby="notify-title" data-notify-panel>
      <h2 id="notify-title">{t('notify.title')}</h2>
      <p className="hint" role="status" data-notify-state={state}>
        {t(`notify.browser.${state}`)}{' '}
        {state === 'on' && (
          <button type="button" className="link" onClick={() => {
              stopNotify();
              setState(notifyState());
            }}>
            {t('notify.stop')}
          </button>
        )}
        {state === 'off' && (
          <button type="button" className="link" onClick={() => void askNotify().then(setState)}>
            {t('notify.start')}
          </button>
        )}
      </p>
      {/* Signed in, the account's webhook serves every seat (one place): set on the account page. */}
      {signedIn ? (
        <p className="hint" data-account-webhook>
          <a href="#/account">{t('notify.accountWebhook')}</a>
        </p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (webhook.trim()) void send(webhook.trim());
          }}
        >
          <label className="field">
            <span>{t('notify.webhook', { role: roleName(t, seat.playerID) })}</span>
            <input type="url" value={webhook} maxLength={500} placeholder="https://discord.com/api/webhooks/…" onChange={(e) => setWebhook(e.target.value)} data-webhook />
          </label>
          <p className="hint">{t('notify.webhookHint')}</p>
          <p className="actions">
            <button type="submit" className="primary" disabled={busy || !webhook.trim()} data-webhook-save>
              {t('notify.save')}
            </button>
            <button type="button" disabled={busy} onClick={() => void send(null)} data-webhook-remove>
              {t('notify.remove')}
            </button>
          </p>
        </form>
      )}
      {result && (
        <p className={result.error ? 'error' : 'hint'} role={result.error ? 'alert' : 'status'} data-webhook-result>
          {result.text}
        </p>
      )}
    </section>
  );
}
