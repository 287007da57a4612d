/**
 * axe-core 4.14 (the engine Lighthouse's accessibility audit runs) against the pages a player meets, in
 * real Chromium against the real server: the lobby, a match against the computer, the account page, the
 * replay of that match, the tutorial, the events list, a running event's page with its standings and the
 * seasons page. No serious or critical violation on any of them; the figures
 * are in docs/ACCESSIBILITY.md.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { playThenResign, startVsComputer } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Found {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The serious and critical violations axe finds on the page as it is now, one line each with where. */
async function serious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => ((await (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: unknown[] }> } }).axe.run({ resultTypes: ['violations'] })).violations));
  return (found as Found[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${v.help} at ${JSON.stringify(n.target)} — ${n.failureSummary ?? ''}`));
}

describe('accessibility (axe-core)', () => {
  it('finds no serious or critical violation on the lobby, a match, the account page, the replay and the tutorial', { timeout: 300_000 }, async () => {
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    const report: Record<string, string[]> = {};

    await page.goto(`${env.server.url}/#/`);
    await page.locator('[data-lobby-doors]').waitFor();
    await page.locator('[data-open-matches]').waitFor();
    report.lobby = await serious(page);

    const matchID = await startVsComputer(page, env.server.url, 'Axel');
    await page.locator('section.prompt').waitFor();
    report.match = await serious(page);
    await playThenResign(page, 2);
    report.gameover = await serious(page);

    await page.goto(`${env.server.url}/#/replay/${matchID}`);
    await page.locator('[data-replay-step]').waitFor();
    report.replay = await serious(page);

    await page.goto(`${env.server.url}/#/account`);
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    report.accountSignedOut = await serious(page);
    await page.locator('[data-sign-up] input[name="username"]').fill('Axeholder');
    await page.locator('[data-sign-up] input[name="password"]').fill('all the presidents men');
    await page.locator('[data-sign-up] button[type="submit"]').click();
    await page.locator('[data-signed-in]').waitFor();
    report.accountSignedIn = await serious(page);

    await page.goto(`${env.server.url}/#/tutorial`);
    await page.locator('[data-tutorial-step]').waitFor();
    report.tutorial = await serious(page);

    await ctx.close();
    expect(report).toEqual({ lobby: [], match: [], gameover: [], replay: [], accountSignedOut: [], accountSignedIn: [], tutorial: [] });
  });

  it('finds none on the events list, a running event with its standings and the seasons page', { timeout: 240_000 }, async () => {
    const base = env.server.url;
    // Four accounts from Node (their own sessions): one creates an event, all join, it starts.
    const calls = await Promise.all(['AxEv1', 'AxEv2', 'AxEv3', 'AxEv4'].map(async (username) => {
      const r = await fetch(`${base}/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ username, password: 'all the presidents men' }) });
      const cookie = r.headers.getSetCookie().find((c) => c.startsWith('wg_session='))!.split(';')[0];
      return async (path: string, body: unknown = {}) => (await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, cookie }, body: JSON.stringify(body) })).json();
    }));
    const { id } = (await calls[0]('/api/tournaments', { name: 'Axe Open', rounds: 1, clock: 'none', rated: false })) as { id: string };
    for (const call of calls) await call(`/api/tournaments/${id}/join`);
    await calls[0](`/api/tournaments/${id}/start`);
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    const report: Record<string, string[]> = {};
    await page.goto(`${base}/#/events`);
    await page.getByRole('link', { name: 'Axe Open' }).first().waitFor();
    report.events = await serious(page);
    await page.goto(`${base}/#/events/${id}`);
    await page.getByRole('heading', { name: 'Round 1' }).waitFor({ timeout: 30_000 });
    await page.locator('tr[data-player]').first().waitFor();
    report.event = await serious(page);
    await page.goto(`${base}/#/seasons`);
    await page.locator('h1').waitFor();
    await page.locator('section.panel').first().waitFor();
    report.seasons = await serious(page);
    await ctx.close();
    expect(report).toEqual({ events: [], event: [], seasons: [] });
  });
});
