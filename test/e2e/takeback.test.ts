/**
 * Take-backs in real Chromium against the real server. Against the computer: a value play is taken back
 * (with the computer's reply, by a long press on the board) and the same card then played for its
 * action; a take-back after a private draw is refused with the reason, by the button and by Ctrl+Z.
 * Between two browsers (with the opponent's consent, the default between people): a take-back accepted,
 * one refused by the opponent, and one refused because the opponent has decided since; the finished
 * game's replay keeps the take-back as a step and greys the decision it undid.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { boardState, decide, startVsComputer, twoPlayers as twoBrowsers } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

const undo = (page: Page) => page.locator('[data-undo][data-undo-current]');
/** What the page's own seat may do about take-backs now, once the status is about the state on the board ('' = allowed). */
const why = async (page: Page) => (await undo(page).count()) > 0 ? await undo(page).getAttribute('data-undo-why') : null;
const recordLines = (page: Page) => page.locator('.record-lines li').count();
const handCards = (page: Page) => page.locator('.hand-cards button.card');

/**
 * Plays a value on the initiative or momentum token with a card of the hand that could also be played for
 * its action; returns the card's id, or null if no card of the hand can.
 */
async function valuePlayOfAnEvent(page: Page): Promise<string | null> {
  const cards = handCards(page);
  const prompt = page.locator('.prompt.mine');
  for (let i = 0; i < (await cards.count()); i++) {
    await cards.nth(i).click();
    const marker = prompt.locator('.option[data-kind="initiative"], .option[data-kind="momentum"]');
    if ((await prompt.locator('.option[data-kind="action"]').count()) === 0 || (await marker.count()) === 0) continue;
    const id = await cards.nth(i).getAttribute('data-card');
    await marker.first().click();
    return id;
  }
  return null;
}

/** A value play on the initiative token (else momentum) with the first card that offers one. */
async function markerPlay(page: Page): Promise<void> {
  const cards = handCards(page);
  const prompt = page.locator('.prompt.mine');
  for (let i = 0; i < (await cards.count()); i++) {
    await cards.nth(i).click();
    const marker = prompt.locator('.option[data-kind="initiative"], .option[data-kind="momentum"]');
    if ((await marker.count()) === 0) continue;
    await marker.first().click();
    return;
  }
  throw new Error('no card of the hand moves a marker');
}

/** A finger resting on the element's middle for 800 ms (Chromium's touch input, through the DevTools protocol). */
async function longPress(page: Page, selector: string): Promise<void> {
  // The finger rests where the player sees the board: in the viewport.
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  const box = (await page.locator(selector).first().boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await page.waitForTimeout(800);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Waits until the page's own decision is asked for again, its take-back status about that state. */
async function myTurn(page: Page, timeout = 30_000): Promise<void> {
  await expect.poll(async () => (await boardState(page)).mine && (await undo(page).count()) > 0, { timeout }).toBe(true);
}

/**
 * As myTurn, or the game's end (a game against the computer may end before the case a test looks for
 * comes up: a private draw, say); true when it is the page's turn, false when the game is over.
 */
async function myTurnOrOver(page: Page, timeout = 30_000): Promise<boolean> {
  const over = () => page.locator('.gameover, .gameover-reopen').count();
  await expect.poll(async () => (await over()) > 0 || ((await boardState(page)).mine && (await undo(page).count()) > 0), { timeout }).toBe(true);
  return (await over()) === 0;
}

/** Two browsers: the Editor creates a match from the lobby (take-backs with consent, the create form's default), Nixon joins it. */
const twoPlayers = () => twoBrowsers(env.session, env.server.url, async (editor) => expect(await editor.locator('[data-take-backs]').inputValue()).toBe('consent'));

describe('take-backs', () => {
  it('against the computer: a value play taken back (with the computer\'s reply), the same card then played for its action', { timeout: 240_000 }, async () => {
    const ctx = await env.session.context({ width: 1280, height: 900 });
    const page = await ctx.newPage();
    await startVsComputer(page, env.server.url, 'Ben');
    await myTurn(page);
    // Nothing decided yet: the button says so when tapped.
    expect(await why(page)).toBe('none');
    await undo(page).click({ force: true });
    await expect.poll(() => page.locator('[data-undo-note]').textContent()).toBe('You have no decision to take back.');

    const deadline = Date.now() + 180_000;
    for (;;) {
      expect(Date.now(), 'no value play could be taken back').toBeLessThan(deadline);
      if (!(await myTurnOrOver(page))) {
        await startVsComputer(page, env.server.url, 'Ben');
        continue;
      }
      const s = await boardState(page);
      const lines = await recordLines(page);
      const card = s.prompt === 'play' ? await valuePlayOfAnEvent(page) : null;
      if (!card) {
        await decide(page, '0');
        await expect.poll(() => recordLines(page)).toBeGreaterThan(lines);
        continue;
      }
      // The computer answers; then the take-back goes back past its reply, unless that drew or shuffled.
      await expect.poll(() => recordLines(page)).toBeGreaterThan(lines);
      await myTurn(page);
      if ((await why(page)) !== '') continue;
      expect(await undo(page).getAttribute('aria-disabled')).toBe('false');
      // Taken back the phone's way: a long press on the board (the button and Ctrl+Z do the same).
      await longPress(page, '.game .evidence-board');
      await expect.poll(() => page.locator(`.hand-cards [data-card="${card}"]`).count()).toBe(1);
      await expect.poll(() => recordLines(page)).toBe(lines);
      await expect.poll(() => page.locator('[data-undo-note]').textContent()).toBe('Taken back.');
      // The same card, for its action this time.
      await page.locator(`.hand-cards button.card[data-card="${card}"]`).click();
      await page.locator('.prompt.mine .option[data-kind="action"]').click();
      await expect.poll(() => page.locator('.record-lines').textContent()).toMatch(/Editor played .+ for its action\./);
      expect(await page.locator(`.hand-cards [data-card="${card}"]`).count()).toBe(0);
      break;
    }
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('against the computer: a take-back after a private draw is refused with the reason (the button, and Ctrl+Z)', { timeout: 300_000 }, async () => {
    const ctx = await env.session.context({ width: 1280, height: 900 });
    const page = await ctx.newPage();
    await startVsComputer(page, env.server.url, 'Cy');
    const deadline = Date.now() + 240_000;
    for (;;) {
      expect(Date.now(), 'no decision drew privately').toBeLessThan(deadline);
      if (!(await myTurnOrOver(page, 60_000))) {
        await startVsComputer(page, env.server.url, 'Cy');
        continue;
      }
      if ((await why(page)) === 'hidden') break;
      const lines = await recordLines(page);
      await decide(page, '0');
      await expect.poll(() => recordLines(page)).toBeGreaterThan(lines);
    }
    const reason = 'A draw, a shuffle or something revealed came after your decision.';
    expect(await undo(page).getAttribute('title')).toBe(reason);
    const lines = await recordLines(page);
    // The keyboard's shortcut gives the reason, and so does a tap on the button; nothing changes.
    expect(await page.locator('[data-undo-note]').count()).toBe(0);
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.locator('[data-undo-note]').textContent()).toBe(reason);
    await undo(page).click({ force: true });
    await expect.poll(() => page.locator('[data-undo-note]').textContent()).toBe(reason);
    expect(await recordLines(page)).toBe(lines);
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('between two browsers: taken back with the opponent\'s consent; refused by the opponent; refused because the opponent has decided', { timeout: 240_000 }, async () => {
    const { matchID, editor, nixon, close } = await twoPlayers();
    await myTurn(editor);
    const lines = await recordLines(editor);
    const hand = await handCards(editor).count();
    await markerPlay(editor);
    await expect.poll(() => recordLines(nixon)).toBeGreaterThan(lines);

    // Asked: the Editor waits, Nixon is asked, accepts, and both boards are back where they were.
    await expect.poll(() => why(editor)).toBe('');
    await undo(editor).click();
    await editor.locator('[data-undo-waiting]').waitFor();
    expect(await editor.locator('[data-undo-waiting]').textContent()).toBe('Asked: waiting for your opponent to answer.');
    const request = nixon.locator('[data-undo-request]');
    await request.waitFor();
    expect(await request.textContent()).toContain('Your opponent (Editor) asks to take back their last decision.');
    await nixon.locator('[data-undo-accept]').click();
    await expect.poll(() => recordLines(editor)).toBe(lines);
    await expect.poll(() => recordLines(nixon)).toBe(lines);
    expect(await handCards(editor).count()).toBe(hand);
    await expect.poll(() => request.count()).toBe(0);
    await myTurn(editor);
    expect(await why(editor)).toBe('none');

    // Decided again, asked again: Nixon refuses, and the Editor may not ask again on that position.
    await markerPlay(editor);
    await expect.poll(() => why(editor)).toBe('');
    await undo(editor).click();
    await nixon.locator('[data-undo-refuse]').click();
    await editor.locator('[data-undo-refused]').waitFor();
    expect(await editor.locator('[data-undo-refused]').textContent()).toBe('Your opponent refused to let you take back this decision.');
    await expect.poll(() => why(editor)).toBe('refused');

    // Nixon decides: now the Editor's take-back is refused because the opponent has decided since.
    await myTurn(nixon);
    const n = await recordLines(nixon);
    await markerPlay(nixon);
    await expect.poll(() => recordLines(editor)).toBeGreaterThan(n);
    await expect.poll(() => why(editor)).toBe('opponent');
    expect(await editor.locator('[data-undo-refused]').count()).toBe(0);
    await undo(editor).click({ force: true });
    await expect.poll(() => editor.locator('[data-undo-note]').textContent()).toBe('Your opponent has decided since your last decision.');

    // The game over, its replay keeps the take-back as a step of its own and greys the decision it undid.
    await editor.locator('[data-resign]').click();
    await editor.locator('[data-resign-confirm]').click();
    await editor.locator('.gameover').waitFor();
    await editor.goto(`${env.server.url}/#/replay/${matchID}`);
    await editor.locator('.replay .game').waitFor();
    await editor.locator('[data-replay-next]').click();
    await editor.locator('[data-replay-caption][data-taken-back]').waitFor();
    expect(await editor.locator('.replay-caption').textContent()).toContain('(taken back)');
    await editor.locator('[data-replay-next]').click();
    await expect.poll(() => editor.locator('[data-replay-caption]').textContent()).toBe('Editor: took back a decision (the position of step 0 again)');
    expect(await editor.locator('[data-replay-caption][data-taken-back]').count()).toBe(0);
    await close();
    expect(env.session.problems).toEqual([]);
  });
});

