/**
 * The replay's analysis worker (bots/browser-analysis.ts) bundled by Vite and run in Debian's chromium:
 * each decision's review is the one Node computes from the same view, progress comes once per decision in
 * order, and cancelling rejects with an AbortError, terminates the worker and reports nothing more.
 */
import { describe, expect, it } from 'vitest';
import { legalMoves, playerView, type WatergateState } from '../../game';
import { review, type Review } from '../../bots/analyse';
import type { ReviewTask } from '../../bots/browser-analysis';
import { randomDecisions } from '../helpers/rng';
import { useBotPage } from './fixtures/page';

const bot = useBotPage();

/** Decisions of a seeded random game as the replay page hands them over: the decider's view and the move made. */
function tasks(count: number): ReviewTask[] {
  const out: ReviewTask[] = [];
  for (const { G, player, moves } of randomDecisions(21, 200)) {
    if (out.length === count) break;
    const played = moves[moves.length >> 1];
    out.push({ view: playerView(structuredClone(G) as WatergateState, player), played });
    if (legalMoves(G, player).length === 0) break;
  }
  return out;
}

type Outcome = { reviews?: Review[]; error?: string; progress: number[]; ms: number };
type Page = import('playwright-core').Page;
const run = (page: Page, t: ReviewTask[], config: object, cancel: { afterDone?: number; afterMs?: number } = {}) =>
  page.evaluate(([t, c, n]) => (window as never as { reviewInBrowser: (t: unknown, c: unknown, n: unknown) => Promise<Outcome> }).reviewInBrowser(t, c, n), [t, config, cancel] as const);

describe('the analysis worker in the browser', () => {
  it('reviews each decision as Node does, reports progress per decision, and ends its worker', async () => {
    const page = await bot.open();
    const t = tasks(8);
    const config = { iterations: 300, deterministic: true, seed: 5 };
    const got = await run(page, t, config);
    expect(got.error).toBeUndefined();
    expect(got.progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const inNode = t.map((x) => review(x.view, x.played, config));
    // The same search to the last bit but for Math.exp, whose last digit may differ between Chromium's V8 and Node's.
    const same = (r: Review) => ({ ...r, elapsedMs: 0, before: r.before?.toFixed(9), after: r.after?.toFixed(9) });
    expect(got.reviews!.map(same)).toEqual(inNode.map(same));
    expect(inNode.filter((r) => !r.forced && r.after !== null).length).toBeGreaterThan(3);
    await expect.poll(() => page.workers().length).toBe(0);
    expect(bot.session().problems).toEqual([]);
  }, 180_000);

  it('cancels between decisions and in the middle of a search: an AbortError at once, the worker terminated, no progress after', async () => {
    const page = await bot.open();
    const t = tasks(8);
    const between = await run(page, t, { iterations: 200, deterministic: true }, { afterDone: 3 });
    expect(between).toMatchObject({ error: 'AbortError', progress: [1, 2, 3] });
    await expect.poll(() => page.workers().length).toBe(0);

    // Each search would run a minute: the cancel ends it within moments, the worker with it.
    const slow = t.filter((_, i) => i > 0 && !review(t[i].view, t[i].played, { iterations: 20, deterministic: true }).forced);
    const during = run(page, slow, { iterations: 1e9, timeMs: 60_000 }, { afterMs: 1500 });
    await expect.poll(() => page.workers().length).toBe(1);
    const got = await during;
    expect(got).toMatchObject({ error: 'AbortError', progress: [] });
    expect(got.ms).toBeLessThan(10_000);
    // Chromium ends a worker busy in a search by force after about 2 s (its forcible-termination delay).
    await expect.poll(() => page.workers().length, { timeout: 15_000 }).toBe(0);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as never as { progress: number[] }).progress)).toEqual([]);
    expect(bot.session().problems).toEqual([]);
  }, 180_000);
});
