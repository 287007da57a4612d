/**
 * The tutorial (#/tutorial) in real Chromium: played to its end in English by clicking only what each
 * step marks, through every step in order, then on against the computer (our bot at level easy in the
 * browser's Web Worker) with "What would the computer do?" marking one of the offered moves. In
 * Portuguese and Chinese it opens on its first step in that language. On a phone the step's text stays on
 * screen at every step (above the dock, the hand's drawer open or not), and a card other than the marked
 * one says what the step wants and marks it again. No console error or warning.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import en from '../../client/i18n/locales/en';
import tutorialEn from '../../client/i18n/locales/tutorial/en';
import tutorialPt from '../../client/i18n/locales/tutorial/pt-BR';
import tutorialZh from '../../client/i18n/locales/tutorial/zh-CN';
import { STEPS } from '../../client/tutorial/script';
import { boardState, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

/** Text that betrays a missing translation: a key or an unfilled placeholder. */
const RAW = /\{\{|\}\}|\btutorial\.[a-z]/;

async function open(lang: string, viewport = { width: 1280, height: 900 }, motion = false): Promise<Page> {
  const ctx = await env.session.context(viewport, undefined, { motion });
  await ctx.addInitScript((l) => {
    if (location.protocol === 'http:' && !localStorage.getItem('watergate.lang')) localStorage.setItem('watergate.lang', l);
  }, lang);
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/#/tutorial`);
  await page.locator('[data-tutorial-step]').waitFor();
  await page.locator('.evidence-board').waitFor();
  return page;
}

const stepOf = (page: Page) => page.locator('[data-tutorial-step]').getAttribute('data-tutorial-step');

/**
 * Plays the tutorial to its last step by clicking only what each step marks ("Next", the one option, the
 * marked card); `atStep` looks at each step as it is reached and again before each click, `beforeCard`
 * before the marked card is clicked. Returns the steps seen, in order.
 */
async function walk(page: Page, { atStep, beforeCard }: { atStep?: (step: string, first: boolean) => Promise<void>; beforeCard?: (card: Locator) => Promise<void> } = {}): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 600; i++) {
    const step = (await stepOf(page))!;
    const first = seen.at(-1) !== step;
    if (first) seen.push(step);
    await atStep?.(step, first);
    if (step === 'done') break;
    const next = page.locator('[data-tutorial-next]');
    if (await next.count()) {
      await next.click();
      continue;
    }
    const option = page.locator('.prompt button[data-move]');
    if ((await option.count()) > 0) {
      // Only the step's move is offered, and it is marked.
      expect(await option.count()).toBe(1);
      expect(await option.getAttribute('data-suggested')).not.toBeNull();
      const before = await boardState(page);
      await option.click();
      await waitForChange(page, before);
      continue;
    }
    const card = page.locator('.hand-cards button[data-suggested]:not(.selected)');
    if ((await card.count()) > 0) {
      await beforeCard?.(card);
      await card.click();
      continue;
    }
    await page.waitForTimeout(100); // the computer is answering
  }
  return seen;
}

describe('the tutorial', () => {
  it('is played to its end in English, each step in turn, by clicking only what it marks', { timeout: 180_000 }, async () => {
    const page = await open('en');
    expect(await page.locator('h1#tutorial-step-title').textContent()).toBe(tutorialEn.steps.welcome.title);
    // The tutorial has its own place in the navigation; no hint button while it guides.
    expect(await page.locator('.top nav a[aria-current="page"]').textContent()).toBe(en.app!.tutorial);
    const seen = await walk(page, {
      atStep: async (_step, first) => {
        if (!first) return;
        expect(await page.locator('.tutorial-step').textContent()).not.toMatch(RAW);
        expect(await page.locator('[data-hint]').count()).toBe(0);
      },
    });
    expect(seen).toEqual(STEPS.map((s) => s.id));
    // The round was played out: the record reached round 2, with the Editor's two pins face up.
    expect(await page.locator('.game').getAttribute('data-round')).toBe('2');
    expect(await page.locator('.record-lines').textContent()).toContain('Alexander Butterfield');

    // Playing on: every move is the player's own again, and the computer (easy, in a Web Worker) answers.
    await page.locator('[data-tutorial-play-on]').click();
    await page.locator('.prompt.mine').waitFor({ timeout: 30_000 });
    const hint = page.locator('[data-hint]');
    await hint.click();
    await page.locator('[data-hint-text]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-hint-text]').textContent()).toMatch(/^The computer would: /);
    // The suggestion is one of the moves offered: its card is in the hand, and once chosen its option is
    // marked, the only one marked (the suggestion varies with the search's time budget, and a card may be
    // playable one way only, so how many options it has is not asked).
    const suggested = page.locator('.hand-cards button[data-suggested]');
    if ((await suggested.count()) > 0) await suggested.click();
    expect(await page.locator('.prompt button[data-move][data-suggested]').count()).toBe(1);
    await page.context().close();
    expect(env.session.problems).toEqual([]);
  });

  it('on a phone, the step\'s text is on screen at every step, the hand\'s drawer leaves it there, and a wrong card says what the step wants', { timeout: 180_000 }, async () => {
    const page = await open('en', { width: 390, height: 844 }, true);
    /** The card is inside the screen and on top: what is drawn at its middle belongs to it. */
    const inSight = () =>
      page.evaluate(() => {
        const el = document.querySelector('.tutorial-step')!;
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
        return r.top >= 0 && r.bottom <= window.innerHeight + 0.5 && r.height > 40 && !!top && el.contains(top);
      });
    let wrongTried = false;
    const seen = await walk(page, {
      atStep: async (step) => expect(await inSight(), `step ${step}`).toBe(true),
      beforeCard: async (card) => {
        if ((await page.locator('.hand-toggle').getAttribute('aria-expanded')) !== 'true') {
          await page.locator('.hand-toggle').click();
          expect(await inSight(), 'with the hand open').toBe(true);
        }
        if (wrongTried) return;
        // Another card than the marked one: the prompt says which card the step wants, and marks it again.
        wrongTried = true;
        const wanted = (await card.locator('.card-name').textContent())!;
        const other = page.locator('.hand-cards button.card:not([data-suggested])').first();
        const picked = (await other.locator('.card-name').textContent())!;
        await other.click();
        const said = page.locator('[data-wrong-pick]');
        await said.waitFor();
        expect(await said.textContent()).toBe(`Not ${picked}: this step asks for ${wanted}, the marked card in your hand.`);
        expect(await said.isVisible()).toBe(true);
        expect(await page.locator('.prompt button[data-move]').count()).toBe(0);
        await expect.poll(() => card.evaluate((el) => getComputedStyle(el).animationName)).toBe('suggest');
        expect(await inSight()).toBe(true);
      },
    });
    expect(wrongTried).toBe(true);
    expect(seen).toEqual(STEPS.map((s) => s.id));
    await page.context().close();
    expect(env.session.problems).toEqual([]);
  });

  for (const [lang, words] of [
    ['pt-BR', tutorialPt],
    ['zh-CN', tutorialZh],
  ] as const)
    it(`opens on its first step in ${lang}`, { timeout: 60_000 }, async () => {
      const page = await open(lang, { width: 390, height: 844 });
      expect(await stepOf(page)).toBe('welcome');
      expect(await page.locator('h1#tutorial-step-title').textContent()).toBe(words.steps!.welcome!.title);
      const text = (await page.locator('.tutorial-step').textContent())!;
      expect(text).toContain(words.title);
      expect(text).not.toMatch(RAW);
      if (lang === 'zh-CN') expect(text).toMatch(/[\u4e00-\u9fff]{10}/);
      await page.context().close();
      expect(env.session.problems).toEqual([]);
    });
});
