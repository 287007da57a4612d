/**
 * Local mode's boardgame.io Debug panel, as a developer uses it in Chromium at 1366 × 900: it opens beside
 * the board (not over the prompt or the language menu) and says how to set its bot; its AI tab's "play"
 * makes one legal move; "simulate", pressed twice, plays one run to the end of the game and stops there;
 * against our bot it plays only the person's seat. The console stays free of errors throughout. How long
 * the page's tasks are during "simulate" is a measurement, not a test (it stretches with the host's load):
 * tools/bench-debug-panel.ts, docs/BENCHMARKS.md "Debug panel's simulate".
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { key, slider } from './helpers/debug-panel';
import { boardState, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

async function openLocal(): Promise<Page> {
  const ctx = await env.session.context({ width: 1366, height: 900 });
  await ctx.addInitScript(() => void ((window as unknown as { moves: number[] }).moves = []));
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/#/local`);
  await page.locator('.prompt.mine').waitFor();
  await page.locator('section.debug-panel .panel').waitFor();
  return page;
}

const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the Debug panel in local mode', () => {
  it('opens beside the board, plays legal moves, simulates one run to the end, with no console error', { timeout: 300_000 }, async () => {
    const page = await openLocal();
    // Beside the board: the prompt and the language menu are clear of the panel; the note says how to set its bot.
    const panel = (await page.locator('section.debug-panel .panel').boundingBox())!;
    for (const what of ['.prompt.mine', '.evidence-board', '.lang select']) expect(overlap((await page.locator(what).boundingBox())!, panel), what).toBe(false);
    expect(await page.locator('[data-debug-note]').textContent()).toContain('iterations and playoutDepth sliders');

    await page.locator('section.debug-panel').getByRole('button', { name: 'AI', exact: true }).click();
    await expect.poll(() => page.locator('#ai-option-iterations').inputValue()).toBe('50');

    // "play" (key 2) at the page's settings: one move, for the player the game waits for.
    const before = await boardState(page);
    await key(page, '2');
    const after = await waitForChange(page, before, 30_000);
    expect(after.log).toBeGreaterThan(before.log);

    // "simulate" (key 3), pressed twice: one run. It makes a few moves at the page's settings; then the
    // tab's sliders are set lower (the running bot reads them at each move), so the same run reaches the
    // end of the game soon.
    await page.evaluate(() => {
      const w = window as unknown as { moves: number[] };
      new MutationObserver(() => w.moves.push(performance.now())).observe(document.querySelector('.record-lines')!, { childList: true });
    });
    await key(page, '3');
    await page.waitForTimeout(700);
    await key(page, '3');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { moves: number[] }).moves.length), { message: "the run went on at the page's settings", timeout: 30_000 })
      .toBeGreaterThan(3);
    await slider(page, 'iterations', 2);
    await slider(page, 'playoutDepth', 4);
    await page.locator('.gameover').waitFor({ timeout: 240_000 });
    const ended = await page.locator('.record-lines li').count();
    await page.waitForTimeout(1500);
    expect(await page.locator('.record-lines li').count()).toBe(ended); // stopped with the game
    // One loop waits 100 ms after each of its moves, then searches: two loops would put about half the
    // moves right after another (a move drawn late by a slow render can land a little early: a few may).
    const gaps = await page.evaluate(() => {
      const m = (window as unknown as { moves: number[] }).moves;
      return m.slice(1).map((t, i) => t - m[i]).sort((a, b) => a - b);
    });
    expect(gaps.length).toBeGreaterThan(20);
    expect(gaps[Math.floor(gaps.length / 2)], `gaps: ${gaps.map(Math.round).join(', ')}`).toBeGreaterThanOrEqual(100);
    expect(gaps.filter((g) => g < 90).length, `gaps: ${gaps.map(Math.round).join(', ')}`).toBeLessThanOrEqual(Math.ceil(gaps.length * 0.1));
    await page.context().close();
    expect(env.session.problems).toEqual([]);
  });

  it('against our bot it plays only the person\'s seat and leaves Nixon\'s decisions to the bot, with no console error', { timeout: 120_000 }, async () => {
    const page = await openLocal();
    await page.locator('input[name="mode"]').nth(1).check();
    await page.locator('.prompt.mine').waitFor();
    await page.locator('section.debug-panel').getByRole('button', { name: 'AI', exact: true }).click();
    await slider(page, 'iterations', 5);
    const before = await boardState(page);
    await key(page, '3');
    // The panel makes the Editor's moves, then stops: our bot answers for Nixon, and it is the Editor's turn
    // again. Nixon's answer is a line of a card played or a reaction passed: the rules also write lines in
    // Nixon's name while the Editor still decides (no face-down token of the colour asked for), and the
    // panel's run goes on through those.
    const nixonDecided = page.locator(['value-marker', 'value-evidence', 'value-name', 'value-none', 'ask', 'play-action', 'react-play', 'react-pass'].map((k) => `.record-lines li.role-1.rec-${k}`).join(', '));
    await waitForChange(page, before, 30_000);
    await expect.poll(async () => (await nixonDecided.count()) > 0, { timeout: 30_000 }).toBe(true);
    await expect.poll(async () => (await boardState(page)).mine, { timeout: 60_000 }).toBe(true);
    const waiting = await page.locator('.record-lines li').count();
    await page.waitForTimeout(1500);
    expect(await page.locator('.record-lines li').count()).toBe(waiting); // the run ended at Nixon's turn
    await page.context().close();
    expect(env.session.problems).toEqual([]);
  });
});
