/**
 * The page's side of the service worker (client/sw.ts; built only by `vite build`, so none of this runs
 * under `npm run dev` or in the component tests).
 *
 * - `takeNewVersion()`, before the app draws: if a new version installed itself in the background during
 *   an earlier visit and is waiting, ask it to take over and reload once it has: the player gets the new
 *   version on this load, before any game starts. The worker says no while another window of the app is
 *   open (that one may be mid-game: its lazily loaded scripts must keep coming from its own version);
 *   then this page starts on the version it was served, and the new one waits for a later load.
 * - `registerWorker()`, a few seconds after the page has loaded (its downloads never compete with the
 *   page's start):
 *   installs the worker, which precaches the app for offline use; the browser checks for a new version
 *   at each load.
 * - `useOnline()`: whether the browser says it has a network, for the pages that need the server.
 */
import { useSyncExternalStore } from 'react';
import { SW_TAKE_OVER, type TakeOverReply } from './pwa-protocol';

const WORKER = './sw.js';
/**
 * Set by vite.config.ts for `vite build` only (not Vite's PROD, which follows NODE_ENV: a build made
 * inside the test runner says false): no worker under `npm run dev` nor in the component tests.
 */
const BUILT = (import.meta as unknown as { env?: { WATERGATE_SW?: boolean } }).env?.WATERGATE_SW === true;
const enabled = () => BUILT && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;

const within = <T,>(ms: number, p: Promise<T>, fallback: T): Promise<T> => Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), ms))]);

/** True when the page is reloading into the new version (draw nothing then). */
export async function takeNewVersion(): Promise<boolean> {
  if (!enabled() || !navigator.serviceWorker.controller) return false;
  try {
    const reg = await within(1000, navigator.serviceWorker.getRegistration(), undefined);
    const waiting = reg?.waiting;
    if (!waiting) return false;
    const channel = new MessageChannel();
    const reply = new Promise<TakeOverReply>((r) => (channel.port1.onmessage = (e) => r(e.data as TakeOverReply)));
    const changed = new Promise<boolean>((r) => navigator.serviceWorker.addEventListener('controllerchange', () => r(true), { once: true }));
    waiting.postMessage({ type: SW_TAKE_OVER }, [channel.port2]);
    if (!(await within(2000, reply, { taken: false })).taken) return false;
    if (!(await within(3000, changed, false))) return false;
    location.reload();
    return true;
  } catch {
    return false; // whatever went wrong, the version served works
  }
}

/**
 * After the load, a pause and then an idle moment: the install downloads and stores ~70 files (~0.5 MB
 * gzip) in the worker's thread, and on a slow phone that work competed with the page's own first
 * seconds (measured: Lighthouse's total blocking time on a match page, docs/BENCHMARKS.md "Lighthouse").
 * Offline use is there some seconds into the first visit.
 */
const SETTLE_MS = 5000;

export function registerWorker(): void {
  if (!enabled()) return;
  const register = () =>
    void navigator.serviceWorker.register(WORKER).catch((e: unknown) => {
      // Offline use is a bonus: the page works without it (a private window, a browser that refuses).
      console.info('offline use unavailable:', e);
    });
  const later = () => setTimeout(() => ('requestIdleCallback' in window ? requestIdleCallback(register, { timeout: 10_000 }) : register()), SETTLE_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

const onChange = (on: () => void) => {
  window.addEventListener('online', on);
  window.addEventListener('offline', on);
  return () => {
    window.removeEventListener('online', on);
    window.removeEventListener('offline', on);
  };
};

/** The browser's word on the network (false: certainly offline; true may still mean the server is away). */
export function useOnline(): boolean {
  return useSyncExternalStore(onChange, () => navigator.onLine, () => true);
}
