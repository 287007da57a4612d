/**
 * The one-screen layout's cases, declared by two files in two tiers (`layoutTests` below: layout.test.ts in
 * `npm test`, layout-sizes.test.ts in the long tier; every case runs in CI).
 * One screen: at 1280 × 720, 1366 × 768, 1440 × 900 and 1920 × 1080 (and 1280 × 720 in Portuguese,
 * the longest words) the board, the track, the prompt and every hand card are inside the viewport without
 * scrolling, at turn start and after each decision, and from 1366 × 768 the record's newest line and the
 * chat's field too; the tutorial's step sits beside the board. On a phone (390 × 844 and 360 × 740): a card
 * decision shows the hand; on the tutorial's pin the dock is one line, at least 60 % of the board is in
 * view and the space asked for is above the step's card; the header's links are in a menu that fits and
 * the sources note is one line.
 * With a game in progress, at 1366 × 900, 1920 × 1080, 820 × 1180 and 390 × 844, the prompt's question and
 * the last move are on screen without scrolling (a long prompt's options scroll inside its box), and on the wide screens the record's newest line and the chat too
 * (the screenshots in docs/screenshots come from here).
 * The pages on a phone (390 × 844), a tablet (820 × 1180) and a laptop (1280 × 800): no page scrolls sideways, no
 * visible text is drawn under 11 px (SVG text as scaled on screen, not its user-unit size), and on the
 * phone the evidence board takes the full width, zooms on a tap, every control is at least 44 px, the
 * hand opens as a drawer and a card is played from it; the reconstruction notice stays hidden once
 * hidden. In Chinese and Portuguese the board is drawn in the faces the build serves and no label runs past
 * its box. In local mode the Debug panel's AI tab starts at settings that answer in seconds.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { boardState, decide, startVsComputer, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';
import { overflowingLabels } from './helpers/overflow';
import { expectLayout, expectOneScreen, sight } from './helpers/layout';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? resolve('docs/screenshots') : resolve('test-results/screenshots');
/**
 * Which cases a file declares: `core` in `npm test` (1280 × 720, 1920 × 1080 and 1280 × 720 in Portuguese;
 * the 390 × 844 phone; the tutorial; every page on phone and laptop; Chinese and Portuguese), `more` in the
 * long tier (the sizes in between, the 360 × 740 phone, the tablet).
 */
export type LayoutTier = 'core' | 'more';
let tier: LayoutTier;
let env: ReturnType<typeof useServerAndBrowser>;
/** The rows of a case list that belong to this file's tier (each row's last element). */
const inTier = <T extends readonly unknown[]>(rows: readonly T[]): T[] => rows.filter((r) => r[r.length - 1] === tier);
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
/** Between the phone and the laptop layouts (a tablet held upright). */
const TABLET = { width: 820, height: 1180 };

/** A match against the computer (easy), started from the lobby as the Editor, with the Editor to move. */
async function vsComputer(page: Page) {
  await startVsComputer(page, env.server.url, 'Ann');
  await expect.poll(async () => (await boardState(page)).mine, { timeout: 30_000 }).toBe(true);
}

/** The board's drawn width and a space's drawn diameter. */
const boardSize = (page: Page) =>
  page.evaluate(() => ({
    board: document.querySelector('.evidence-board')!.getBoundingClientRect().width,
    space: document.querySelector('.evidence-board .space circle')!.getBoundingClientRect().width,
  }));

function gameInSight(): void {
  describe('the game in sight on every screen', () => {
    for (const [name, size, talk] of inTier([
      ['1366x900', { width: 1366, height: 900 }, true, 'more'],
      ['1920x1080', { width: 1920, height: 1080 }, true, 'more'],
      ['820x1180', { width: 820, height: 1180 }, false, 'more'],
      ['390x844', PHONE, false, 'core'],
    ] as const))
      it(`${name}: with a game in progress the prompt and the last move are on screen${talk ? ', and so are the record\'s newest line and the chat' : ''}, without scrolling`, { timeout: 180_000 }, async () => {
        const ctx = await env.session.context(size);
        const page = await ctx.newPage();
        await vsComputer(page);
        // Two decisions each, so the record, the last move and the chat have something to show.
        for (let i = 0; i < 2; i++) {
          const before = await boardState(page);
          await decide(page, '0');
          await waitForChange(page, before);
          await expect.poll(async () => (await boardState(page)).mine, { timeout: 60_000 }).toBe(true);
        }
        if (talk) {
          await page.getByLabel('Say something to the table').fill('Good game so far');
          await page.locator('.chat-say button[type="submit"]').click();
          await expect.poll(() => page.locator('.chat-lines li').count()).toBe(1);
        }
        // As the page leaves it for the player: the top of the page on wide screens, the board's top on a phone
        // (a decision on the track brings the track into sight instead, the dock in one line: unfolded here,
        // as a player does to read the last move).
        const folded = page.locator('.dock[data-folded]');
        if (size !== PHONE) await page.evaluate(() => window.scrollTo(0, 0));
        else if ((await folded.count()) === 0 || (await boardState(page)).prompt === 'pin') await expect.poll(async () => Math.abs((await page.locator('.board-zoom').boundingBox())!.y)).toBeLessThan(1);
        if ((await folded.count()) > 0) await page.getByRole('button', { name: 'Show the whole prompt' }).click();
        await page.locator('.last-move').waitFor();
        await shot(page, `board-${name}`);
        // The prompt's question; a long prompt's options scroll inside its box (the dock on a phone). On a
        // phone or a tablet a card decision opens the hand's drawer under the prompt; the last move is under
        // the hand, in sight once the drawer is closed.
        if (!talk && (await boardState(page)).prompt === 'play') {
          expect(await sight(page, '.hand-cards button.card'), 'hand').toMatchObject({ inView: true });
          if ((await page.locator('.hand-toggle').getAttribute('aria-expanded')) === 'true') await page.locator('.hand-toggle').click();
        }
        expect(await sight(page, '.prompt.mine .prompt-who'), 'prompt').toMatchObject({ inView: true });
        expect(await sight(page, '.prompt.mine .prompt-text'), 'prompt').toMatchObject({ inView: true });
        expect(await sight(page, '.last-move summary'), 'last move').toMatchObject({ inView: true });
        expect(await sight(page, '.last-move li:last-child'), 'last move').toMatchObject({ inView: true });
        if (talk) {
          expect(await sight(page, '.record h2'), 'record').toMatchObject({ inView: true });
          expect(await sight(page, '.record-lines li:last-child'), "record's newest line").toMatchObject({ inView: true });
          expect(await sight(page, '.chat-lines li:last-child'), 'chat line').toMatchObject({ inView: true });
          expect(await sight(page, '.chat-say input'), 'chat input').toMatchObject({ inView: true });
        }
        await expectLayout(page, size === PHONE);
        await ctx.close();
        expect(env.session.problems).toEqual([]);
      });
  });
}

function wholeTable(): void {
  describe('one screen: the whole table in the viewport at 1280×720, 1366×768, 1440×900 and 1920×1080', () => {
    for (const [size, locale] of inTier([
      [{ width: 1280, height: 720 }, 'en-US', 'core'],
      [{ width: 1366, height: 768 }, 'en-US', 'more'],
      [{ width: 1440, height: 900 }, 'en-US', 'more'],
      [{ width: 1920, height: 1080 }, 'en-US', 'core'],
      [{ width: 1280, height: 720 }, 'pt-BR', 'core'],
    ] as const))
      it(`${size.width}×${size.height} (${locale}): every hand card, the board, the track and the prompt${size.width >= 1366 ? ", the record's last line and the chat's field" : ''} on screen at turn start and after each kind of decision`, { timeout: 240_000 }, async () => {
        const talk = size.width >= 1366 && size.height >= 768;
        const ctx = await env.session.context(size, locale);
        const page = await ctx.newPage();
        if (locale === 'en-US') await vsComputer(page);
        else {
          await page.goto(`${env.server.url}/#/`);
          await page.locator('.lobby input').first().fill('Ann');
          await page.locator('[data-vs-computer]').click();
          await expect.poll(async () => (await boardState(page)).mine, { timeout: 30_000 }).toBe(true);
        }
        await page.locator('.chat-say input').waitFor();
        await expectOneScreen(page, talk, 'at turn start');
        await expectLayout(page, false);
        if (locale === 'en-US') await shot(page, `table-${size.width}x${size.height}`);
        // Decisions of every kind the game brings (a card, a reaction, a token to move…), each checked once it
        // is the Editor's turn again, while the hand still holds a card.
        const kinds = new Set<string>();
        let checked = 0;
        for (let i = 0; i < 5; i++) {
          const before = await boardState(page);
          kinds.add(await decide(page, '0'));
          await waitForChange(page, before);
          await expect.poll(async () => (await boardState(page)).mine || !!(await page.locator('.gameover').count()), { timeout: 60_000 }).toBe(true);
          if ((await page.locator('.hand-cards [data-card]').count()) === 0 || (await page.locator('.gameover').count())) break;
          await expectOneScreen(page, talk, `after ${[...kinds].join(', ')}`);
          checked++;
        }
        expect(checked, `decisions checked (${[...kinds].join(', ')})`).toBeGreaterThanOrEqual(2);
        await expectLayout(page, false);
        await ctx.close();
        expect(env.session.problems).toEqual([]);
      });
  });
}

/** The share of the evidence board on screen and on top: not under the header, the dock or the tutorial's step card. */
const boardInView = (page: Page) =>
  page.evaluate(() => {
    const b = document.querySelector('.evidence-board')!.getBoundingClientRect();
    const covers = ['.dock', '.tutorial .tutorial-step'].map((s) => document.querySelector(s)?.getBoundingClientRect()).filter((r) => r && r.height > 0 && r.top < window.innerHeight) as DOMRect[];
    const bottom = Math.min(window.innerHeight, ...covers.map((r) => r.top));
    const seen = Math.max(0, Math.min(b.bottom, bottom) - Math.max(b.top, 0));
    return seen / b.height;
  });

function tutorialWide(): void {
    if (tier !== 'core') return;
  describe('one screen: the tutorial on a wide screen', () => {
    it('1280×720: the step\'s card sits beside the board, and the board, the track, the prompt and every card are on screen', { timeout: 120_000 }, async () => {
      const ctx = await env.session.context({ width: 1280, height: 720 });
      const page = await ctx.newPage();
      await page.goto(`${env.server.url}/#/tutorial`);
      await page.locator('[data-tutorial-step]').waitFor();
      await page.locator('[data-tutorial-next]').click(); // step 2: a card to play for its value
      await page.locator('.hand-cards button[data-suggested]').waitFor();
      await expectOneScreen(page, false, 'in the tutorial');
      const [step, board] = await Promise.all([page.locator('.tutorial-step').boundingBox(), page.locator('.evidence-board').boundingBox()]);
      expect(step!.y >= 0 && step!.y + step!.height <= 720, 'the step on screen').toBe(true);
      expect(step!.x >= board!.x + board!.width || step!.y >= board!.y + board!.height, 'the step clear of the board').toBe(true);
      await shot(page, 'tutorial-1280x720');
      await expectLayout(page, false);
      await ctx.close();
      expect(env.session.problems).toEqual([]);
    });
  });
}

function phoneDecisions(): void {
  describe('phone: the board or the hand, whichever the decision needs', () => {
    for (const [size, locale] of inTier([
      [PHONE, 'en-US', 'core'],
      [{ width: 360, height: 740 }, 'en-US', 'more'],
      [{ width: 360, height: 740 }, 'pt-BR', 'more'],
    ] as const))
      it(`${size.width}×${size.height} (${locale}): a card decision shows the hand; the header's links are in a menu that fits; the sources note is one line`, { timeout: 180_000 }, async () => {
        const ctx = await env.session.context(size, locale);
        const page = await ctx.newPage();
        await page.goto(`${env.server.url}/#/`);
        await page.locator('.lobby').waitFor();
        // The note is one line until tapped; the header's links open in a menu, all of them inside the screen.
        const note = page.locator('.notice');
        expect((await note.boundingBox())!.height).toBeLessThanOrEqual(46);
        await page.locator('.notice-text').click();
        expect((await note.boundingBox())!.height).toBeGreaterThan(46);
        await page.locator('.notice-text').click();
        expect(await page.locator('.top nav a').first().isVisible()).toBe(false);
        await page.locator('.menu-toggle').click();
        const links = page.locator('.top nav a');
        expect(await links.count()).toBe(7); // lobby, rules, tutorial, leaderboard, events, seasons, account
        for (const box of await links.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect)))
          expect(box.left >= 0 && box.right <= size.width && box.bottom <= size.height, JSON.stringify(box)).toBe(true);
        await expectLayout(page, true);
        await page.locator('.top nav a[href="#/rules"]').click();
        await page.locator('.card-grid .card').first().waitFor();
        expect(await links.first().isVisible()).toBe(false); // a new page closes the menu
        // A game: the Editor's first decision is a card, and the hand is open and in view.
        await page.goto(`${env.server.url}/#/`);
        await page.locator('.lobby input').first().fill('Ann'); // the name field comes first, whatever its words
        await page.locator('[data-vs-computer]').click(); // as the Editor, the form's default
        await expect.poll(async () => (await boardState(page)).mine, { timeout: 30_000 }).toBe(true);
        await expect.poll(() => page.locator('.hand-toggle').getAttribute('aria-expanded')).toBe('true');
        expect(await sight(page, '.hand-cards'), 'hand').toMatchObject({ inView: true });
        expect(await sight(page, '.hand-cards button.card'), 'first card').toMatchObject({ inView: true });
        if (locale === 'en-US') await shot(page, `board-phone-${size.width}x${size.height}`);
        await expectLayout(page, true);
        await ctx.close();
        expect(env.session.problems).toEqual([]);
      });

    // The 390×844 phone in `npm test`, the smaller 360×740 in the long tier.
    const tutorialPhone = tier === 'core' ? PHONE : { width: 360, height: 740 };
    it(`${tutorialPhone.width}×${tutorialPhone.height}: in the tutorial a decision on the board folds the dock to one line and leaves at least 60% of the board, and the space it asks for, in sight`, { timeout: 240_000 }, async () => {
      {
        const size = tutorialPhone;
        const ctx = await env.session.context(size);
        const page = await ctx.newPage();
        await page.goto(`${env.server.url}/#/tutorial`);
        await page.locator('[data-tutorial-step]').waitFor();
        let pinned = false;
        for (let i = 0; i < 400 && !pinned; i++) {
          const prompt = await page.locator('section.prompt').getAttribute('data-prompt').catch(() => null);
          const mine = (await page.locator('section.prompt.mine').count()) > 0;
          if (mine && prompt === 'pin') {
            const dock = page.locator('.dock');
            await expect.poll(() => dock.getAttribute('data-folded')).toBe('true');
            expect((await dock.boundingBox())!.height, 'the dock in one line').toBeLessThanOrEqual(62);
            await expect.poll(() => boardInView(page)).toBeGreaterThanOrEqual(0.6);
            // The space the step asks for: its marked option's space, lit on the board, above the step's card.
            const space = await page.locator('.prompt .option.suggested').getAttribute('data-space');
            const target = page.locator(space ? `.evidence-board [data-space="${space}"]` : '.evidence-board .space.target').first();
            const t = (await target.boundingBox())!;
            const card = (await page.locator('.tutorial-step').boundingBox())!;
            expect(t.y + t.height, 'the asked-for space above the step card').toBeLessThanOrEqual(card.y);
            expect(t.y).toBeGreaterThanOrEqual(0);
            await shot(page, `tutorial-pin-${size.width}x${size.height}`);
            await expectLayout(page, true);
            pinned = true;
            break;
          }
          const next = page.locator('[data-tutorial-next]');
          if (await next.count()) {
            await next.click();
            continue;
          }
          const option = page.locator('.prompt button[data-move].suggested');
          if ((await option.count()) > 0 && (await option.isVisible())) {
            const before = await boardState(page);
            await option.click();
            await waitForChange(page, before);
            continue;
          }
          const card = page.locator('.hand-cards button[data-suggested]:not(.selected)');
          if ((await card.count()) > 0 && (await card.isVisible())) {
            await card.click();
            continue;
          }
          await page.waitForTimeout(100);
        }
        expect(pinned, `${size.width}×${size.height}: reached the tutorial's pin`).toBe(true);
        await ctx.close();
      }
      expect(env.session.problems).toEqual([]);
    });
  });
}

function pagesOnScreens(): void {
  describe('layout on a phone and a laptop', () => {
    if (tier === 'core') it('phone: full-width board that zooms on a tap, the hand in a drawer, big targets, no small text, no sideways scrolling', { timeout: 240_000 }, async () => {
      const ctx = await env.session.context(PHONE);
      const page = await ctx.newPage();

      // The notice can be hidden, and stays hidden after a reload; the header is compact.
      await page.goto(`${env.server.url}/#/`);
      await page.locator('.lobby').waitFor();
      await expectLayout(page, true);
      expect((await page.locator('.top').boundingBox())!.height).toBeLessThanOrEqual(56);
      await page.getByRole('button', { name: 'Hide this note' }).click();
      expect(await page.locator('.notice').count()).toBe(0);
      await page.reload();
      await page.locator('.lobby').waitFor();
      expect(await page.locator('.notice').count()).toBe(0);
      await expectLayout(page, true);

      // A game in progress: the board uses the width; prompt and hand are in the dock at the bottom.
      await vsComputer(page);
      const fit = await boardSize(page);
      expect(fit.board).toBeGreaterThanOrEqual(350);
      const dock = page.locator('.dock');
      expect(await dock.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
      // A card to choose: the hand's drawer is open by itself; closed, the board and the dock share the
      // screen: once the game is under way the board is brought to the top of the screen, all of it in
      // sight above the dock.
      await expect.poll(() => page.locator('.hand-toggle').getAttribute('aria-expanded')).toBe('true');
      await page.locator('.hand-toggle').click();
      expect(await page.locator('.hand-cards').isVisible()).toBe(false);
      await expect.poll(async () => Math.abs(Math.round((await page.locator('.board-zoom').boundingBox())!.y))).toBe(0);
      const dockTop = (await dock.boundingBox())!.y;
      const boardBox = (await page.locator('.evidence-board').boundingBox())!;
      expect(dockTop).toBeGreaterThanOrEqual(boardBox.y + boardBox.height - 1);
      await expectLayout(page, true);

      // The drawer opens; a card is chosen and played from it; the computer answers.
      await page.locator('.hand-toggle').click();
      await expect.poll(() => page.locator('.hand-toggle').getAttribute('aria-expanded')).toBe('true');
      await expectLayout(page, true);
      const before = await boardState(page);
      await page.locator('.hand-cards button.card').first().click();
      await shot(page, 'board-phone-hand');
      await page.locator('.prompt.mine .option').first().click();
      await waitForChange(page, before);
      await expect.poll(async () => (await page.locator('.record-lines li.role-1').count()) > 0, { timeout: 30_000 }).toBe(true);
      expect(await page.locator('.record-lines li.role-0').count()).toBeGreaterThan(0);

      // With the hand open the dock scrolls inside itself; closing the drawer brings its top, the prompt, back.
      await expect.poll(async () => (await boardState(page)).mine, { timeout: 30_000 }).toBe(true);
      expect(await dock.evaluate((el) => ((el.scrollTop = el.scrollHeight), el.scrollTop))).toBeGreaterThan(0);
      expect((await sight(page, '.prompt.mine')).inView).toBe(false);
      await page.locator('.hand-toggle').click();
      await expect.poll(() => dock.evaluate((el) => el.scrollTop)).toBe(0);
      expect(await sight(page, '.prompt.mine .prompt-text'), 'prompt').toMatchObject({ inView: true });

      // Tap-to-zoom: the board doubles inside a box the player pans; every space is then at least 44 px.
      await page.locator('.board-pan').click({ position: { x: 40, y: 40 } });
      await expect.poll(() => page.locator('.board-zoom[data-zoomed]').count()).toBe(1);
      const zoomed = await boardSize(page);
      expect(zoomed.board).toBeGreaterThanOrEqual(2 * fit.board - 1);
      expect(zoomed.space).toBeGreaterThanOrEqual(44);
      expect(fit.space).toBeLessThan(44); // the zoom is what makes them big enough
      const pan = await page.locator('.board-pan').evaluate((el) => ({ scroll: el.scrollWidth > el.clientWidth, width: el.clientWidth }));
      expect(pan.scroll).toBe(true);
      expect(pan.width).toBeGreaterThanOrEqual(350);
      await expectLayout(page, true);
      await page.getByRole('button', { name: 'Zoom the evidence board' }).click();
      await expect.poll(() => page.locator('.board-zoom[data-zoomed]').count()).toBe(0);

      // The local page (Debug panel folded on a phone, its note beside the controls) and the rules page.
      await page.goto(`${env.server.url}/#/local`);
      await page.locator('.evidence-board').waitFor();
      await page.locator('section.debug-panel button.opener').waitFor();
      expect(await page.locator('[data-debug-note]').textContent()).toContain('iterations and playoutDepth sliders (here 50 and 20');
      await expectLayout(page, true);
      await page.goto(`${env.server.url}/#/rules`);
      await page.locator('.card-grid .card').first().waitFor();
      await expectLayout(page, true);

      await ctx.close();
      expect(env.session.problems).toEqual([]);
    });

    if (tier === 'core') it('laptop: the same pages have no small text and no sideways scrolling', { timeout: 180_000 }, async () => {
      const ctx = await env.session.context(LAPTOP);
      const page = await ctx.newPage();
      await page.goto(`${env.server.url}/#/`);
      await page.locator('.lobby').waitFor();
      await expectLayout(page, false);
      await vsComputer(page);
      // On a wide screen the hand is simply shown (no drawer), the zoom button is not needed.
      expect(await page.locator('.hand-cards').isVisible()).toBe(true);
      expect(await page.locator('.zoom-toggle').isVisible()).toBe(false);
      await expectLayout(page, false);
      await page.goto(`${env.server.url}/#/rules`);
      await page.locator('.card-grid .card').first().waitFor();
      await expectLayout(page, false);
      await page.goto(`${env.server.url}/#/local`);
      await page.locator('section.debug-panel').waitFor();
      await expectLayout(page, false);
      await ctx.close();
      expect(env.session.problems).toEqual([]);
    });

    if (tier === 'core') it('phone: the tutorial and a finished game\'s replay have no small text, small targets or sideways scrolling', { timeout: 180_000 }, async () => {
      const ctx = await env.session.context(PHONE);
      const page = await ctx.newPage();
      await page.goto(`${env.server.url}/#/tutorial`);
      await page.locator('[data-tutorial-step]').waitFor();
      await expectLayout(page, true);
      const matchID = await startVsComputer(page, env.server.url, 'Ann');
      await page.locator('[data-resign]').click();
      await page.locator('[data-resign-confirm]').click();
      await page.locator('[data-replay-link]').waitFor();
      await page.goto(`${env.server.url}/#/replay/${matchID}`);
      await page.locator('[data-replay-slider]').waitFor();
      await expectLayout(page, true);
      await ctx.close();
      expect(env.session.problems).toEqual([]);
    });

    if (tier === 'more') it('tablet: the lobby, a game in progress and the rules have no small text and no sideways scrolling', { timeout: 180_000 }, async () => {
      const ctx = await env.session.context(TABLET);
      const page = await ctx.newPage();
      await page.goto(`${env.server.url}/#/`);
      await page.locator('.lobby').waitFor();
      await expectLayout(page, false);
      await vsComputer(page);
      await expectLayout(page, false);
      await page.goto(`${env.server.url}/#/rules`);
      await page.locator('.card-grid .card').first().waitFor();
      await expectLayout(page, false);
      await ctx.close();
      expect(env.session.problems).toEqual([]);
    });

    if (tier === 'core') it('in Chinese and Portuguese too, a game in progress has no small text, no sideways scrolling and no label past its box on both screens, in the bundled faces', { timeout: 180_000 }, async () => {
      for (const locale of ['zh-CN', 'pt-BR'])
        for (const size of [PHONE, LAPTOP]) {
          const ctx = await env.session.context(size, locale);
          const page = await ctx.newPage();
          await page.goto(`${env.server.url}/#/`);
          await page.locator('.lobby input').first().fill('Ann'); // the name field comes first, whatever its words
          await page.locator('[data-vs-computer]').click(); // as the Editor, the form's default
          await expect.poll(async () => (await boardState(page)).mine, { timeout: 30_000 }).toBe(true);
          await expectLayout(page, size === PHONE);
          // The board's faces come with the page (not whatever the system has), and every label fits its box.
          await page.evaluate(() => document.fonts.ready);
          const faces = await page.evaluate(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family));
          expect(faces).toContain('Noto Serif Variable');
          if (locale === 'zh-CN') expect(faces).toContain('Noto Serif SC Variable');
          expect(await overflowingLabels(page), `${locale} at ${size.width} px`).toEqual([]);
          // On the phone's unzoomed board an informant shows by surname (the full name does not fit).
          if (size === PHONE) expect(await page.locator('.informant-short:visible').count()).toBe(7);
          if (size === PHONE) {
            await page.locator('.board-pan').click({ position: { x: 40, y: 40 } });
            await expect.poll(() => page.locator('.board-zoom[data-zoomed]').count()).toBe(1);
            await expectLayout(page, true);
            expect(await overflowingLabels(page), `${locale} zoomed`).toEqual([]);
            await page.locator('.hand-toggle').click();
            expect(await overflowingLabels(page), `${locale} with the hand open`).toEqual([]);
          }
          await ctx.close();
        }
      expect(env.session.problems).toEqual([]);
    });

    if (tier === 'core') it('local mode: the Debug panel\'s AI tab starts at 50 iterations and depth 20, and its bot answers in seconds', { timeout: 120_000 }, async () => {
      const ctx = await env.session.context(LAPTOP);
      const page = await ctx.newPage();
      await page.goto(`${env.server.url}/#/local`);
      await page.locator('.prompt.mine').waitFor();
      await page.locator('section.debug-panel').getByRole('button', { name: 'AI', exact: true }).click();
      const iterations = page.locator('#ai-option-iterations');
      await expect.poll(() => iterations.inputValue()).toBe('50');
      expect(await page.locator('#ai-option-playoutDepth').inputValue()).toBe('20');
      // The panel's "play" (key 2) runs its MCTS bot for the player to move: at the panel's settings (50 iterations, depth 20) a decision takes about 0.3 s (docs/BOTS.md), the stock 1,000 about 9 s.
      const before = await boardState(page);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const started = Date.now();
      await page.keyboard.press('2');
      await waitForChange(page, before, 12_000);
      expect(Date.now() - started).toBeLessThan(12_000);
      await ctx.close();
      expect(env.session.problems).toEqual([]);
    });
  });
}

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** Declares this file's cases of the one-screen layout (layout.test.ts: core; layout-sizes.test.ts: more). */
export function layoutTests(t: LayoutTier): void {
  tier = t;
  env = useServerAndBrowser(() => mkdirSync(SHOTS, { recursive: true }));
  gameInSight();
  wholeTable();
  tutorialWide();
  phoneDecisions();
  pagesOnScreens();
}
