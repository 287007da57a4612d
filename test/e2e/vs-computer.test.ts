/**
 * "Play vs computer" from the lobby, in real Chromium against the real server: the player picks the
 * Editor and level easy, the server seats its bot as Nixon (marked `data.bot` in the match metadata), the page joins the Editor's
 * seat and the board opens. The player plays through a whole round; the computer's decisions arrive over
 * the socket as Nixon's lines in the game record, and a reload rejoins the same seat.
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
});
