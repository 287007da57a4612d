/**
 * The replay of a finished game in real Chromium against the real server: a game against the computer is
 * played a little and resigned; the game-over screen links to the replay, which opens at the start with
 * both hands shown as they really were, follows the slider and the ←/→ keys with the record in step, ends
 * on the result, and "Download game" saves the server's JSON. "Your matches" links to it too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { replayPath, type ReplayData } from '../../protocol/replay';
import { replayStates } from '../../client/replay/steps';
import { playThenResign, startVsComputer } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

/** What the replay page shows: the step, the record's length and both hands' cards. */
const shown = (page: Page) =>
  page.evaluate(() => ({
    step: Number(document.querySelector<HTMLElement>('[data-replay-step]')?.dataset.replayStep),
    log: document.querySelectorAll('.record-lines li').length,
    hands: ['0', '1'].map((p) => [...document.querySelectorAll<HTMLElement>(`[data-hand="${p}"] .hand-cards [data-card]`)].map((c) => c.dataset.card)),
  }));

describe('the replay page', () => {
  it('opens from the game-over screen, steps with the slider and ←/→ with the record in step, shows both hands, downloads the game', { timeout: 240_000 }, async () => {
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    const matchID = await startVsComputer(page, env.server.url, 'Ben');

    // Six of the Editor's decisions (the computer answers in between), then the Editor resigns: at least
    // seven stored moves whoever decides in between, so the slider's last steps are not its first.
    await playThenResign(page, 6);

    // The truth to compare with: the server's replay, rebuilt here by the page's own module.
    const data = (await (await fetch(env.server.url + replayPath(matchID))).json()) as ReplayData;
    const states = replayStates(data);
    const last = states.length - 1;
    expect(last).toBeGreaterThan(6);
    const truth = (k: number) => ({ step: k, log: states[k].G.log.length, hands: ['0', '1'].map((p) => [...states[k].G.hands[p as '0' | '1']]) });

    await page.locator('.gameover [data-replay-link]').click();
    await page.waitForURL(new RegExp(`#/replay/${matchID}$`));
    await page.locator('.replay .game').waitFor();
    expect(await page.locator('[data-replay-step]').textContent()).toBe(`Decision 0 of ${last}`);
    expect(await shown(page)).toEqual(truth(0));
    expect(truth(0).hands[1].length).toBeGreaterThan(0); // Nixon's hand, never on the Editor's board, is shown

    // ←/→ anywhere on the page step through the decisions; the record and hands follow.
    await page.locator('.replay-title').click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => shown(page)).toEqual(truth(1));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => shown(page)).toEqual(truth(2));
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => shown(page)).toEqual(truth(1));
    // The caption names who made the decision that led here.
    expect(await page.locator('[data-replay-caption]').textContent()).toMatch(new RegExp(`^${data.moves[0].playerID === '0' ? 'Editor' : 'Nixon'}: `));

    // The slider: set to a step, and moved with its own arrow keys (one step per press, not two).
    const slider = page.locator('[data-replay-slider]');
    await slider.fill(String(last - 2));
    await expect.poll(() => shown(page)).toEqual(truth(last - 2));
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => shown(page)).toEqual(truth(last - 1));
    await page.locator('[data-replay-next]').click();
    await expect.poll(() => shown(page)).toEqual(truth(last));
    expect(await page.locator('[data-replay-next]').isDisabled()).toBe(true);
    expect(await page.locator('[data-replay-caption]').textContent()).toContain('Editor: Resign');
    expect(await page.locator('.replay .gameover .why').textContent()).toBe('Editor resigned.');

    // "Download game" saves the server's JSON as a .json file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-replay-download]').click()]);
    expect(download.suggestedFilename()).toBe(`watergate-${matchID}.json`);
    expect(JSON.parse(readFileSync((await download.path())!, 'utf8'))).toEqual(data);

    // The finished match in "Your matches" links to the replay too.
    await page.goto(`${env.server.url}/#/`);
    await page.locator(`[data-my-match="${matchID}"][data-state="over"] [data-replay-link]`).click();
    await page.waitForURL(new RegExp(`#/replay/${matchID}$`));
    await page.locator('.replay .game').waitFor();
    expect(env.session.problems).toEqual([]);
    await ctx.close();
  });
});
