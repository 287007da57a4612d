/**
 * The Debug panel as a developer meets it: `npm run dev` (Vite, React in development with StrictMode),
 * `#/local`. Its AI tab's play moves the board the player sees (also after "Showing the board of" is
 * changed), its Log tab's time travel shows earlier states on that board and comes back, and "simulate"
 * pressed during a search says it waits for that search's move, then plays on. (test/e2e/debug-panel.test.ts
 * drives the built client.)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launch, type Session } from './helpers/browser';
import { startDevServer, type DevServer } from './helpers/dev-server';
import { key, slider } from './helpers/debug-panel';
import { boardState, waitForChange } from './helpers/play';

let dev: DevServer;
let session: Session;
beforeAll(async () => {
  [dev, session] = await Promise.all([startDevServer(), launch()]);
}, 120_000);
beforeEach(({ onTestFailed }) => {
  onTestFailed(async () => {
    console.error(`what the pages showed:\n${await session?.describe()}`);
    console.error(`npm run dev said:\n${dev?.output().join('\n')}`);
  });
});
afterAll(async () => {
  await session?.close();
  await dev?.stop();
});

const panel = (page: Page) => page.locator('section.debug-panel');
const tab = (page: Page, name: string) => panel(page).getByRole('button', { name, exact: true }).click();

const lines = (page: Page) => page.locator('.record-lines li').count();

/**
 * "play" (key 2) and the board's next state. On a loaded host the dev server's first press was twice seen
 * to do nothing at all (no search, no move: the panel's key handler not yet live after the AI tab's first
 * render, it seems — not understood); a developer presses again, and so does this, once, saying so.
 */
async function play(page: Page, now: Awaited<ReturnType<typeof boardState>>) {
  await key(page, '2');
  try {
    return await waitForChange(page, now, 10_000);
  } catch {
    console.warn('debug-panel-dev: the first press of "play" did nothing in 10 s; pressing again');
    await key(page, '2');
    return waitForChange(page, now, 20_000);
  }
}

describe('the Debug panel under npm run dev', () => {
  it('drives the board the player sees: play, time travel, simulate during a search', { timeout: 90_000 }, async () => {
    const ctx = await session.context({ width: 1366, height: 900 });
    const page = await ctx.newPage();
    // The dev server transforms every module on the first load: slower than the build.
    await page.goto(`${dev.url}/#/local`, { timeout: 60_000 });
    await page.locator('.prompt.mine').waitFor({ timeout: 60_000 });
    await panel(page).locator('.panel').waitFor();
    await tab(page, 'AI');
    await expect.poll(() => page.locator('#ai-option-iterations').inputValue()).toBe('50');

    // "play" (key 2), three times: each move is on the board the player sees.
    const start = await boardState(page);
    let now = start;
    for (let i = 0; i < 3; i++) {
      const next = await play(page, now);
      expect(next.log).toBeGreaterThan(now.log);
      now = next;
    }
    // Showing one seat's board (GameClient subscribes again, and the panel is mounted anew, on its Main
    // tab): the panel still moves the board shown.
    await page.locator('select[data-follow]').selectOption('0');
    await tab(page, 'AI');
    now = await play(page, now);
    await page.locator('select[data-follow]').selectOption('active');

    // Time travel: the Log tab's first entry, pinned, shows the board after the first move; unpinned, now.
    await tab(page, 'Log');
    await panel(page).locator('.log-event').first().click();
    await expect.poll(() => lines(page)).toBeLessThan(now.log);
    await panel(page).locator('.log-event').first().click();
    await page.mouse.move(10, 10); // off the log: the panel shows the live state again
    await expect.poll(() => lines(page)).toBe(now.log);

    // "simulate" (key 3) pressed while "play" searches: the page says it waits; then the run plays on.
    await tab(page, 'AI');
    await slider(page, 'iterations', 1000);
    await key(page, '2');
    await key(page, '3');
    await page.locator('[data-debug-queued]').waitFor({ timeout: 10_000 });
    await slider(page, 'iterations', 5); // the running bot reads its sliders at each search
    await page.locator('[data-debug-queued]').waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(() => lines(page), { timeout: 20_000 }).toBeGreaterThan(now.log + 2);
    await page.locator('.match-bar button').click(); // New game: the run ends with its match
    await ctx.close();
    expect(session.problems).toEqual([]);
  });
});
