/**
 * Debian's Chromium headless shell driven by playwright-core (never a downloaded browser;
 * scripts/ensure-chromium.sh installs it; CHROMIUM_PATH=/usr/bin/chromium runs the full browser
 * instead). Every page records console errors and warnings and failed requests, so a test can assert a
 * page loaded cleanly.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
/** The whole browser, for what the headless shell lacks (it denies every notification permission). */
export const CHROMIUM_FULL = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export interface Session {
  browser: Browser;
  /**
   * A fresh browser context (its own localStorage: a separate player) at a viewport size. Its pages ask
   * for reduced motion unless `motion` is set: the board's short animations (a pulse on the legal
   * targets, a ring on the last move) repaint it for seconds after every decision, about a third of
   * Chromium's CPU in a whole game played by clicks (docs/BENCHMARKS.md); the files that check the
   * animations themselves turn them on.
   *
   * Service workers are blocked unless `serviceWorkers` is set: each page would otherwise precache the
   * whole app (~1 MB, 70 files) in the background, work no other file tests; test/e2e/pwa.test.ts
   * tests the worker itself.
   */
  context(viewport?: { width: number; height: number }, locale?: string, options?: { motion?: boolean; serviceWorkers?: boolean }): Promise<BrowserContext>;
  /** Console errors/warnings and failed requests seen on any page so far. */
  problems: string[];
  /** Each open page's address and the start of its visible text, and the problems seen: printed when a test fails. */
  describe(): Promise<string>;
  close(): Promise<void>;
}

export async function launch({ full = false } = {}): Promise<Session> {
  const executablePath = full ? CHROMIUM_FULL : CHROMIUM;
  // A fresh machine: install Debian's packages first (scripts/ensure-chromium.sh, idempotent).
  if (!process.env.CHROMIUM_PATH && !existsSync(executablePath))
    execFileSync('bash', [resolve(import.meta.dirname, '../../../scripts/ensure-chromium.sh')], { stdio: 'inherit' });
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // playwright-core gives every launch a fresh temporary profile (its own --user-data-dir).
  });
  const problems: string[] = [];
  /** A socket.io long-poll of an established session (a sid): the only requests whose 400 is not a fault. */
  const closedSessionPoll = (url: string) => /\/socket\.io\/\?(?=.*\btransport=polling\b)(?=.*\bsid=)/.test(url);
  const watch = (page: Page) => {
    page.on('console', (m) => {
      // socket.io-client closes its websocket probe when the client stops during an upgrade (a page
      // leaving a match); Chromium reports that as a warning of its own, not of the page's making.
      if (m.type() === 'warning' && /^WebSocket connection to '[^']*\/socket\.io\/[^']*' failed: WebSocket is closed before the connection is established\.$/.test(m.text())) return;
      // The browser's own line for the 400 below (its location is the request's address, not the page's).
      if (m.type() === 'error' && m.text().startsWith('Failed to load resource: the server responded with a status of 400') && closedSessionPoll(m.location().url)) return;
      // Playwright's own word when a context blocks service workers (below): the page asked, as it should.
      if (m.type() === 'warning' && m.text() === 'Service Worker registration blocked by Playwright') return;
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()} (${page.url()})`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message} (${page.url()})`));
    // A request still under way when its page navigates (a reload, a new address, about:blank) or
    // closes is cancelled by the browser (net::ERR_ABORTED): not a fault. Chromium may report the cancel
    // before the navigation or the close, so a cancel is judged a moment later. Any other failure, or a
    // cancel with the page still where it was, is.
    const startedAt = new WeakMap<object, number>();
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    page.on('request', (r) => {
      // A new document's request comes before the old one's requests are cancelled: count it at once.
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigations++;
      else startedAt.set(r, navigations);
    });
    page.on('requestfailed', (r) => {
      const error = r.failure()?.errorText ?? '';
      // socket.io closes its long-poll and websocket requests when a page goes away: not a fault either.
      if (/socket\.io/.test(r.url())) return;
      const problem = `requestfailed: ${r.url()} ${error}`;
      // The favicon is the browser's own request, not the page's: Chromium cancels it whenever it likes
      // (a context closing while it loads, a tab going to the background).
      if (error !== 'net::ERR_ABORTED') problems.push(problem);
      else if (!/\/favicon\.[a-z]+$/.test(new URL(r.url()).pathname)) {
        const at = startedAt.get(r) ?? navigations;
        setTimeout(() => {
          if (navigations === at && !page.isClosed()) problems.push(problem);
        }, 300);
      }
    });
    page.on('response', (r) => {
      // A long-poll of a socket.io session the page itself just closed (it left the match while the
      // transport was upgrading): engine.io answers 400 "Session ID unknown" — not a fault either.
      if (r.status() === 400 && closedSessionPoll(r.url())) return;
      if (r.status() >= 400) problems.push(`http ${r.status()}: ${r.url()}`);
    });
  };
  return {
    browser,
    problems,
    async context(viewport = { width: 1280, height: 900 }, locale = 'en-US', options = {}) {
      const ctx = await browser.newContext({ viewport, locale, deviceScaleFactor: 1, reducedMotion: options.motion ? 'no-preference' : 'reduce', serviceWorkers: options.serviceWorkers ? 'allow' : 'block' });
      ctx.on('page', watch);
      return ctx;
    },
    async describe() {
      const pages = browser.contexts().flatMap((c) => c.pages());
      const shown = await Promise.all(
        pages.map(async (p, i) => {
          // The page's own part (the header and the sources notice above it say the same on every page).
          const text = await p.evaluate(() => (document.querySelector('main') ?? document.body)?.innerText ?? '', undefined).catch((e: unknown) => `(unreadable: ${String(e)})`);
          return `page ${i}: ${p.url()}\n  ${text.replace(/\s+/g, ' ').slice(0, 600)}`;
        }),
      );
      return [...shown, `problems: ${problems.length ? problems.join('\n  ') : 'none'}`].join('\n');
    },
    async close() {
      await browser.close();
    },
  };
}
