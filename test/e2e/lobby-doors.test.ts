/**
 * The lobby's three doors in real Chromium against the real server: Play now joins a person already
 * waiting in the open list on the same terms (instead of queueing and offering the computer), play a
 * friend keeps its options folded, and a returning player finds "Your matches" above the doors.
 */
import { describe, expect, it } from 'vitest';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

describe('the lobby', () => {
  it('offers three doors; Play now joins a waiting person’s open match; "Your matches" comes first once you hold a seat', { timeout: 120_000 }, async () => {
    const hostCtx = await env.session.context();
    const host = await hostCtx.newPage();
    await host.goto(`${env.server.url}/#/`);
    const doors = host.locator('[data-lobby-doors] [data-door]');
    await doors.first().waitFor(); // the lobby is drawn after its words load
    expect(await doors.evaluateAll((els) => els.map((e) => e.getAttribute('data-door')))).toEqual(['now', 'friend', 'computer']);
    expect(await host.getByRole('group', { name: 'Play a friend' }).count()).toBe(1);
    expect(await host.getByRole('group', { name: 'Play vs computer' }).count()).toBe(1);
    // A friend's match: its clock, take-backs and rules folded until asked for.
    expect(await host.locator('[data-clock-preset]').isVisible()).toBe(false);
    await host.getByText('Clock, take-backs and rules').click();
    expect(await host.locator('[data-clock-preset]').isVisible()).toBe(true);
    // No "Your matches" before a seat is held.
    expect(await host.getByRole('heading', { name: 'Your matches' }).count()).toBe(0);

    await host.getByLabel('Your name').fill('Hanna');
    await host.locator('[data-create="0"]').click();
    await host.waitForURL(/#\/match\//);
    const matchID = host.url().split('/match/')[1];

    // Someone else asks to play now: the list holds Hanna waiting as the Editor, untimed, unrated.
    const quickCtx = await env.session.context();
    const quick = await quickCtx.newPage();
    await quick.goto(`${env.server.url}/#/`);
    await quick.locator(`[data-match="${matchID}"]`).waitFor({ timeout: 30_000 });
    await quick.getByLabel('Your name').fill('Quinn');
    await quick.getByRole('group', { name: 'Play now' }).getByRole('button', { name: 'Play now' }).click();
    await quick.waitForURL(new RegExp(`#/match/${matchID}$`), { timeout: 30_000 });
    expect(await quick.locator('[data-pairing]').count()).toBe(0);
    await expect.poll(() => host.locator('.player-chip[data-seat="1"]').textContent(), { timeout: 30_000 }).toContain('Quinn');

    // Back in the lobby, Hanna, now a returning player, finds her matches above the doors.
    await host.goto(`${env.server.url}/#/`);
    const mine = host.getByRole('heading', { name: 'Your matches' });
    await mine.waitFor();
    const [mineTop, doorsTop] = await Promise.all([mine.boundingBox(), host.locator('[data-lobby-doors]').boundingBox()]);
    expect(mineTop!.y).toBeLessThan(doorsTop!.y);
    await hostCtx.close();
    await quickCtx.close();
    expect(env.session.problems).toEqual([]);
  });
});
