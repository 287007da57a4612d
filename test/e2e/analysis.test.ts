/**
 * The replay's analysis in real Chromium against the real server: a game against the computer is played a
 * little and resigned; on its replay "Analyse" shows a progress bar that Cancel stops (its worker is gone),
 * then runs to the end: the win-chance graph is drawn (a canvas of at least 300×120, still at least 300
 * wide on a 390 px phone), exactly three swings are marked on it and in the record of decisions, each with
 * what the bot would have chosen, and a click on the graph or on a mark moves the replay's step. Also takes
 * the analysis's screenshots (docs/screenshots/replay-analysis.png, replay-analysis-phone.png with
 * UPDATE_SCREENSHOTS=1).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { playThenResign, startVsComputer } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

// The server computes no analyses here (ANALYSIS_CACHE=0): the page's own, in the browser, is the journey.
// analysis-cache.test.ts has the server's.
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? resolve('docs/screenshots') : resolve('test-results/screenshots');
const env = useServerAndBrowser(() => mkdirSync(SHOTS, { recursive: true }), { ANALYSIS_CACHE: '0' });

const replayStep = async (page: Page) => Number(await page.locator('[data-replay-step]').getAttribute('data-replay-step'));
const progress = async (page: Page) => {
  const bar = page.getByRole('progressbar');
  return { now: Number(await bar.getAttribute('aria-valuenow')), max: Number(await bar.getAttribute('aria-valuemax')) };
};

describe('the analysis of a finished game', () => {
  it('runs with a progress bar (cancellable), draws the graph, marks three swings on it and in the record, and a click moves the replay', { timeout: 300_000 }, async () => {
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    // The chart and uPlot (with its stylesheet) are fetched only when an analysis is shown: never by the play page.
    const charts: string[] = [];
    page.on('request', (r) => /\/assets\/chart-[\w-]+\.(js|css)$/.test(r.url()) && charts.push(r.url()));
    const matchID = await startVsComputer(page, env.server.url, 'Ana');
    // Ten of the Editor's decisions (the computer answers in between): enough choices for three swings.
    await playThenResign(page, 10);

    await page.goto(`${env.server.url}/#/replay/${matchID}`);
    await page.locator('.replay .game').waitFor();
    const last = Number(await page.locator('[data-replay-slider]').getAttribute('max'));
    expect(last).toBeGreaterThan(10);
    const analyse = page.getByRole('button', { name: 'Analyse' });

    // Started, then cancelled: the bar goes, the worker is terminated, nothing is drawn.
    await analyse.click();
    await page.getByRole('progressbar').waitFor();
    await expect.poll(() => page.workers().length).toBe(1);
    await page.locator('[data-analysis-cancel]').click();
    await page.getByRole('progressbar').waitFor({ state: 'detached' });
    // Chromium ends a worker busy in a search by force after about 2 s (its forcible-termination delay).
    await expect.poll(() => page.workers().length, { timeout: 15_000 }).toBe(0);
    expect(await page.locator('.analysis [role="status"]').textContent()).toBe('The analysis was cancelled.');
    expect(await page.locator('.analysis-graph').count()).toBe(0);

    // Started again, and seen running: the bar counts decisions up to the last one.
    await analyse.click();
    const total = (await progress(page)).max;
    expect(total).toBeGreaterThanOrEqual(10);
    expect(total).toBeLessThanOrEqual(last); // the resignation is not a choice among moves
    await expect.poll(async () => (await progress(page)).now, { timeout: 60_000 }).toBeGreaterThan(0);
    const seen = (await progress(page)).now;
    expect(seen).toBeLessThan(total);
    expect(charts).toEqual([]);
    await page.locator('.analysis[data-analysis="done"]').waitFor({ timeout: 240_000 });
    expect(await page.getByRole('progressbar').count()).toBe(0);
    await expect.poll(() => page.workers().length).toBe(0); // the worker ends with the work

    // The graph: a canvas at least 300×120, with exactly three swings marked; the record marks the same three.
    const canvas = page.locator('.analysis-graph canvas');
    await canvas.waitFor();
    expect(charts.some((u) => u.endsWith('.js'))).toBe(true);
    const box = (await canvas.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(300);
    expect(box.height).toBeGreaterThanOrEqual(120);
    const onGraph = await page.locator('.analysis-graph [data-swing]').evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.swing, Number((e as HTMLElement).dataset.step)]));
    const inRecord = await page.locator('.analysis-record [data-swing]').evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.swing, Number((e as HTMLElement).dataset.recordStep)]));
    expect(onGraph.map(([r]) => r)).toEqual(['1', '2', '3']);
    expect(inRecord.map(([, s]) => s).sort((a, b) => Number(a) - Number(b))).toEqual(onGraph.map(([, s]) => s).sort((a, b) => Number(a) - Number(b)));
    expect(new Set(inRecord.map(([, s]) => s)).size).toBe(3);
    // At each swing, what the bot would have done instead, with its estimate.
    const instead = await page.locator('.analysis-swings [data-instead]').allTextContents();
    expect(instead).toHaveLength(3);
    for (const line of instead) expect(line).toMatch(/^The bot would have chosen: .+ \(its estimate: \d+%\)\.$/);
    // The marks never overlap, each sits at its decision's x, and each swing names the chance its point is drawn at.
    const marks = await page.locator('.analysis-graph [data-swing]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    for (let i = 0; i < marks.length; i++)
      for (let k = i + 1; k < marks.length; k++) {
        const [a, b] = [marks[i], marks[k]];
        expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top).toBe(true);
      }
    for (const line of await page.locator('.analysis-swings [data-on-graph]').allTextContents()) expect(line).toMatch(/^On the graph: the Editor’s chance \d+%\. $/);

    await page.locator('.analysis').screenshot({ path: `${SHOTS}/replay-analysis.png` });

    // A click on the graph moves the replay there: on the right half of the plot, a late decision.
    expect(await replayStep(page)).toBe(0);
    const over = page.locator('.analysis-graph .u-over');
    const ob = (await over.boundingBox())!;
    await page.mouse.click(ob.x + ob.width * 0.75, ob.y + ob.height * 0.9);
    await expect.poll(() => replayStep(page)).toBeGreaterThan(last / 2);
    const clicked = await replayStep(page);
    expect(Math.abs(clicked - Math.round(last * 0.75))).toBeLessThanOrEqual(2);
    expect(await page.locator(`.analysis-record [data-record-step="${clicked}"] button`).getAttribute('aria-current')).toBe('step');
    // A swing's mark moves it to that decision, and the caption says who decided what.
    const [rank, swingStep] = onGraph[0];
    await page.locator(`.analysis-graph [data-swing="${rank}"]`).click();
    await expect.poll(() => replayStep(page)).toBe(swingStep);
    expect(await page.locator('[data-replay-caption]').textContent()).toMatch(/^(Editor|Nixon): /);

    // On a 390 px phone the graph follows the page's width and stays at least 300 wide, within the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await canvas.boundingBox())!.width).toBeLessThanOrEqual(390);
    const phone = (await canvas.boundingBox())!;
    expect(phone.width).toBeGreaterThanOrEqual(300);
    expect(phone.height).toBeGreaterThanOrEqual(120);
    expect(await page.locator('.analysis-graph [data-swing]').count()).toBe(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.locator('.analysis').screenshot({ path: `${SHOTS}/replay-analysis-phone.png` });

    expect(env.session.problems).toEqual([]);
    await ctx.close();
  });
});
