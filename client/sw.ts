/**
 * The service worker (built by vite-plugin-pwa's injectManifest into dist/client/sw.js; vite.config.ts).
 * What makes the game open with the network off: the page, its scripts (the bot's and the analysis's
 * Web Workers too), styles, icons and the Latin text fonts are precached at install; a navigation to the
 * app's own page gets the precached index.html. Everything the server answers (/games, /auth, /api,
 * /socket.io, /metrics, accounts…) is never cached nor answered here: it goes to the network as if there
 * were no worker, so an offline page sees the fetch fail and says the server is needed.
 *
 * A new version installs in the background and waits: it never takes over a page in use (no skipWaiting
 * on its own). A page that is starting asks it to take over (client/pwa.ts) only when no other window of
 * the app is open, then reloads before drawing anything: so a new version arrives on the next load, and
 * never mid-game (docs/ARCHITECTURE.md, "Offline and updates").
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { SW_TAKE_OVER, type TakeOverReply } from './pwa-protocol';
import { installPushHandlers, type PushScope } from './push-sw';

/** The parts of ServiceWorkerGlobalScope used here (the project's TypeScript lib is the page's DOM). */
interface Scope {
  __WB_MANIFEST: (PrecacheEntry | string)[];
  registration: { scope: string };
  clients: { matchAll(o: { type: 'window'; includeUncontrolled?: boolean }): Promise<readonly unknown[]> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', fn: (e: MessageEvent & { ports: readonly MessagePort[] }) => void): void;
}
const sw = self as unknown as Scope;

// Written on `self` as such: the build finds `self.__WB_MANIFEST` by its text and puts the list there.
precacheAndRoute((self as unknown as Scope).__WB_MANIFEST);
cleanupOutdatedCaches();

/** The folder the app is served from (its scope), e.g. `/`. */
const base = new URL(sw.registration.scope).pathname;
const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The app has one page (hash routes #/match/…): only a navigation to the folder itself or index.html
 * gets the precached page. The server's own paths are listed too, so that a future page-like answer
 * there (a download, /metrics in a tab) is never replaced by the app.
 */
const SERVER_PATHS = /^(games|auth|api|socket\.io|metrics|me|players|leaderboard|pair|healthz|robots\.txt)(\/|$)/;
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    allowlist: [new RegExp(`^${escaped}(index\\.html)?$`)],
    denylist: [new RegExp(`^${escaped}${SERVER_PATHS.source.slice(1)}`)],
  }),
);

/**
 * The other fonts (Chinese's hundred subsets, Cyrillic, Greek…: about 7 MB) are not precached: each is
 * kept once a page has used it, so a Chinese player who played online once has the characters seen
 * offline. Hashed names: a kept file never changes.
 */
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith(`${base}assets/`) && url.pathname.endsWith('.woff2'),
  new CacheFirst({ cacheName: 'watergate-fonts', plugins: [new ExpirationPlugin({ maxEntries: 150 })] }),
);

/** A starting page asks to take over (client/pwa.ts): yes only when it is the app's one window. */
sw.addEventListener('message', (e) => {
  if ((e.data as { type?: unknown } | null)?.type !== SW_TAKE_OVER || !e.ports[0]) return;
  const port = e.ports[0];
  void sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
    const alone = windows.length <= 1;
    if (alone) await sw.skipWaiting();
    port.postMessage({ taken: alone } satisfies TakeOverReply);
  });
});

// ---------------------------------------------------------------------------------------------------
// Web push (client/push-sw.ts): a turn's notice shown, and a click on it opens (or focuses) the match.
// ---------------------------------------------------------------------------------------------------
installPushHandlers(self as unknown as PushScope);

export {};
