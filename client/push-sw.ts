/**
 * The service worker's push handling (client/sw.ts calls installPushHandlers(self)): a push from our
 * server (server/notify/push.ts pushMessage: `{ title, body, url, tag }`) becomes a notification; a
 * click focuses a window of ours, sent to the match, or opens one. Only a match link on our own origin
 * is ever opened, whatever a push says. The types are the few parts of the service-worker scope used
 * here, so this file type-checks beside the page's DOM types (the real scope fits them).
 */

interface PushNotice {
  title: string;
  body: string;
  url: string;
  tag?: string;
}

interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
}

interface ExtendableEventLike {
  waitUntil(p: Promise<unknown>): void;
}

export interface PushScope {
  location: { origin: string };
  registration: { showNotification(title: string, options?: { body?: string; tag?: string; data?: unknown; icon?: string }): Promise<void> };
  clients: { matchAll(o: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>; openWindow(url: string): Promise<unknown> };
  addEventListener(type: 'push', fn: (e: ExtendableEventLike & { data: { json(): unknown } | null }) => void): void;
  addEventListener(type: 'notificationclick', fn: (e: ExtendableEventLike & { notification: { data?: unknown; close(): void } }) => void): void;
}

const MATCH_LINK = /^\/#\/match\/[A-Za-z0-9_-]{1,64}$/;

/** The notice in a push, or a plain one when it is not ours in shape. */
export function readNotice(data: { json(): unknown } | null): PushNotice {
  let n: Partial<PushNotice> = {};
  try {
    n = (data?.json() ?? {}) as Partial<PushNotice>;
  } catch {
    // not JSON: the plain notice below
  }
  const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
  return { title: text(n.title, 100) || 'Watergate', body: text(n.body, 300), url: typeof n.url === 'string' && MATCH_LINK.test(n.url) ? n.url : '/', tag: text(n.tag, 100) || undefined };
}

export function installPushHandlers(self: PushScope): void {
  self.addEventListener('push', (event) => {
    const n = readNotice(event.data);
    event.waitUntil(self.registration.showNotification(n.title, { body: n.body, tag: n.tag, data: { url: n.url }, icon: '/favicon.svg' }));
  });
  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = (event.notification.data as { url?: unknown } | undefined)?.url;
    const url = new URL(typeof path === 'string' && MATCH_LINK.test(path) ? path : '/', self.location.origin).href;
    event.waitUntil(
      (async () => {
        const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const ours = windows.find((w) => w.url.startsWith(self.location.origin));
        if (!ours) return self.clients.openWindow(url);
        await ours.navigate?.(url);
        return ours.focus();
      })(),
    );
  });
}
