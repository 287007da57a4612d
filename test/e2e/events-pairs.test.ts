/**
 * A paired event in real Chromium against the real server: four accounts, one round of paired deals
 * nobody plays (each game is forfeited by its no-show after a second, so every pair ends ½ – ½). On a
 * 390 px phone the event page shows each pairing's two games — sides swapped, each linking its replay —
 * and the pair's score, by itself; a pair's second game's page says "Game 2 of 2" and links the first.
 */
import { describe, expect, it } from 'vitest';
import { overflowingLabels } from './helpers/overflow';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser(undefined, { EVENT_TICK_MS: '200', EVENT_NO_SHOW_SECONDS: '1' });
const PASSWORD = 'all the presidents men';

/** An account signed up from Node: its session cookie, for its own calls. */
async function account(base: string, username: string) {
  const r = await fetch(`${base}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ username, password: PASSWORD }) });
  const cookie = r.headers.getSetCookie().find((c) => c.startsWith('wg_session='))!.split(';')[0];
  return async (path: string, body: unknown = {}) => (await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, cookie }, body: JSON.stringify(body) })).json();
}

describe('a paired event in the browser', () => {
  it("the event page shows each pair's two games and score; the second game's page says which game it is", { timeout: 240_000 }, async () => {
    const base = env.server.url;
    const calls = [];
    for (const name of ['PrAnn', 'PrBob', 'PrCy', 'PrDee']) calls.push(await account(base, name));
    const { id } = (await calls[0]('/api/tournaments', { name: 'Pairs Open', rounds: 1, clock: 'none', rated: false, paired: true })) as { id: string };
    for (const c of calls) await c(`/api/tournaments/${id}/join`);
    await calls[0](`/api/tournaments/${id}/start`);
    const ctx = await env.session.context({ width: 390, height: 844 });
    const page = await ctx.newPage();
    await page.goto(`${base}/#/events/${id}`);
    await expect.poll(() => page.locator('[data-pair-score]').count(), { timeout: 60_000 }).toBe(2);
    for (const pair of await page.locator('li[data-pair]').all()) {
      const games = pair.locator('li[data-match]');
      expect(await games.count()).toBe(2);
      const [g1, g2] = [await games.nth(0).textContent(), await games.nth(1).textContent()];
      const [, e1, n1] = /^Game 1: (\w+) \(Editor\) – (\w+) \(Nixon\)/.exec(g1!)!;
      expect(g2).toContain(`Game 2: ${n1} (Editor) – ${e1} (Nixon)`);
      expect(await pair.locator('[data-pair-score]').textContent()).toBe(`Pair: ${e1} ½ – ½ ${n1}`);
    }
    expect(await overflowingLabels(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // The second game of the first pair, opened as a spectator: its line above the board.
    const [first, second] = await page.locator('li[data-pair]').first().locator('li[data-match]').evaluateAll((els) => els.map((e) => e.getAttribute('data-match')!));
    await page.goto(`${base}/#/match/${second}`);
    const line = page.locator('[data-pair="2"]');
    await line.waitFor({ timeout: 30_000 });
    expect(await line.textContent()).toMatch(/^Game 2 of 2 of a paired deal: the same deal as game 1, with sides swapped\. Game 1 · Pair score so far: \w+ 1 – 0 \w+ The event$/);
    expect(await line.getByRole('link', { name: 'Game 1' }).getAttribute('href')).toBe(`#/replay/${first}`);
    expect(await line.getByRole('link', { name: 'The event' }).getAttribute('href')).toBe(`#/events/${id}`);
    await ctx.close();
  });
});
