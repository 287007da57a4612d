/**
 * One screen under `npm run dev` too (Vite's dev server: React in development, StrictMode; the build renders
 * with Preact, test/e2e/layout.test.ts): a game against the computer, started from the dev page's lobby
 * through Vite's proxy to a real server, at 1280 × 720 and 1920 × 1080 has every hand card, the board, the
 * track and the prompt (and at 1920 the record's newest line and the chat's field) inside the viewport
 * without scrolling, at turn start and after decisions; on a phone (390 × 844) the dock is fixed at the
 * bottom, a card decision opens the hand in it, and nothing is too small or scrolls sideways; the dev
 * page reaches the server's /api through the proxy. One dev server and one page load per size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, type Session } from './helpers/browser';
import { startDevServer, type DevServer } from './helpers/dev-server';
import { startServer, type RunningServer } from './helpers/server';
import { boardState, decide, startVsComputer, waitForChange } from './helpers/play';
import { expectLayout, expectOneScreen, sight } from './helpers/layout';

let server: RunningServer;
let dev: DevServer;
let session: Session;
// The server serves no page here (an empty client folder): every page comes from Vite.
const noClient = mkdtempSync(join(tmpdir(), 'watergate-no-client-'));
beforeAll(async () => {
  server = await startServer(noClient);
  [dev, session] = await Promise.all([startDevServer(60_000, server.url), launch()]);
}, 120_000);
beforeEach(({ onTestFailed }) => {
  if (session) session.problems.length = 0;
  onTestFailed(async () => {
    console.error(`what the pages showed:\n${await session?.describe()}`);
    console.error(`npm run dev said:\n${dev?.output().join('\n')}`);
    console.error(`the server said:\n${server?.output().join('\n')}`);
  });
});
afterAll(async () => {
  await session?.close();
  await dev?.stop();
  await server?.stop();
  rmSync(noClient, { recursive: true, force: true });
});

/** From the dev page's lobby, as the Editor against the easy computer, with the Editor to move. */
async function vsComputer(page: Page) {
  // The dev server transforms every module on the first load: slower than the build.
  page.setDefaultNavigationTimeout(60_000);
  await startVsComputer(page, dev.url, 'Ann');
  await expect.poll(async () => (await boardState(page)).mine, { timeout: 60_000 }).toBe(true);
}

describe('one screen under npm run dev', () => {
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ])
    it(`${size.width}×${size.height}: every hand card, the board, the track and the prompt${size.width >= 1366 ? ", the record's last line and the chat's field" : ''} on screen at turn start and after decisions`, { timeout: 180_000 }, async () => {
      const talk = size.width >= 1366;
      const ctx = await session.context(size);
      const page = await ctx.newPage();
      await vsComputer(page);
      await page.locator('.chat-say input').waitFor({ timeout: 30_000 });
      await expectOneScreen(page, talk, 'at turn start (npm run dev)');
      await expectLayout(page, false);
      let checked = 0;
      for (let i = 0; i < 4 && checked < 2; i++) {
        const before = await boardState(page);
        const kind = await decide(page, '0');
        await waitForChange(page, before);
        await expect.poll(async () => (await boardState(page)).mine || !!(await page.locator('.gameover').count()), { timeout: 60_000 }).toBe(true);
        if ((await page.locator('.hand-cards [data-card]').count()) === 0 || (await page.locator('.gameover').count())) break;
        await expectOneScreen(page, talk, `after ${kind} (npm run dev)`);
        checked++;
      }
      expect(checked, 'decisions checked').toBeGreaterThanOrEqual(1);
      await ctx.close();
      expect(session.problems).toEqual([]);
    });

  it('390×844: the dock is fixed at the bottom, a card decision opens the hand in it, no small text or targets, no sideways scrolling; /api reached through the proxy', { timeout: 180_000 }, async () => {
    const ctx = await session.context({ width: 390, height: 844 });
    const page = await ctx.newPage();
    await vsComputer(page);
    expect(await page.locator('.dock').evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    await expect.poll(() => page.locator('.hand-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(await sight(page, '.hand-cards'), 'hand').toMatchObject({ inView: true });
    expect(await sight(page, '.hand-cards button.card'), 'first card').toMatchObject({ inView: true });
    await expectLayout(page, true);
    // Closed, the prompt is in sight in the dock, below the whole board.
    await page.locator('.hand-toggle').click();
    expect(await sight(page, '.prompt.mine .prompt-text'), 'prompt').toMatchObject({ inView: true });
    await expect.poll(async () => Math.abs(Math.round((await page.locator('.board-zoom').boundingBox())!.y))).toBe(0);
    const board = (await page.locator('.evidence-board').boundingBox())!;
    expect((await page.locator('.dock').boundingBox())!.y).toBeGreaterThanOrEqual(board.y + board.height - 1);
    // The dev page reaches the server's API (/api: seasons, challenges, the event stream…) through Vite's
    // proxy, as the build's page does directly: JSON from the server, not Vite's index.html.
    const seasons = await page.evaluate(() => fetch('/api/seasons').then(async (r) => ({ status: r.status, type: r.headers.get('content-type') })));
    expect(seasons).toMatchObject({ status: 200, type: expect.stringContaining('application/json') });
    await ctx.close();
    expect(session.problems).toEqual([]);
  });
});
