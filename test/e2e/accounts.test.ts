/**
 * Accounts in real Chromium against the real server: Ann signs up on a desktop and creates a match, Bob
 * (another account, another browser) sees it in the lobby with Ann's rating and joins; Ann signs in on a
 * phone (390 px) that never held her seat and makes the next move there; they play on until each made
 * three decisions, Bob resigns, and both side ratings move once, as the game-over dialog and the profile
 * (with its chart) show, provisional, so not yet on the leaderboard. "Play now" pairs two players from two
 * browsers (two addresses) into one match. A passkey added on
 * the account page signs its owner in again through Chromium's virtual authenticator.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { boardState, decide, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

// Behind a trusted proxy, so that each browser of "Play now" can come from an address of its own (two
// accounts from one address are never paired: docs/RATINGS.md).
const env = useServerAndBrowser(undefined, { TRUST_PROXY: '1' });
const PASSWORD = 'all the presidents men';

async function signUp(page: Page, base: string, username: string): Promise<void> {
  await page.goto(`${base}/#/account`);
  const form = page.getByRole('form', { name: 'Create an account' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('New password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Create account' }).click();
  await page.getByText(`Signed in as ${username}`).waitFor();
}

async function signIn(page: Page, base: string, username: string): Promise<void> {
  await page.goto(`${base}/#/account`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByText(`Signed in as ${username}`).waitFor();
}

/** One decision on a page whose prompt is its own; on a phone the hand's drawer is opened first. */
async function decideOn(page: Page, role: '0' | '1'): Promise<void> {
  const toggle = page.locator('.hand-toggle');
  if ((await boardState(page)).prompt === 'play' && (await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await decide(page, role);
}

const rating = async (base: string, name: string) => (await (await fetch(`${base}/players/${name}`)).json()) as { ratings: Record<'editor' | 'nixon', { rating: number; games: number }> };

describe('accounts in the browser', () => {
  it('three devices, two accounts: the next move from a phone, a resignation, side ratings moved once in profile and leaderboard', { timeout: 300_000 }, async () => {
    const base = env.server.url;
    const contexts: BrowserContext[] = [];
    const open = async (viewport?: { width: number; height: number }) => {
      const ctx = await env.session.context(viewport);
      contexts.push(ctx);
      return ctx.newPage();
    };
    const desk = await open();
    await signUp(desk, base, 'AnnW');
    await desk.goto(`${base}/#/`);
    await expect.poll(() => desk.locator('#player-name').inputValue()).toBe('AnnW');
    await desk.locator('[data-create="0"]').click();
    await desk.waitForURL(/#\/match\//);
    const matchID = desk.url().split('/match/')[1];

    const bob = await open();
    await signUp(bob, base, 'BobB');
    await bob.goto(`${base}/#/`);
    const row = bob.locator(`[data-match="${matchID}"]`);
    await expect.poll(() => row.locator('.who').textContent()).toContain('AnnW · 1500 (Editor) waits for Nixon');
    expect(await row.locator('[data-rated]').textContent()).toBe('rated');
    await row.locator('[data-join="1"]').click();
    await bob.waitForURL(new RegExp(`#/match/${matchID}$`));
    await expect.poll(() => bob.locator('.player-chip[data-seat="0"]').textContent()).toContain('AnnW · 1500');

    // A phone that never held Ann's seat: signed in, her match is in "Your matches" and opens as her seat.
    const phone = await open({ width: 390, height: 844 });
    await signIn(phone, base, 'AnnW');
    await phone.goto(`${base}/#/`);
    const mine = phone.locator(`[data-my-match="${matchID}"]`);
    await expect.poll(() => mine.getAttribute('data-state'), { timeout: 15_000 }).toBe('yours');
    await mine.getByRole('link', { name: 'Back to my match' }).click();
    await phone.locator('.game').waitFor();
    await expect.poll(() => phone.locator('.status .me').textContent()).toBe('You are the Editor');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const before = await boardState(bob);
    await decideOn(phone, '0');
    await waitForChange(bob, before);

    // Play on until each side made 3 decisions (the phone for Ann, Bob's own page for him), then Bob resigns.
    const made = { '0': 1, '1': 0 };
    for (let n = 0; n < 200 && (made['0'] < 3 || made['1'] < 3); n++) {
      const [a, b] = [await boardState(phone), await boardState(bob)];
      const [page, role, other, seen] = a.mine ? ([phone, '0', bob, b] as const) : b.mine ? ([bob, '1', phone, a] as const) : [null, null, null, null];
      if (!page) {
        await phone.waitForTimeout(100);
        continue;
      }
      await decideOn(page, role);
      await waitForChange(other, seen);
      made[role]++;
    }
    expect(made['1']).toBeGreaterThanOrEqual(3);
    await bob.locator('[data-resign]').click();
    await bob.locator('[data-resign-confirm]').click();
    await Promise.all([phone, bob, desk].map((p) => p.locator('.gameover').waitFor()));
    // The game-over dialog shows each side's change, "?" after a rating still provisional.
    await bob.locator('.gameover [data-rated-result="rated"]').waitFor();
    const change = await bob.locator('.gameover [data-rated-result]').textContent();
    expect(change).toMatch(/Editor \(AnnW\) 1500 → \d+\?, \+\d+/);
    expect(change).toMatch(/Nixon \(BobB\) 1500 → \d+\?, −\d+/);

    const ann = await rating(base, 'AnnW');
    const bb = await rating(base, 'BobB');
    expect([ann.ratings.editor.games, bb.ratings.nixon.games, ann.ratings.nixon.games, bb.ratings.editor.games]).toEqual([1, 1, 0, 0]);
    expect(ann.ratings.editor.rating).toBeGreaterThan(1500);
    expect(bb.ratings.nixon.rating).toBeLessThan(1500);

    // The profile shows the moved ratings with their chart, provisional ("?"); the leaderboard lists
    // established ratings only, so neither yet.
    await desk.goto(`${base}/#/player/AnnW`);
    const editorLine = desk.locator('[data-side-rating="editor"]');
    await expect.poll(() => editorLine.textContent()).toContain(`Editor ${Math.round(ann.ratings.editor.rating)}?`);
    expect(await editorLine.textContent()).toContain('1 rated game');
    await desk.locator('[data-rating-chart] canvas').waitFor();
    await desk.locator(`[data-finished="${matchID}"]`).getByRole('link', { name: 'Replay' }).waitFor();
    await desk.getByRole('link', { name: 'Leaderboard' }).click();
    await desk.locator('[data-board="editor"]').getByText('Nobody here yet.').waitFor();
    expect(await desk.locator('[data-board="nixon"] [data-player="BobB"]').count()).toBe(0);
    await desk.getByText(/Only established ratings/).waitFor();

    for (const c of contexts) await c.close();
    expect(env.session.problems).toEqual([]);
  });

  it('"Play now" from two browsers pairs them into one match', { timeout: 120_000 }, async () => {
    const base = env.server.url;
    const ctxs = [await env.session.context(), await env.session.context({ width: 390, height: 844 })];
    await ctxs[0].setExtraHTTPHeaders({ 'x-forwarded-for': '198.51.100.1' });
    await ctxs[1].setExtraHTTPHeaders({ 'x-forwarded-for': '198.51.100.2' });
    const [p1, p2] = await Promise.all(ctxs.map((c) => c.newPage()));
    await signUp(p1, base, 'QuickOne');
    await signUp(p2, base, 'QuickTwo');
    for (const p of [p1, p2]) await p.goto(`${base}/#/`);
    await p1.getByRole('button', { name: 'Play now' }).click();
    await p1.locator('[data-pairing]').waitFor();
    await p2.getByRole('button', { name: 'Play now' }).click();
    await Promise.all([p1, p2].map((p) => p.waitForURL(/#\/match\//, { timeout: 20_000 })));
    expect(p1.url().split('/match/')[1]).toBe(p2.url().split('/match/')[1]);
    await Promise.all([p1, p2].map((p) => p.locator('.game').waitFor()));
    const roles = await Promise.all([p1, p2].map((p) => p.locator('.status .me').textContent()));
    expect(roles.sort()).toEqual(['You are Nixon', 'You are the Editor']);
    for (const c of ctxs) await c.close();
    expect(env.session.problems).toEqual([]);
  });

  it('a guest waiting with nobody is offered the computer at the level nearest a newcomer\'s rating, and plays it', { timeout: 120_000 }, async () => {
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    await page.goto(`${env.server.url}/#/`);
    await page.getByLabel('Your name').fill('Lonely');
    const group = page.getByRole('group', { name: 'Play now' });
    expect(await group.getByLabel('Rated').isDisabled()).toBe(true);
    await group.getByLabel('Offer the computer after').selectOption({ label: '15 seconds' });
    await group.getByRole('button', { name: 'Play now' }).click();
    await group.getByText(/Looking for an opponent/).waitFor();
    await group.getByRole('button', { name: 'Play the computer (Normal) instead' }).click({ timeout: 30_000 });
    await page.waitForURL(/#\/match\//);
    await expect.poll(() => page.locator('.player-chip[data-seat="1"]').textContent()).toContain('Computer, Normal');
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('seats this browser held as a guest are offered to the account at sign-up and then listed for it', { timeout: 120_000 }, async () => {
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    await page.goto(`${env.server.url}/#/`);
    await page.getByLabel('Your name').fill('Guesty');
    await page.locator('[data-create="1"]').click();
    await page.waitForURL(/#\/match\//);
    const matchID = page.url().split('/match/')[1];
    await signUp(page, env.server.url, 'Claimer');
    await page.getByRole('button', { name: 'Add it to my account' }).click();
    await expect.poll(() => page.locator('[data-account-note]').textContent()).toContain('now your account’s');
    const mine = await page.evaluate(async () => (await (await fetch('/me/matches')).json()) as { matches: { matchID: string; playerID: string }[] });
    expect(mine.matches).toEqual([expect.objectContaining({ matchID, playerID: '1' })]);
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('a passkey added on the account page signs its owner in through the virtual authenticator, and is listed and removed there', { timeout: 120_000 }, async () => {
    // WebAuthn needs a domain as the relying party: the server's own origin under the name localhost.
    const base = env.server.url.replace('127.0.0.1', 'localhost');
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true } });
    await signUp(page, base, 'Keyholder');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.locator('[data-passkey-note]').textContent()).toBe('Passkey added: you can sign in with it.');
    await expect.poll(() => page.getByText('1 passkey').count()).toBe(1);
    await page.locator('[data-sign-out]').click();
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    expect(await page.locator('[data-account-link]').textContent()).toBe('Sign in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('Signed in as Keyholder').waitFor();
    expect(await page.locator('[data-account-link]').textContent()).toBe('Keyholder');
    // The account page lists it with when it was added and last used, and removes it.
    const listed = page.locator('[data-passkey="Passkey 1"]');
    await expect.poll(() => listed.textContent()).toMatch(/added .*last used /);
    await page.getByRole('button', { name: 'Remove the passkey “Passkey 1”' }).click();
    await expect.poll(() => page.locator('[data-account-note]').textContent()).toBe('Passkey removed: it no longer signs in.');
    await expect.poll(() => page.getByText('0 passkeys').count()).toBe(1);
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('at 127.0.0.1 the account page hides the passkey buttons and says to open localhost; a refused passkey names the browser, next to its button', { timeout: 120_000 }, async () => {
    const ctx = await env.session.context();
    const page = await ctx.newPage();
    await page.goto(`${env.server.url}/#/account`);
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    const why = page.locator('[data-sign-in] [data-passkey-unavailable]');
    const local = env.server.url.replace('127.0.0.1', 'localhost');
    await expect.poll(() => why.textContent()).toBe(`Passkeys cannot work at an IP address such as 127.0.0.1: browsers keep them for a site’s name. Open ${local}/#/account to use them.`);
    expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
    await signUp(page, env.server.url, 'Ipholder');
    expect(await page.locator('[data-passkey-form]').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add a passkey' }).count()).toBe(0);
    await expect.poll(() => page.locator('[data-passkey-unavailable]').count()).toBe(1);
    await ctx.close();

    // At localhost, with an authenticator that never answers yes: the refusal sits under the button and is the browser's.
    const ctx2 = await env.session.context();
    const page2 = await ctx2.newPage();
    const cdp = await ctx2.newCDPSession(page2);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', { options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true } });
    await page2.goto(`${local}/#/account`);
    await page2.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => page2.locator('[data-sign-in] [data-passkey-error]').textContent(), { timeout: 60_000 }).toMatch(/^Your browser refused the passkey: /);
    expect(await page2.locator('[data-passkey-unavailable]').count()).toBe(0);
    await ctx2.close();
  });
});
