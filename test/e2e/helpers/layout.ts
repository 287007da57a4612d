/**
 * What test/e2e/layout-cases.ts (the build) and layout-dev.test.ts (`npm run dev`) measure on a page: small
 * text, small targets and sideways scrolling; whether a part is in sight; whether the whole table fits one screen.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** What a person would notice: sideways scrolling, text too small to read, controls too small to hit. */
export async function measure(page: Page) {
  return page.evaluate(() => {
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
    };
    const small: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!own || !visible(el) || el.closest('.sr-only')) continue;
      // SVG text is drawn at its font size times the drawing's scale on screen.
      const scale = el instanceof SVGGraphicsElement ? (el.getScreenCTM()?.a ?? 1) : 1;
      const px = parseFloat(getComputedStyle(el).fontSize) * scale;
      if (px < 10.95) small.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} "${el.textContent!.trim().slice(0, 30)}" ${px.toFixed(1)}px`);
    }
    const tiny: string[] = [];
    for (const el of document.querySelectorAll('a[href], button, select, input, textarea, summary, [role="button"]:not(svg *)')) {
      if (!visible(el)) continue;
      // A checkbox or radio is hit through its label.
      const target = el instanceof HTMLInputElement && /checkbox|radio/.test(el.type) ? (el.closest('label') ?? el) : el;
      const r = target.getBoundingClientRect();
      if (r.width < 43.5 || r.height < 43.5) tiny.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} "${(el.textContent ?? '').trim().slice(0, 20)}" ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    }
    const s = document.scrollingElement!;
    return { scrollWidth: s.scrollWidth, clientWidth: s.clientWidth, small, tiny };
  });
}

export async function expectLayout(page: Page, phone: boolean) {
  // The board's labels are sized from its drawn width (a ResizeObserver, client/board/phone.tsx): on a
  // loaded host that can land a few frames after the first paint, so wait for the layout to settle.
  await expect.poll(async () => (await measure(page)).small, { timeout: 5_000 }).toEqual([]);
  const m = await measure(page);
  expect(m.scrollWidth, `sideways scrolling on ${page.url()}`).toBeLessThanOrEqual(m.clientWidth);
  expect(m.small, `text under 11 px on ${page.url()}`).toEqual([]);
  if (phone) expect(m.tiny, `targets under 44 px on ${page.url()}`).toEqual([]);
}

/** Where a part of the page is drawn, and whether it is on screen and on top (not under the dock or the header). */
export const sight = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return { found: false, inView: false, top: 0, bottom: 0 };
    const r = el.getBoundingClientRect();
    const inView = r.height > 0 && r.top >= -0.5 && r.bottom <= window.innerHeight + 0.5;
    const at = document.elementFromPoint(r.left + Math.min(r.width / 2, 30), r.top + Math.min(r.height / 2, 10));
    return { found: true, inView: inView && !!at && (el.contains(at) || at.contains(el)), top: Math.round(r.top), bottom: Math.round(r.bottom) };
  }, selector);

/** Where the parts a player needs are drawn: every hand card, the board, the track, the prompt, the record's last line and the chat's field. */
export const parts = (page: Page) =>
  page.evaluate(() => {
    const box = (el: Element | null) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) };
    };
    return {
      width: window.innerWidth,
      height: window.innerHeight,
      scrollY: window.scrollY,
      scrollHeight: document.scrollingElement!.scrollHeight,
      // Buttons when a card is to be chosen, plain cards otherwise (a reaction, a token to move).
      cards: [...document.querySelectorAll('section.hand[aria-label] .hand-cards [data-card]')].map((c) => ({ id: c.getAttribute('data-card'), ...box(c)! })),
      board: box(document.querySelector('.evidence-board')),
      track: box(document.querySelector('.track')),
      prompt: box(document.querySelector('section.prompt')),
      record: box(document.querySelector('.record-lines li:last-child')),
      chat: box(document.querySelector('.chat-say input')),
    };
  });

/**
 * At a wide size, the whole table inside the viewport without scrolling. What is wrong,
 * as a list (empty: all in sight), polled: a part that comes in late (a clock, "Take back") moves the table
 * for a frame before it is fitted again.
 */
export async function oneScreenFaults(page: Page, talk: boolean): Promise<string[]> {
  const p = await parts(page);
  const inside = (b: { top: number; bottom: number; left: number; right: number } | null) => !!b && b.top >= 0 && b.left >= 0 && b.bottom <= p.height && b.right <= p.width && b.bottom > b.top;
  const faults: string[] = [];
  if (p.scrollHeight > p.height) faults.push(`the page scrolls: ${p.scrollHeight} px`);
  if (p.cards.length === 0) faults.push('no card in the hand');
  for (const c of p.cards) if (!inside(c)) faults.push(`card ${c.id} at ${JSON.stringify(c)}`);
  const named = { board: p.board, track: p.track, prompt: p.prompt, ...(talk ? { "record's last line": p.record, 'chat input': p.chat } : {}) };
  for (const [name, b] of Object.entries(named)) if (!inside(b)) faults.push(`${name} at ${JSON.stringify(b)}`);
  return faults;
}

export async function expectOneScreen(page: Page, talk: boolean, when: string) {
  await expect.poll(() => oneScreenFaults(page, talk), { message: `${page.viewportSize()!.width}×${page.viewportSize()!.height} ${when}` }).toEqual([]);
}
