/**
 * The browser path of "play vs computer": bots/browser.ts bundled by Vite, run in Debian's chromium.
 * The search runs in a Web Worker, returns the same decision as in Node, and boardgame.io's
 * Local({ bots }) plays a whole game with it. Searches merged at the root are spread over several
 * workers (as many as the device's cores allow, at most 4) and merge to the decision Node makes.
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

  it('spreads merged searches over several workers on a device with cores to spare, and decides as Node does', async () => {
    // A device with 5 cores: the page keeps one, the bot may use 4 (it needs one per search).
    const page = await bot.open(async (p) => void (await p.addInitScript(() => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 5 }))));

    const view = playerView(newGame({}, botRng(78)), '0');
    const config = { level: 'expert' as const, deterministic: true, seed: 9, iterations: 400, searches: 4 };
    type Reply = { move: unknown; iterations: number; stats: { move: unknown; visits: number; mean: number }[]; winChance: number };
    const inBrowser = await page.evaluate(([v, c]) => (window as never as { thinkInBrowser: (v: unknown, c: unknown) => Promise<Reply> }).thinkInBrowser(v, c), [view, config] as const);
    const inNode = think(view, config);
    expect(inBrowser.iterations).toBe(4 * 400);
    expect(inBrowser.move).toEqual(inNode.move);
    // The same searches: every move with the same visits. Values agree to rounding (Chromium's Math.exp
    // is not always Node's to the last bit).
    expect(inBrowser.stats.map((s) => [s.move, s.visits])).toEqual(inNode.stats.map((s) => [s.move, s.visits]));
    for (const [i, s] of inBrowser.stats.entries()) expect(s.mean).toBeCloseTo(inNode.stats[i].mean, 12);
    expect(inBrowser.winChance).toBeCloseTo(inNode.winChance!, 12);
    expect(page.workers().length).toBe(4);
    expect(bot.session().problems).toEqual([]);
  }, 180_000);
});
