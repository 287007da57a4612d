/**
 * The opponent's last move on a 1280 × 800 screen, in real Chromium against the real server: the player
 * (Editor) plays the computer (Nixon, easy); after the computer moves, the card it played and the piece it
 * moved or the space it changed carry data-last-move, the pulse stops when the player asks for reduced
 * motion, and every evidence colour is drawn with its own pattern; legal targets pulse a few times, then stay
 * lit (nothing animates while a decision waits). Also takes the colour-blind screenshots
 * (docs/screenshots/board-deuteranopia.png, board-protanopia.png with UPDATE_SCREENSHOTS=1).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { boardState, decide, startVsComputer, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? resolve('docs/screenshots') : resolve('test-results/screenshots');
const env = useServerAndBrowser(() => mkdirSync(SHOTS, { recursive: true }));

/** Colour-vision deficiency simulation (Machado, Oliveira & Fernandes 2009, severity 1), as an SVG filter on the page. */
const CVD = {
  deuteranopia: '0.367 0.861 -0.228 0 0 0.280 0.673 0.047 0 0 -0.012 0.043 0.969 0 0 0 0 0 1 0',
  protanopia: '0.152 1.053 -0.205 0 0 0.115 0.786 0.099 0 0 -0.004 -0.048 1.052 0 0 0 0 0 1 0',
};
async function simulated(page: Page, kind: keyof typeof CVD) {
  await page.evaluate(
    ([id, matrix]) => {
      document.getElementById('cvd')?.remove();
      const holder = document.createElement('div');
      holder.id = 'cvd';
      holder.innerHTML = `<svg width="0" height="0" style="position:absolute"><filter id="cvd-${id}"><feColorMatrix type="matrix" values="${matrix}"/></filter></svg>`;
      document.body.appendChild(holder);
      document.documentElement.style.filter = `url(#cvd-${id})`;
    },
    [kind, CVD[kind]],
  );
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/board-${kind}.png` });
}

/** The Nixon (computer) record lines since the Editor's own last line, as the page shows them. */
const nixonSinceMine = (page: Page) =>
  page.evaluate(() => {
    const lines = [...document.querySelectorAll('.record-lines li')];
    let i = lines.length;
    while (i > 0 && !lines[i - 1].classList.contains('role-0')) i--;
    // Drawing cards and tokens is the rules' bookkeeping, not a move: the panel leaves it out.
    const routine = (l: Element) => /\brec-(draw-cards|draw-tokens|reshuffle|assess-initiative)\b/.test(l.className);
    return lines.slice(i).filter((l) => l.classList.contains('role-1') && !routine(l)).map((l) => l.textContent ?? '');
  });

describe('the last move', () => {
  it('after the computer moves, its card and the piece or space it changed are highlighted', { timeout: 240_000 }, async () => {
    const ctx = await env.session.context({ width: 1280, height: 800 }, undefined, { motion: true });
    const page = await ctx.newPage();
    await startVsComputer(page, env.server.url, 'Ben');

    // Play the Editor's decisions until, at the Editor's move, the computer's last move moved a piece on
    // the track or changed the evidence board (most of its plays do).
    const onBoard = page.locator('.track [data-last-move="to"], .evidence-board [data-last-move]');
    const deadline = Date.now() + 180_000;
    let checked = 0;
    for (;;) {
      expect(Date.now(), 'the computer never moved a piece').toBeLessThan(deadline);
      expect(await page.locator('.gameover').count()).toBe(0);
      const s = await boardState(page);
      if (!s.mine) {
        await page.waitForTimeout(100);
        continue;
      }
      const lines = await nixonSinceMine(page);
      if (lines.length > 0) {
        // The panel tells the same lines, and each card it shows is named in them.
        await expect.poll(() => page.locator('.last-move li').allTextContents()).toEqual(lines);
        for (const name of await page.locator('[data-last-move="card"] .card-name').allTextContents())
          expect(lines.some((l) => l.includes(name)), `${name} in ${lines.join(' / ')}`).toBe(true);
        const cards = await page.locator('[data-last-move="card"]').count();
        if (lines.some((l) => / played | reacted /.test(l))) expect(cards).toBeGreaterThan(0);
        else expect(cards).toBe(0);
        checked++;
        if ((await onBoard.count()) > 0) break;
      } else expect(await page.locator('[data-last-move]').count()).toBe(0);
      await decide(page, '0');
      await waitForChange(page, s);
    }
    expect(checked).toBeGreaterThan(0);
    const ring = page.locator('[data-last-move] .last-move-ring').first();
    expect(await ring.evaluate((el) => getComputedStyle(el).animationName)).toBe('wg-last-move');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await ring.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');

    // Colour-blind safe: every face-up evidence token and every slip is painted with its colour's pattern.
    const paints = await page.evaluate(() =>
      [...document.querySelectorAll('.token.up > circle:first-child, .space > circle:first-of-type')].map((c) => c.getAttribute('fill')?.startsWith('url(#') || c.getAttribute('stroke')?.startsWith('url(#')),
    );
    expect(paints.length).toBe((await page.locator('.evidence-board .space').count()) + (await page.locator('.token.up').count()));
    expect(paints.every(Boolean)).toBe(true);
    await page.screenshot({ path: `${SHOTS}/board-last-move.png` });
    await simulated(page, 'deuteranopia');
    await simulated(page, 'protanopia');
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('legal targets pulse a few times, then stay lit: nothing on the board animates while a decision waits', { timeout: 60_000 }, async () => {
    const ctx = await env.session.context({ width: 1280, height: 800 }, undefined, { motion: true });
    const page = await ctx.newPage();
    await page.goto(`${env.server.url}/#/local`);
    await page.locator('.game').waitFor();
    // A card in hand whose value moves a marker lights the marker's legal spaces on the track.
    const cards = page.locator('.hand-cards button.card');
    const halos = page.locator('.target .halo');
    await cards.first().waitFor();
    for (let i = 0; i < (await cards.count()) && (await halos.count()) === 0; i++) await cards.nth(i).click();
    expect(await halos.count()).toBeGreaterThan(0);
    const running = () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);
    expect(await halos.first().evaluate((el) => getComputedStyle(el).animationName)).toBe('pulse');
    expect(await running()).toBeGreaterThan(0);
    // Three pulses of 1.2 s: then the page is still, with the targets lit.
    await expect.poll(running, { timeout: 10_000 }).toBe(0);
    expect(await halos.count()).toBeGreaterThan(0);
    expect(Number(await halos.first().evaluate((el) => getComputedStyle(el).strokeOpacity))).toBe(1);
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });
});
