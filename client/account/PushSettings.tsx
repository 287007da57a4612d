/**
 * Push notifications for this browser (account page): subscribes through the service worker
 * (client/sw.ts, with client/push-sw.ts's handlers) with the server's VAPID public key, and tells the
 * server the subscription; or ends both. Pushes come only when the player is away (server/notify/push.ts).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalText } from './AccountPage';
import { pushKey, pushSubscribed, subscribePush, unsubscribePush } from './social';

type State = 'loading' | 'unsupported' | 'denied' | 'on' | 'off';

/** How long to wait for the service worker before saying push is not available here. */
const READY_WAIT_MS = 5000;

/** The Push API's applicationServerKey from the server's base64url key. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(b.length));
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || typeof window.PushManager === 'undefined' || typeof window.Notification === 'undefined') return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const none = new Promise<null>((r) => (timer = setTimeout(() => r(null), READY_WAIT_MS)));
  return Promise.race([navigator.serviceWorker.ready, none]).finally(() => clearTimeout(timer));
}

export function PushSettings(): ReactNode {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<State>('loading');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const reg = await registration();
      if (!reg) return live && setState('unsupported');
      if (Notification.permission === 'denied') return live && setState('denied');
      const sub = await reg.pushManager.getSubscription();
      const on = sub ? await pushSubscribed(sub.endpoint).catch(() => false) : false;
      if (live) setState(on ? 'on' : 'off');
    })();
    return () => {
      live = false;
    };
  }, []);
  const change = async (want: boolean) => {
    setError(null);
    try {
      const reg = await registration();
      if (!reg) return setState('unsupported');
      if (want) {
        if ((await Notification.requestPermission()) !== 'granted') return setState('denied');
        const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(await pushKey()) }));
        await subscribePush(sub.toJSON(), i18n.language);
        setState('on');
      } else {
        const sub = await reg.pushManager.getSubscription();
        if (sub) {
          await unsubscribePush(sub.endpoint);
          await sub.unsubscribe();
        }
        setState('off');
      }
    } catch (e) {
      setError(refusalText(t, e));
    }
  };
  if (state === 'loading') return null;
  return (
    <section className="panel" aria-labelledby="push-title" data-push={state}>
      <h2 id="push-title">{t('push.title')}</h2>
      <p className="hint">{t('push.hint')}</p>
      {state === 'unsupported' || state === 'denied' ? (
        <p>{t(`push.${state}`)}</p>
      ) : (
        <p className="actions">
          <span>{t(`push.${state}`)}</span>{' '}
          <button type="button" onClick={() => void change(state === 'off')}>
            {state === 'off' ? t('push.enable') : t('push.disable')}
          </button>
        </p>
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </section>
  );
}
