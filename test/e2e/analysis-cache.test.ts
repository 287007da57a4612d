/**
 * The server's cached analysis in real Chromium against the real server (its bot pool computing it): the
 * first "Analyse" of a finished game finds none ready, so asking starts the server's and the page shows
 * the server's progress and waits for it — no worker of its own, the game computed once; then reopening
 * the replay — in this browser or another (a phone, in Portuguese) — shows it at once (no progress bar,
 * no worker), with the graph and the swings the server's analysis has.
 */
import { describe, expect, it } from 'vitest';
import { analysisPath, type GameAnalysis } from '../../protocol/analysis';
import { pickSwings } from '../../client/replay/analysis/judge';
import { playThenResign, startVsComputer } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

describe('the analysis cached by the server', () => {
  it('is started by the first Analyse, then shown at once to whoever opens the replay', { timeout: 300_000 }, async () => {
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    const matchID = await startVsComputer(page, env.server.url, 'Cai');
    await playThenResign(page, 8);
    await page.goto(`${env.server.url}/#/replay/${matchID}`);
    await page.locator('.replay .game').waitFor();

    // None ready: asking starts the server's; the page shows the server's progress and computes nothing itself.
    await page.getByRole('button', { name: 'Analyse' }).click();
    await page.locator('[role="progressbar"][data-progress="server"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('.analysis-count').textContent()).toMatch(/^The server is (judging decision \d+ of \d+|analysing this game)/);
    await page.locator('.analysis[data-analysis="done"][data-source="server"]').waitFor({ timeout: 200_000 });
    expect(page.workers().length).toBe(0);
    const served = await fetch(env.server.url + analysisPath(matchID));
    expect(served.status).toBe(200);
    const analysis = (await served.json()) as GameAnalysis;
    const swings = pickSwings(analysis.decisions).map((s) => String(s.step));
    expect(swings.length).toBeGreaterThan(0);

    // Reopened, here and by another visitor: the server's analysis at once.
    const phone = await (await env.session.context({ width: 390, height: 844 }, 'pt-BR')).newPage();
    for (const [visitor, analyse] of [
      [page, 'Analyse'],
      [phone, 'Analisar'],
    ] as const) {
      let sawProgress = false;
      // The first page is on the replay already: loaded afresh, it shows no analysis until asked.
      if (visitor === page) await visitor.reload();
      else await visitor.goto(`${env.server.url}/#/replay/${matchID}`);
      await visitor.locator('.replay .game').waitFor();
      await visitor.exposeFunction('sawProgress', () => (sawProgress = true));
      await visitor.evaluate(() => new MutationObserver(() => document.querySelector('[role="progressbar"]') && (window as never as { sawProgress(): void }).sawProgress()).observe(document.body, { childList: true, subtree: true }));
      await visitor.getByRole('button', { name: analyse }).click();
      await visitor.locator('.analysis[data-analysis="done"][data-source="server"]').waitFor({ timeout: 10_000 });
      expect(sawProgress).toBe(false);
      expect(visitor.workers().length).toBe(0);
      const canvas = visitor.locator('.analysis-graph canvas');
      await canvas.waitFor();
      const box = (await canvas.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(300);
      expect(box.height).toBeGreaterThanOrEqual(120);
      expect(await visitor.locator('.analysis-graph [data-swing]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.step))).toEqual(swings);
      expect(await visitor.locator('.analysis-record [data-swing]').count()).toBe(swings.length);
    }
    expect(env.session.problems).toEqual([]);
    await ctx.close();
  });
});
