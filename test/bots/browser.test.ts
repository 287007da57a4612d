/**
 * The browser path of "play vs computer": bots/browser.ts bundled by Vite, run in Debian's chromium.
 * The search runs in a Web Worker, returns the same decision as in Node, and boardgame.io's
 * Local({ bots }) plays a whole game with it.
 */
import { describe, expect, it } from 'vitest';
import { newGame, playerView } from '../../game';
import { think } from '../../bots/levels';
import { botRng } from '../../bots/rng';
import { useBotPage } from './fixtures/page';

const bot = useBotPage();

describe('our bot in the browser', () => {
  it('thinks in a Web Worker and plays a whole local game through Local({ bots })', async () => {
    const page = await bot.open();

    const view = playerView(newGame({}, botRng(77)), '0');
    const config = { level: 'normal' as const, deterministic: true, seed: 4 };
    const inBrowser = await page.evaluate(([v, c]) => (window as never as { thinkInBrowser: (v: unknown, c: unknown) => Promise<{ move: unknown; iterations: number }> }).thinkInBrowser(v, c), [view, config] as const);
    const inNode = think(view, config);
    expect(inBrowser.iterations).toBe(1000);
    expect(inBrowser.move).toEqual(inNode.move);
    // The work happened in a worker: the page loaded one.
    expect(page.workers().length).toBe(1);

    const result = await page.evaluate(() => (window as never as { playLocalGame: () => Promise<{ winner: string; round: number }> }).playLocalGame());
    expect(['0', '1']).toContain(result.winner);
    expect(result.round).toBeGreaterThanOrEqual(1);
    expect(bot.session().problems).toEqual([]);
  }, 180_000);
});
