/**
 * Events in real Chromium against the real server: Ann signs up, creates an event from #/events, joins it,
 * three other accounts join (their own clients), Ann starts it and her page shows round 1 with its games
 * and the standings by itself; on a 390 px phone the event page's text fits its boxes.
 */
import { describe, expect, it } from 'vitest';
import { overflowingLabels } from './helpers/overflow';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser(undefined, { EVENT_TICK_MS: '200' });
const PASSWORD = 'all the presidents men';

/** An account signed up from Node: its session cookie, for its own calls. */
async function account(base: string, username: string) {
  const r = await fetch(`${base}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ username, password: PASSWORD }) });
  const cookie = r.headers.getSetCookie().find((c) => c.startsWith('wg_session='))!.split(';')[0];
  return (path: string) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, cookie }, body: '{}' });
}

describe('events in the browser', () => {
  it('create, join, start: the page shows round 1 and the standings by itself; fits a phone', { timeout: 240_000 }, async () => {
    const base = env.server.url;
    const ctx = await env.session.context({ width: 390, height: 844 });
    const page = await ctx.newPage();
    await page.goto(`${base}/#/account`);
    const form = page.getByRole('form', { name: 'Create an account' });
    await form.getByLabel('Username').fill('EvAnn');
    await form.getByLabel('New password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Signed in as EvAnn').waitFor();
    // On a phone the header's links are in its menu, as a player finds them.
    await page.locator('.menu-toggle').click();
    await page.getByRole('link', { name: 'Events' }).click();
    const create = page.getByRole('form', { name: 'Create an event' });
    await create.getByLabel('Name').fill('Watergate Open');
    await create.getByLabel('Clock').selectOption('none');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Watergate Open' }).waitFor();
    const id = /#\/events\/([A-Za-z0-9_-]+)/.exec(page.url())![1];
    await page.getByRole('button', { name: 'Join' }).click();
    await page.locator('tr[data-player="EvAnn"]').waitFor();
    for (const name of ['EvBob', 'EvCy', 'EvDee']) expect((await (await account(base, name))(`/api/tournaments/${id}/join`)).status).toBe(200);
    await expect.poll(() => page.locator('tr[data-player]').count(), { timeout: 20_000 }).toBe(4);
    await page.getByRole('button', { name: 'Start now' }).click();
    await page.getByRole('heading', { name: 'Round 1' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('li[data-match]').count()).toBe(2);
    expect(await page.getByText('in play').first().isVisible()).toBe(true);
    expect(await overflowingLabels(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await ctx.close();
  });
});
