/**
 * Online play as people rely on it, in real Chromium against the real server: the server going away and
 * coming back (the boards say so within 2 s, offer no choice they would drop, say the move waits and do
 * not claim the opponent is there; play resumes after a restart), the opponent's presence, the tab title
 * that says whose move it is, and a new chat line marked where the chat is out of sight.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { boardState, decide, twoPlayers as twoBrowsers, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

/** Two browsers: one creates a match as the Editor, the other joins it as Nixon from the lobby list. */
const twoPlayers = () => twoBrowsers(env.session, env.server.url);

const moverOf = async (a: Page, b: Page) => ((await boardState(a)).mine ? [a, b] : [b, a]);

describe('online play', () => {
  it('the tab title says whose move it is; the opponent shows as away when their page closes and back when it returns', { timeout: 120_000 }, async () => {
    const { matchID, editor, nixon, close } = await twoPlayers();
    await expect.poll(() => editor.title()).toBe('● Your move — Watergate');
    expect(await nixon.title()).toBe('Watergate');
    const before = await boardState(editor);
    await decide(editor, '0');
    await waitForChange(nixon, before);
    const [mover, other] = await moverOf(editor, nixon);
    await expect.poll(() => mover.title()).toBe('● Your move — Watergate');
    await expect.poll(() => other.title()).toBe('Watergate');

    // Nixon's page goes away: within 5 s the Editor's board says he is not connected; back when he returns.
    const chip = editor.locator('.player-chip[data-seat="1"]');
    await expect.poll(() => chip.textContent()).toContain('· connected');
    const t0 = Date.now();
    await nixon.goto('about:blank');
    await expect.poll(() => chip.textContent(), { timeout: 5_000 }).toContain('not connected');
    expect(Date.now() - t0).toBeLessThan(5_000);
    await nixon.goto(`${env.server.url}/#/match/${matchID}`);
    await expect.poll(() => chip.textContent(), { timeout: 5_000 }).toContain('· connected');
    await close();
  });

  it('losing the server shows "Reconnecting…" on both boards within 2 s, nothing can be played, and play resumes after a restart', { timeout: 180_000 }, async () => {
    const { editor, nixon, close } = await twoPlayers();
    const before = await boardState(editor);
    await decide(editor, '0');
    await waitForChange(nixon, before);
    const [mover, other] = await moverOf(editor, nixon);
    const record = await mover.locator('.record-lines li').count();
    // A card chosen just before the server goes: its options go with it.
    if ((await boardState(mover)).prompt === 'play') {
      await mover.locator('.hand-cards button.card').first().click();
      expect(await mover.locator('.prompt button[data-move]').count()).toBeGreaterThan(0);
    }
    await Promise.all([mover, other].map((p) => expect.poll(() => p.locator('.player-chip:not(:has(.me)) .conn').last().textContent()).toBe(' · connected')));

    await env.server.crash();
    const t0 = Date.now();
    await Promise.all([mover, other].map((p) => p.locator('[data-offline]').waitFor({ timeout: 2_000 })));
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(await mover.locator('[data-offline]').textContent()).toContain('Reconnecting');
    // Offline, the board offers no choice it would drop: no option, no card to pick, no target; it says the move waits.
    expect(await mover.locator('.prompt button[data-move], [role="button"][data-space], .track [role="button"], .hand-cards button').count()).toBe(0);
    expect(await mover.locator('[data-offline-wait]').textContent()).toBe('You are offline: nothing can be chosen until the connection is back. Your move waits; no choice is lost.');
    await mover.locator('.hand-cards .card').first().click({ force: true });
    expect(await mover.locator('.prompt button[data-move]').count()).toBe(0);
    // Neither board claims to know whether the other player is there.
    for (const page of [mover, other]) {
      const chips = await page.locator('.player-chip .conn').allTextContents();
      expect(chips).toEqual([' · connection unknown while you are offline']);
    }

    await env.server.restart();
    await Promise.all([mover, other].map((p) => p.locator('[data-offline]').waitFor({ state: 'detached', timeout: 20_000 })));
    // The game goes on where it was: the player to move moves, the other sees it.
    expect(await mover.locator('.record-lines li').count()).toBe(record);
    const s = await boardState(other);
    await decide(mover, (await mover.locator('.status .me').textContent())!.includes('Editor') ? '0' : '1');
    await waitForChange(other, s);
    await close();
    // The pages saw the server vanish (failed requests while it was down); nothing else went wrong.
    expect(env.session.problems.filter((p) => !/ERR_CONNECTION_REFUSED|socket\.io|websocket/i.test(p))).toEqual([]);
  });

  it('on a phone, where the chat is out of sight, a new line shows in the dock with a mark until the chat is seen', { timeout: 120_000 }, async () => {
    const { matchID, editor, nixon, close } = await twoPlayers();
    // Nixon's player goes on with the same seat on a phone (this browser's stored seats, as a copy).
    const stored = await nixon.evaluate(() => JSON.stringify({ ...localStorage }));
    await nixon.goto('about:blank');
    const phoneCtx = await env.session.context({ width: 390, height: 844 });
    await phoneCtx.addInitScript((items) => {
      if (location.protocol !== 'http:') return;
      for (const [k, v] of Object.entries(JSON.parse(items) as Record<string, string>)) localStorage.setItem(k, v);
    }, stored);
    const phone = await phoneCtx.newPage();
    await phone.goto(`${env.server.url}/#/match/${matchID}`);
    await phone.locator('.dock').waitFor();
    expect(await phone.locator('[data-chat-unread]').count()).toBe(0);
    await editor.getByLabel('Say something to the table').fill('Your move, Mr President');
    await editor.locator('.chat-say button[type="submit"]').click();
    // The Editor's own page (a wide screen, the chat in sight) marks nothing.
    await phone.waitForTimeout(500);
    expect(await editor.locator('[data-chat-unread]').count()).toBe(0);
    const mark = phone.locator('.dock [data-chat-unread]');
    await mark.waitFor();
    expect(await mark.textContent()).toBe('1 new chat message Editor (Ann): Your move, Mr President');
    const box = (await mark.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await mark.click();
    await expect.poll(() => phone.locator('[data-chat-unread]').count()).toBe(0);
    expect(await phone.locator('.chat-lines li').last().isVisible()).toBe(true);
    await phoneCtx.close();
    await close();
    expect(env.session.problems).toEqual([]);
  });

  it('chat is kept with the match: text only, heard by both, there after a reload and after a server restart', { timeout: 180_000 }, async () => {
    const { editor, nixon, close } = await twoPlayers();
    const say = async (page: Page, text: string) => {
      await page.getByLabel('Say something to the table').fill(text);
      await page.locator('.chat-say button[type="submit"]').click();
    };
    await say(editor, 'Hello <b>Nixon</b>');
    const line = nixon.locator('.chat-lines li').first();
    await expect.poll(() => line.textContent()).toBe('Editor (Ann): Hello <b>Nixon</b>');
    expect(await nixon.locator('.chat-lines b').count()).toBe(0); // shown as text, never as HTML
    await say(nixon, 'No comment.');
    await expect.poll(() => editor.locator('.chat-lines li').allTextContents()).toEqual(['Editor (Ann): Hello <b>Nixon</b>', 'Nixon (Bob): No comment.']);

    await nixon.reload();
    await expect.poll(() => nixon.locator('.chat-lines li').count()).toBe(2);
    await env.server.crash();
    await env.server.restart();
    await editor.reload();
    await expect.poll(() => editor.locator('.chat-lines li').allTextContents(), { timeout: 20_000 }).toEqual(['Editor (Ann): Hello <b>Nixon</b>', 'Nixon (Bob): No comment.']);
    await close();
  });

  it('an invite link: a private match stays out of the list, its link offers the free seat, and once both seats are taken it only shows the game', { timeout: 120_000 }, async () => {
    const hostCtx = await env.session.context();
    await hostCtx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    const host = await hostCtx.newPage();
    await host.goto(`${env.server.url}/#/`);
    await host.getByLabel('Your name').fill('Ann');
    await host.locator('[data-private]').check();
    await host.locator('[data-create="0"]').click();
    await host.waitForURL(/#\/match\//);
    const matchID = host.url().split('/match/')[1];
    await host.locator('[data-invite]').click();
    await host.getByText('Link copied').waitFor();
    const link = await host.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${env.server.url}/#/match/${matchID}`);

    const guestCtx = await env.session.context();
    const guest = await guestCtx.newPage();
    await guest.goto(`${env.server.url}/#/`);
    await guest.locator('[data-open-matches]').waitFor(); // the list has loaded
    expect(await guest.locator(`[data-match="${matchID}"]`).count()).toBe(0); // private: not listed
    await guest.goto(link);
    await expect.poll(() => guest.locator('[data-join-offer] h2').textContent()).toBe('Ann invites you to this match.');
    expect(await guest.locator('[data-take-seat="0"]').count()).toBe(0); // the host's seat is not offered
    await guest.getByLabel('Your name').fill('Bob');
    await guest.locator('[data-take-seat="1"]').click();
    await expect.poll(() => guest.locator('.match-bar .role-chip').textContent()).toBe('Nixon'); // the guest plays the seat taken
    await expect.poll(() => guest.locator('.status .me').textContent()).toBe('You are Nixon');
    expect(await guest.locator('[data-join-offer]').count()).toBe(0);
    await expect.poll(() => host.locator('.player-chip[data-seat="1"]').textContent()).toContain('Bob');

    // A third visitor with the same link finds no free seat: straight to watching.
    const watcherCtx = await env.session.context();
    const watcher = await watcherCtx.newPage();
    await watcher.goto(link);
    await watcher.locator('.game').waitFor();
    await expect.poll(() => watcher.locator('.status .me').textContent()).toBe('You are watching this match.');
    await watcher.waitForTimeout(500); // the seats have arrived with the state: no offer comes
    expect(await watcher.locator('[data-join-offer]').count()).toBe(0);
    await Promise.all([hostCtx.close(), guestCtx.close(), watcherCtx.close()]);
  });

  it('the "your move" chime is off by default; turned on, it sounds when a decision becomes yours, and the choice is remembered', { timeout: 120_000 }, async () => {
    // Count the chime's oscillators (Web Audio has no other trace in a headless browser).
    const counted = async () => {
      const ctx = await env.session.context();
      await ctx.addInitScript(() => {
        const w = window as unknown as { chimes: number };
        w.chimes = 0;
        const make = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function (this: AudioContext) {
          w.chimes++;
          return make.call(this);
        };
      });
      return ctx;
    };
    const chimes = (p: Page) => p.evaluate(() => (window as unknown as { chimes: number }).chimes);
    const [aCtx, bCtx] = [await counted(), await counted()];
    const [a, b] = [await aCtx.newPage(), await bCtx.newPage()];
    await a.goto(`${env.server.url}/#/`);
    await a.getByLabel('Your name').fill('Ann');
    await a.locator('[data-create="0"]').click();
    await a.waitForURL(/#\/match\//);
    const matchID = a.url().split('/match/')[1];
    expect(await a.locator('[data-sound]').isChecked()).toBe(false);
    await a.locator('[data-sound]').check();
    await b.goto(`${env.server.url}/#/match/${matchID}`);
    await b.getByLabel('Your name').fill('Bob');
    await b.locator('[data-take-seat="1"]').click();
    // Nixon's arrival makes the Editor's first decision owed: her page chimes (two notes), his does not.
    await expect.poll(() => chimes(a)).toBe(2);
    let before = await boardState(a);
    for (let i = 0; i < 40 && !(await boardState(b)).mine; i++) {
      if ((await boardState(a)).mine) await decide(a, '0');
      await waitForChange(b, before).catch(() => undefined);
      before = await boardState(a);
    }
    expect((await boardState(b)).mine).toBe(true);
    expect(await chimes(b)).toBe(0);
    await a.reload();
    expect(await a.locator('[data-sound]').isChecked()).toBe(true);
    await Promise.all([aCtx.close(), bCtx.close()]);
  });

  it('a seat left from elsewhere: the page that held it says so and watches, with no hand and nothing to play', { timeout: 120_000 }, async () => {
    const { matchID, nixon, close } = await twoPlayers();
    await nixon.locator('.hand-cards [data-card]').first().waitFor();
    // The player leaves from another tab or device, with the credentials this browser keeps.
    const held = await nixon.evaluate((id) => JSON.parse(localStorage.getItem('watergate.seats') ?? '{}')[id], matchID);
    const left = await fetch(`${env.server.url}/games/watergate/${matchID}/leave`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ playerID: '1', credentials: held.credentials }) });
    expect(left.status).toBe(200);
    await nixon.locator('[data-seat-lost]').waitFor({ timeout: 10_000 });
    expect(await nixon.locator('[data-seat-lost]').textContent()).toContain('you are watching now');
    // The page forgot the seat and follows as a spectator: no hand, no prompt of its own.
    expect(await nixon.evaluate((id) => JSON.parse(localStorage.getItem('watergate.seats') ?? '{}')[id] ?? null, matchID)).toBeNull();
    await expect.poll(() => nixon.locator('section.hand, .hand-cards [data-card]').count()).toBe(0);
    expect((await boardState(nixon)).mine).toBe(false);
    await close();
  });
});
