/**
 * Installable and playable offline (client/sw.ts, client/pwa.ts), in real Chromium against the real
 * server on the built client: the page links a manifest whose icons the server has; the service worker
 * gets ready after the first load and precaches at most 2 MB gzip. Then the network goes off
 * (`context.setOffline`) and a reload still opens the app: a whole game against the computer (easy) to its
 * end, one decision of the computer at each other level, the hotseat game with its Debug panel, a
 * downloaded game's replay and analysis, the tutorial and the rules; the lobby says plainly that it needs
 * the server.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { builtClient } from './helpers/build';
import { boardState, decide, playThenResign, startVsComputer } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

/** The width and height a PNG's header declares. */
const pngSize = (b: Buffer) => (b.subarray(1, 4).toString('latin1') === 'PNG' ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : null);

/** A context that lets service workers run (helpers/browser.ts blocks them for the other files). */
async function appContext(): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await env.session.context({ width: 1366, height: 900 }, 'en-US', { serviceWorkers: true });
  return { ctx, page: await ctx.newPage() };
}

/** Waits until the service worker is activated (its install, the precache, is complete): its state then. */
const workerReady = (page: Page) =>
  page.evaluate(async () => {
    const w = (await navigator.serviceWorker.ready).active!;
    if (w.state !== 'activated') await new Promise<void>((r) => w.addEventListener('statechange', () => w.state === 'activated' && r()));
    return w.state;
  });

/**
 * Offline, the pages' calls to the server fail: expected. Chromium's console line for a failed fetch names
 * only the page, so the address is judged on the failed request's own line: anything but a server call (a
 * script, a worker, a font) is a fault.
 */
const SERVER_CALL = /^requestfailed: http:\/\/[^/]+\/(auth|games|me|players|leaderboard|pair|socket\.io)(\/|\?|$)/;
const offlineProblems = () => env.session.problems.filter((p) => !SERVER_CALL.test(p) && !/^error: Failed to load resource: net::ERR_INTERNET_DISCONNECTED /.test(p));

describe('installable and offline', () => {
  it('links a manifest (name, standalone, start URL, 192 and 512 icons the server has), its worker gets ready, the precache is at most 2 MB gzip', { timeout: 120_000 }, async () => {
    const { ctx, page } = await appContext();
    await page.goto(`${env.server.url}/#/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const manifestUrl = new URL(href!, page.url()).href;
    const manifest = (await (await fetch(manifestUrl)).json()) as { name: string; short_name: string; display: string; start_url: string; scope: string; theme_color: string; icons: { src: string; sizes: string; type: string; purpose?: string }[] };
    expect(manifest).toMatchObject({ name: 'Watergate', short_name: 'Watergate', display: 'standalone' });
    expect(new URL(manifest.start_url, manifestUrl).href).toBe(`${env.server.url}/`);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color);
    const sizes = new Set<string>();
    for (const icon of manifest.icons) {
      const r = await fetch(new URL(icon.src, manifestUrl));
      expect(r.status, icon.src).toBe(200);
      expect(r.headers.get('content-type'), icon.src).toBe('image/png');
      const size = pngSize(Buffer.from(await r.arrayBuffer()));
      expect(size && `${size.width}x${size.height}`, icon.src).toBe(icon.sizes);
      if (icon.purpose !== 'maskable') sizes.add(icon.sizes);
    }
    expect([...sizes].sort()).toEqual(['192x192', '512x512']);

    expect(await workerReady(page)).toBe('activated');
    // After a reload the worker serves the page (the first load was not yet its).
    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${env.server.url}/sw.js`);

    // What the worker precaches, from the list the build put in it: every file there, 2 MB gzip at most.
    const dir = await builtClient();
    const sw = readFileSync(join(dir, 'sw.js'), 'utf8');
    const urls = [...sw.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]);
    expect(urls).toEqual(expect.arrayContaining(['index.html', 'manifest.webmanifest', 'icons/icon-192.png']));
    expect(urls.some((u) => /^assets\/browser-worker-.*\.js$/.test(u))).toBe(true);
    expect(urls.some((u) => /^assets\/analysis-worker-.*\.js$/.test(u))).toBe(true);
    expect(urls.some((u) => /^assets\/LocalPage-.*\.js$/.test(u))).toBe(true);
    const gzipped = urls.reduce((sum, u) => sum + gzipSync(readFileSync(join(dir, u)), { level: 9 }).length, 0);
    expect(gzipped).toBeLessThanOrEqual(2 * 1024 * 1024);
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('with the network off, a reload opens the app: a whole game against the computer, every level, hotseat with the Debug panel, a downloaded game\'s analysis, tutorial, rules; the lobby says it needs the server', { timeout: 900_000 }, async () => {
    // A finished game online, saved with "Download game" (to be opened offline below).
    const onlineCtx = await env.session.context({ width: 1366, height: 900 });
    const online = await onlineCtx.newPage();
    const finished = await startVsComputer(online, env.server.url, 'Ben');
    await playThenResign(online, 2);
    await online.goto(`${env.server.url}/#/replay/${finished}`);
    const [download] = await Promise.all([online.waitForEvent('download'), online.locator('[data-replay-download]').click()]);
    // Kept outside the context's own folder, which goes with it.
    const saved = join(mkdtempSync(join(tmpdir(), 'wg-pwa-')), 'game.json');
    await download.saveAs(saved);
    await onlineCtx.close();

    const { ctx, page } = await appContext();
    await page.goto(`${env.server.url}/#/local`);
    expect(await workerReady(page)).toBe('activated');
    await ctx.setOffline(true);
    await page.reload();

    // The local hotseat game and its Debug panel.
    await page.locator('.prompt.mine').waitFor();
    await page.locator('section.debug-panel .panel').waitFor();

    // Against the computer at level easy, shown at once, to the end of the game.
    await page.getByLabel('Against a bot (you are the Editor)').check();
    await page.getByLabel('Bot level').selectOption('easy');
    const pace = page.locator('[data-pace]');
    if (await pace.count()) await pace.selectOption('instant');
    await page.keyboard.press('.'); // folds the Debug panel away from the board
    const deadline = Date.now() + 600_000;
    let mine = 0;
    while ((await page.locator('.gameover').count()) === 0) {
      expect(Date.now(), `no end after ${mine} decisions: ${JSON.stringify(await boardState(page))}`).toBeLessThan(deadline);
      const s = await boardState(page);
      if (!s.mine) {
        await page.waitForTimeout(100);
        continue;
      }
      await decide(page, '0');
      mine++;
      await expect.poll(async () => JSON.stringify(await boardState(page)) !== JSON.stringify(s) || (await page.locator('.gameover').count()) > 0, { timeout: 60_000 }).toBe(true);
    }
    // The end as the board says it: who won, and why.
    expect(await page.locator('.gameover .headline').textContent()).toMatch(/\S/);
    expect(mine).toBeGreaterThan(5);
    expect(await page.locator('.record-lines li.role-1').count()).toBeGreaterThan(5);

    // Every other level answers too (its search in the precached worker): one decision of the computer each.
    for (const level of ['normal', 'hard', 'expert']) {
      await page.getByLabel('Bot level').selectOption(level);
      await page.locator('.prompt.mine').waitFor();
      const before = await boardState(page);
      await decide(page, '0');
      await expect.poll(async () => {
        const s = await boardState(page);
        return s.mine && s.log > before.log + 1;
      }, { timeout: 120_000, message: `the computer at level ${level} answered offline` }).toBe(true);
      expect(await page.locator('.record-lines li.role-1').count(), level).toBeGreaterThan(0);
    }

    // The downloaded game opens from the file, and its analysis is computed in this browser.
    await page.goto(`${env.server.url}/#/replay-file`);
    await page.locator('[data-replay-file]').setInputFiles(saved);
    await page.locator(`[data-replay-step]`).waitFor();
    expect(await page.locator('.replay-title').textContent()).toContain(finished);
    await page.locator('[data-analyse]').click();
    await page.locator('[data-analysis="done"][data-source="browser"]').waitFor({ timeout: 180_000 });

    // The tutorial and the rules open from the precache; the lobby says it needs the server.
    await page.goto(`${env.server.url}/#/tutorial`);
    await page.locator('.prompt').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-network-offline]').count()).toBe(0);
    await page.goto(`${env.server.url}/#/rules`);
    await page.locator('main h1, main h2').first().waitFor();
    expect(await page.locator('main').textContent()).toMatch(/Editor/);
    await page.goto(`${env.server.url}/#/`);
    const banner = page.locator('[data-network-offline]');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('You are offline: this page needs the server.');
    expect(await banner.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['#/local', '#/tutorial', '#/rules']);
    // Back online, the notice goes.
    await ctx.setOffline(false);
    await banner.waitFor({ state: 'detached' });
    await ctx.close();
    expect(offlineProblems()).toEqual([]);
  });
});
