/**
 * "Play vs computer" from the lobby, in real Chromium against the real server: the player picks the
 * Editor and level easy, the server seats its bot as Nixon (marked `data.bot` in the match metadata), the page joins the Editor's
 * seat and the board opens. The player plays through a whole round; the computer's decisions arrive over
 * the socket as Nixon's lines in the game record, and a reload rejoins the same seat. The computer's
 * decisions are shown one at a time, each held on screen at the chosen pace, its move marked.
 */
import { describe, expect, it } from 'vitest';
import { boardState, decide, startVsComputer, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

describe('play vs computer from the lobby', () => {
  it('creates a match against the computer as the Editor and the computer answers through a whole round', { timeout: 240_000 }, async () => {
    const ctx = await env.session.context({ width: 1280, height: 900 });
    const page = await ctx.newPage();
    const matchID = await startVsComputer(page, env.server.url, 'Ben');

    // The seat this browser holds is stored like any joined seat; the bot sits as Nixon under its name.
    const seats = JSON.parse((await page.evaluate(() => localStorage.getItem('watergate.seats'))) ?? '{}');
    expect(seats[matchID]).toMatchObject({ matchID, playerID: '0', name: 'Ben' });
    expect(await page.locator('.status .me').textContent()).toBe('You are the Editor');
    const botChip = page.locator('.player-chip[data-seat="1"]');
    await expect.poll(() => botChip.textContent()).toContain('Nixon (Computer, Easy)');
    await expect.poll(() => botChip.textContent()).toContain('connected');
    // The match is private: it is not offered to others in the open-match list.
    const open = (await (await fetch(`${env.server.url}/games/watergate`)).json()) as { matches: { matchID: string }[] };
    expect(open.matches.map((m) => m.matchID)).not.toContain(matchID);

    // Play the Editor's decisions; everything else is the computer's, until round 2 begins (or the game ends).
    const deadline = Date.now() + 180_000;
    let mine = 0;
    for (;;) {
      const s = await boardState(page);
      if (s.round >= 2 || (await page.locator('.gameover').count()) > 0) break;
      expect(Date.now(), `stuck at ${JSON.stringify(s)}`).toBeLessThan(deadline);
      if (!s.mine) {
        await page.waitForTimeout(100);
        continue;
      }
      await decide(page, '0');
      mine++;
      await waitForChange(page, s).catch(async (e: Error) => {
        // Say where it stalled: the prompt shown and the last lines of the record.
        const lines = await page.locator('.record-lines li').allTextContents();
        throw new Error(`${e.message}; prompt: ${await page.locator('.prompt').textContent()}; record: ${lines.slice(-4).join(' / ')}; ${env.session.problems.join(' ')}`);
      });
    }
    const record = page.locator('.record-lines');
    expect(mine).toBeGreaterThan(2);
    expect(await record.locator('li.role-1').count()).toBeGreaterThan(2); // Nixon's (the computer's) decisions
    if ((await page.locator('.gameover').count()) === 0) expect(await record.textContent()).toContain('Round 2 begins.');

    // A reload rejoins the Editor's seat with the hand, the computer still seated.
    const before = await record.locator('li').count();
    await page.reload();
    await page.locator('.game').waitFor();
    expect(await page.locator('.status .me').textContent()).toBe('You are the Editor');
    await expect.poll(() => record.locator('li').count()).toBeGreaterThanOrEqual(before);
    expect(await page.locator('.hand-cards .card').count()).toBeGreaterThan(0);
    await expect.poll(() => botChip.textContent()).toContain('Computer, Easy');

    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('shows the computer\'s decisions one at a time, each held on screen at the chosen pace with the move marked', { timeout: 240_000 }, async () => {
    const ctx = await env.session.context({ width: 1280, height: 900 });
    const page = await ctx.newPage();
    await startVsComputer(page, env.server.url, 'Ben');
    const pace = page.locator('[data-pace]');
    expect(await pace.inputValue()).toBe('normal');
    expect(await pace.locator('option').allTextContents()).toEqual(['at once', 'one at a time', 'slowly']);
    // Every change of the record: when, whose decision it answered (the prompt shown before it), and
    // whether the last move was marked then.
    await page.evaluate(() => {
      const w = window as unknown as { batches: { at: number; by: string | null; marked: boolean; line: string }[] };
      w.batches = [];
      const prompt = () => document.querySelector('.prompt')?.getAttribute('data-player') ?? null;
      let by = prompt();
      new MutationObserver(() => {
        // Marked: the last-move panel tells the computer's newest line (bookkeeping such as its draw aside).
        const lines = [...document.querySelectorAll('.record-lines li')];
        const newest = lines.at(-1);
        const choice = newest?.classList.contains('role-1') && !/rec-(draw-cards|draw-tokens|reshuffle|assess-initiative)\b/.test(newest.className);
        const told = [...document.querySelectorAll('.last-move li')].some((li) => li.textContent === newest?.textContent);
        w.batches.push({ at: performance.now(), by, marked: !choice || told, line: newest?.textContent ?? '' });
        by = prompt();
      }).observe(document.querySelector('.record-lines')!, { childList: true });
    });
    const computerBatches = () => page.evaluate(() => (window as unknown as { batches: { by: string | null }[] }).batches.filter((b) => b.by === '1').length);
    for (let i = 0; i < 40 && (await computerBatches()) < 6; i++) {
      await expect.poll(async () => (await boardState(page)).mine, { timeout: 60_000 }).toBe(true);
      const s = await boardState(page);
      await decide(page, '0');
      await waitForChange(page, s);
    }
    const batches = await page.evaluate(() => (window as unknown as { batches: { at: number; by: string | null; marked: boolean; line: string }[] }).batches);
    const computer = batches.map((b, i) => ({ ...b, gap: i === 0 ? Infinity : b.at - batches[i - 1].at })).filter((b) => b.by === '1');
    expect(computer.length).toBeGreaterThanOrEqual(6);
    // Each decision of the computer stays on screen about 900 ms before the next change (a little early is the timer's leeway).
    expect(computer.map((b) => Math.round(b.gap)).filter((g) => g < 850)).toEqual([]);
    expect(computer.filter((b) => !b.marked)).toEqual([]);
    // The setting is the player's: remembered in this browser.
    await pace.selectOption('instant');
    await page.reload();
    await page.locator('.game').waitFor();
    expect(await page.locator('[data-pace]').inputValue()).toBe('instant');
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });
});
