/**
 * Play at one's own pace, in Chromium against the real server: a match created with the live
 * clock shows both clocks on both boards, the one of the player to move counting down, and a decision
 * earns its increment; the lobby lists the clock and, under "Your matches", the time left. With "hand
 * over a seat away for 1 min", the opponent of a player whose page stayed closed for a minute hands the
 * seat to the computer, which then plays it, and the owner, back, takes the seat back.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { boardState, decide, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

/** Seconds shown by a clock "Editor: 9:58" → 598. */
async function seconds(page: Page, seat: '0' | '1'): Promise<number> {
  const text = (await page.locator(`[data-clock="${seat}"]`).textContent()) ?? '';
  const m = /(\d+):(\d\d)(?::(\d\d))?\s*$/.exec(text.replace(/\(.*\)/, '').trim());
  if (!m) throw new Error(`no time in "${text}"`);
  return m[3] !== undefined ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : Number(m[1]) * 60 + Number(m[2]);
}

describe('clocks and stand-ins', () => {
  it('live clock on both boards; an away seat handed to the computer, which plays it; the owner takes it back', { timeout: 240_000 }, async () => {
    const [editorCtx, nixonCtx, goneCtx] = [await env.session.context(), await env.session.context(), await env.session.context()];
    const [editor, nixon, away, gone] = [await editorCtx.newPage(), await nixonCtx.newPage(), await editorCtx.newPage(), await goneCtx.newPage()];
    // First a match with a 1-minute hand-over, the shortest a match may have (the form offers it from 5;
    // the API takes any whole number of minutes), whose Nixon leaves at once: its minute runs while the
    // live clock is checked on another match.
    await away.goto(`${env.server.url}/#/`);
    const created = await away.evaluate(async () => {
      const r = await fetch('/games/watergate/create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numPlayers: 2, setupData: { abandonMinutes: 1 } }) });
      return ((await r.json()) as { matchID: string }).matchID;
    });
    const join = async (page: Page, seat: '0' | '1', name: string) => {
      await page.evaluate(
        async ([id, s, n]) => {
          const r = await fetch(`/games/watergate/${id}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ playerID: s, playerName: n }) });
          const { playerCredentials } = (await r.json()) as { playerCredentials: string };
          const held = JSON.parse(localStorage.getItem('watergate.seats') ?? '{}') as Record<string, unknown>;
          held[id] = { matchID: id, playerID: s, credentials: playerCredentials, name: n };
          localStorage.setItem('watergate.seats', JSON.stringify(held));
        },
        [created, seat, name] as const,
      );
      await page.goto(`${env.server.url}/#/match/${created}`);
      await page.locator('.game').waitFor();
    };
    await join(away, '0', 'Ann');
    await gone.goto(`${env.server.url}/#/`);
    await join(gone, '1', 'Bob');
    // Nixon's page closes. The Editor is told he is away, and after a minute may hand the seat over.
    await gone.goto('about:blank');
    const notice = away.locator('[data-away="1"]');
    await expect.poll(() => notice.textContent(), { timeout: 10_000 }).toContain('Nixon has been away for 0 min');
    expect(await notice.textContent()).toContain('After 1 min away you may let the computer play for Nixon');

    await editor.goto(`${env.server.url}/#/`);
    await editor.getByLabel('Your name').fill('Ann');
    // Play a friend folds its clock, take-backs and rules under one summary.
    await editor.getByText('Clock, take-backs and rules').click();
    await editor.locator('[data-clock-preset]').selectOption('live');
    await editor.locator('[data-abandon]').selectOption('1440');
    await editor.locator('[data-create="0"]').click();
    await editor.waitForURL(/#\/match\//);
    const liveID = editor.url().split('/match/')[1];

    await nixon.goto(`${env.server.url}/#/`);
    const row = nixon.locator(`[data-match="${liveID}"]`);
    await expect.poll(() => row.locator('[data-clock]').textContent()).toMatch(/10 min \+ 10 (s|sec)/);
    await nixon.getByLabel('Your name').fill('Bob');
    await row.locator('[data-join="1"]').click();
    await Promise.all([editor, nixon].map((p) => p.locator('.game').waitFor()));

    // Both boards show both clocks; the Editor's runs (his decision), Nixon's stands at 10:00.
    for (const p of [editor, nixon]) {
      await p.locator('[data-clock="0"][data-running]').waitFor();
      await expect.poll(() => seconds(p, '1')).toBe(600);
    }
    const first = await seconds(editor, '0');
    await expect.poll(() => seconds(editor, '0'), { timeout: 5_000 }).toBeLessThan(first);
    await expect.poll(() => seconds(nixon, '0'), { timeout: 5_000 }).toBeLessThan(600);
    // A decision earns 10 s: the Editor's clock goes up, and the next decider's runs.
    const before = await boardState(editor);
    const spent = await seconds(editor, '0');
    await decide(editor, '0');
    await waitForChange(nixon, before);
    await expect.poll(() => seconds(nixon, '0')).toBeGreaterThan(spent);
    expect(await seconds(nixon, '0')).toBeLessThanOrEqual(610);
    // "Your matches" in the lobby says how much time is left on the player's clock.
    await editor.goto(`${env.server.url}/#/`);
    await expect.poll(() => editor.locator(`[data-my-match="${liveID}"] [data-time-left]`).textContent()).toMatch(/(9|10) min .* left on your clock/);

    // The minute is up: the Editor may hand the seat over.
    await away.locator('[data-hand-over]').click({ timeout: 80_000 });
    await away.locator('[data-stand-in="1"]').waitFor();
    expect(await away.locator('[data-stand-in="1"]').textContent()).toContain('The computer plays for Nixon (the player was away)');
    // The Editor plays on; whenever a decision is Nixon's, the computer takes it and the game comes back.
    let sawNixon = false;
    for (let i = 0; i < 200 && !(sawNixon && (await boardState(away)).mine); i++) {
      const st = await boardState(away);
      if (st.player === '1') sawNixon = true;
      if (st.mine) {
        await decide(away, '0');
        await waitForChange(away, st, 60_000);
      } else await away.waitForTimeout(100);
    }
    expect(sawNixon).toBe(true);
    expect((await boardState(away)).mine).toBe(true);

    // Nixon comes back: the computer plays for him until he takes his seat back.
    await gone.goto(`${env.server.url}/#/match/${created}`);
    await gone.locator('[data-take-back]').click();
    await gone.locator('[data-stand-in="1"]').waitFor({ state: 'detached' });
    await away.locator('[data-stand-in="1"]').waitFor({ state: 'detached' });
    await Promise.all([editorCtx.close(), nixonCtx.close(), goneCtx.close()]);
    expect(env.session.problems).toEqual([]);
  });
});
