/**
 * Turn notifications on the match page, in real Chromium against the real server: "Notify me when it's
 * my turn" asks the browser's permission (granted here by the test), a notification appears when a
 * decision becomes the player's while the tab is hidden and never while it is shown, and the seat's
 * webhook is set and removed through the panel (a bad address is refused with the server's reason).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boardState, decide, startVsComputer } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

// The whole browser: its headless shell denies the notification permission whatever the context grants.
const env = useServerAndBrowser(undefined, undefined, { full: true });

/** "Play vs computer" as the Editor from the lobby: the board of a seat this page holds. */
const vsComputer = (page: Page): Promise<string> => startVsComputer(page, env.server.url);

describe('turn notifications in the browser', () => {
  it('asks from the button, notifies only while the tab is hidden, and sets the seat webhook', { timeout: 240_000 }, async () => {
    const ctx = await env.session.context();
    await ctx.grantPermissions(['notifications'], { origin: env.server.url });
    // Headless Chromium's tab is always visible and shows no notification: the test decides when the tab
    // is hidden and records the notifications the page creates.
    await ctx.addInitScript(() => {
      const w = window as unknown as { notes: { title: string; body?: string }[]; hidden: boolean; Notification: typeof Notification };
      w.notes = [];
      w.hidden = false;
      Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (w.hidden ? 'hidden' : 'visible'), configurable: true });
      const Real = window.Notification;
      w.Notification = class extends Real {
        constructor(title: string, o?: NotificationOptions) {
          super(title, o);
          w.notes.push({ title, body: o?.body });
        }
      };
    });
    const page = await ctx.newPage();
    const notes = () => page.evaluate(() => (window as unknown as { notes: { title: string; body?: string }[] }).notes);
    const matchID = await vsComputer(page);

    const button = page.getByRole('button', { name: "Notify me when it's my turn" });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const state = page.locator('[data-notify-state]');
    await expect.poll(() => state.getAttribute('data-notify-state')).toBe('on');
    expect(await state.textContent()).toContain('while this tab is hidden');

    // Shown: the Editor's first decision notified nobody. Hidden: play until the decision comes back.
    expect((await boardState(page)).mine).toBe(true);
    expect(await notes()).toEqual([]);
    await page.evaluate(() => void ((window as unknown as { hidden: boolean }).hidden = true));
    const deadline = Date.now() + 120_000;
    while ((await notes()).length === 0) {
      expect(Date.now(), 'no notification came').toBeLessThan(deadline);
      const s = await boardState(page);
      if (s.mine && (await notes()).length === 0) await decide(page, '0');
      else await page.waitForTimeout(100);
    }
    expect((await notes())[0]).toEqual({ title: '● Your move — Watergate', body: `Match ${matchID}` });

    // The webhook: the server's reason for a bad one, then saved, remembered here, and removed.
    const field = page.getByLabel('Webhook for your seat as Editor (Discord-compatible)');
    const result = page.locator('[data-webhook-result]');
    await field.fill('ftp://example.org/hook');
    await page.locator('[data-webhook-save]').click();
    await expect.poll(() => result.textContent()).toContain('webhook must start with https:// or http://');
    expect(await result.getAttribute('role')).toBe('alert');
    await field.fill('https://example.org/hook');
    await field.press('Enter');
    await expect.poll(() => result.textContent()).toContain('Saved');
    expect(await page.evaluate(() => localStorage.getItem('watergate.webhook'))).toBe('https://example.org/hook');
    await page.locator('[data-webhook-remove]').click();
    await expect.poll(() => result.textContent()).toContain('Removed');

    // Turned off from the panel: remembered, and the button closes the panel.
    await page.getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(() => state.getAttribute('data-notify-state')).toBe('off');
    await button.click();
    expect(await page.locator('[data-notify-panel]').count()).toBe(0);
    await ctx.close();
  });

  it("the button puts the browser's permission question; a refusal is explained in the panel", { timeout: 120_000 }, async () => {
    const ctx = await env.session.context();
    // The browser's answer, as a person refusing would give it.
    await ctx.addInitScript(() => {
      let answer: NotificationPermission = 'default';
      Object.defineProperty(Notification, 'permission', { get: () => answer, configurable: true });
      Notification.requestPermission = async () => (answer = 'denied');
    });
    const page = await ctx.newPage();
    await vsComputer(page);
    await page.getByRole('button', { name: "Notify me when it's my turn" }).click();
    const state = page.locator('[data-notify-state]');
    await expect.poll(() => state.getAttribute('data-notify-state')).toBe('denied');
    expect(await state.textContent()).toContain('blocks notifications');
    expect(await page.evaluate(() => Notification.permission)).toBe('denied');
    await ctx.close();
  });
});
