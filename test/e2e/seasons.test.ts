/**
 * The seasons page in Chromium at phone width: reached from the header's menu, it shows the current
 * quarter's table (empty on a new server: says so) and the past seasons, each linking to its own table;
 * the text fits with no sideways scroll.
 */
import { describe, expect, it } from 'vitest';
import { overflowingLabels } from './helpers/overflow';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

describe('seasons in the browser', () => {
  it('the menu leads to #/seasons; a past season opens its own table; fits a phone', { timeout: 240_000 }, async () => {
    const base = env.server.url;
    const ctx = await env.session.context({ width: 390, height: 844 });
    const page = await ctx.newPage();
    await page.goto(`${base}/#/`);
    await page.locator('.menu-toggle').click();
    await page.getByRole('link', { name: 'Seasons' }).click();
    await page.getByText('No rated games yet this season.').waitFor({ timeout: 20_000 });
    expect(await page.locator('li[data-past-season]').count()).toBe(4);
    expect(await overflowingLabels(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const past = page.locator('li[data-past-season] a').first();
    const id = (await past.textContent())!;
    await past.click();
    await page.getByRole('heading', { name: `Season ${id}` }).waitFor();
    await page.getByRole('heading', { name: 'Final table' }).waitFor();
    await ctx.close();
  });
});
