/**
 * Two players in two browser contexts meet in the lobby, create and join a match, and play through a
 * complete round including the assessment pins, in real Chromium against the real server. Every page
 * loads without a console error or warning.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { boardState, decide, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? resolve('docs/screenshots') : resolve('test-results/screenshots');

const env = useServerAndBrowser(() => mkdirSync(SHOTS, { recursive: true }));

/** boardgame.io's Debug panel (local mode) covers part of the page: fold it away with its own "." key. */
async function hideDebug(page: Page) {
  await page.locator('section.debug-panel').waitFor();
  const folded = page.locator('section.debug-panel button.opener');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < 20 && (await folded.count()) === 0; i++) {
    await page.keyboard.press('.');
    await page.waitForTimeout(300);
  }
  expect(await folded.count()).toBe(1);
}

async function shot(page: Page, name: string, fullPage = true) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
}

/**
 * Two players in two browsers meet through the lobby: the Editor names himself and creates a match,
 * Nixon finds it in the list (where `inList` may look at it first) and joins the free Nixon seat.
 */
async function meetInLobby(names: { editor: string; nixon: string }, inList?: (listed: Locator, nixon: Page) => Promise<void>) {
  const editorCtx = await env.session.context({ width: 1280, height: 900 });
  const nixonCtx = await env.session.context({ width: 1280, height: 900 });
  const editor = await editorCtx.newPage();
  const nixon = await nixonCtx.newPage();
  await editor.goto(`${env.server.url}/#/`);
  await editor.getByLabel('Your name').fill(names.editor);
  await editor.locator('[data-create="0"]').click();
  await editor.waitForURL(/#\/match\//);
  const matchID = editor.url().split('/match/')[1];
  await editor.locator('.game').waitFor();
  await nixon.goto(`${env.server.url}/#/`);
  const listed = nixon.locator(`[data-match="${matchID}"]`);
  await listed.waitFor();
  await inList?.(listed, nixon);
  await nixon.getByLabel('Your name').fill(names.nixon);
  await listed.locator('[data-join="1"]').click();
  await nixon.waitForURL(new RegExp(`#/match/${matchID}$`));
  await nixon.locator('.game').waitFor();
  return { matchID, editor, nixon, editorCtx, nixonCtx };
}

/** A fresh browser (its own storage) on the local page, once the board is drawn. */
async function openLocal(viewport = { width: 1280, height: 900 }) {
  const ctx = await env.session.context(viewport);
  const page = await ctx.newPage();
  await page.goto(`${env.server.url}/#/local`);
  await page.locator('.evidence-board').waitFor();
  return { ctx, page };
}

describe('a match through the lobby', () => {
  it('two players create and join a match, play a full round with the assessment pins, finish the game and play again', { timeout: 400_000 }, async () => {
    // The Editor creates a match as the Editor; Nixon sees it listed with its seats by role and joins.
    const { matchID, editor, nixon, editorCtx, nixonCtx } = await meetInLobby({ editor: 'Ben', nixon: 'Dick' }, async (listed, page) => {
      // The row says who hosts in which role, how old the match is, its rules and clock.
      await expect.poll(() => listed.textContent()).toContain('Ben (Editor) waits for Nixon');
      expect(await listed.locator('[data-age]').textContent()).toMatch(/^Created (now|\d+ seconds? ago)$/);
      expect(await listed.locator('[data-rules]').textContent()).toBe('standard rules');
      expect(await listed.locator('[data-clock]').textContent()).toBe('no clock');
      await shot(page, 'lobby');
    });

    // Both see round 1; the Editor sees the three face-down tokens as backs, Nixon sees their colours.
    await expect.poll(async () => (await boardState(editor)).mine).toBe(true);
    expect(await editor.locator('.track [data-piece="hidden"]').count()).toBe(3);
    expect(await nixon.locator('.track [data-piece="hidden"]').count()).toBe(0);
    expect(await nixon.locator('.track [data-piece^="T"]').count()).toBe(3);
    await expect.poll(() => editor.locator('.player-chip[data-seat="1"]').textContent()).toContain('connected');
    expect(await editor.locator('.player-chip[data-seat="1"]').textContent()).toContain('Dick');

    // Play, each decision taken by whoever the board says must act, until round 2 has begun and an
    // assessment has had pins to make (a round whose evidence all ended on 0 has none: play on).
    const pages = { '0': editor, '1': nixon } as const;
    const decisions: string[] = [];
    let shots = 0;
    // Waiting for the other page to catch up does not count as a decision (a busy machine waits more).
    const deadline = Date.now() + 240_000;
    for (let n = 0; n < 400; n++) {
      expect(Date.now()).toBeLessThan(deadline);
      // Both boards show the same round (once the last update has reached both pages: they are read one
      // after the other, and a decision that ends a round can reach one page a moment before the other).
      await expect.poll(async () => (await boardState(editor)).round === (await boardState(nixon)).round, { timeout: 15_000 }).toBe(true);
      const e = await boardState(editor);
      const x = await boardState(nixon);
      expect(e.round).toBe(x.round);
      if (e.round >= 2 && decisions.includes('pin:assessment')) break;
      expect(e.round, `rounds played: ${decisions.join(' ')}`).toBeLessThan(5);
      expect(e.phase).not.toBe('gameover');
      const actor = e.mine ? '0' : x.mine ? '1' : null;
      if (!actor) {
        await editor.waitForTimeout(50);
        n--;
        continue;
      }
      const page = pages[actor];
      const before = await boardState(page);
      if (shots === 0 && decisions.length >= 4 && before.prompt === 'play') {
        await shot(editor, 'board-editor');
        await shot(nixon, 'board-nixon');
        shots++;
      }
      decisions.push(await decide(page, actor));
      await waitForChange(page, before);
    }
    expect(decisions.filter((d) => d === 'pin:assessment').length).toBeGreaterThan(0);
    const record = await editor.locator('.record-lines').textContent();
    expect(record).toContain('Assessment.');
    expect(record).toMatch(/pinned a .* token.* face (up|down) on/);
    expect(record).toContain('Round 2 begins.');
    expect(await nixon.locator('.record-lines').textContent()).toBe(record);

    // A reload rejoins the same seat (credentials kept in this browser), hand and all (Nixon may have
    // played every card of this round already: the same hand, whatever its size).
    const hand = await nixon.locator('.hand-cards .card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.card));
    await nixon.reload();
    await nixon.locator('.game').waitFor();
    expect(await nixon.locator('.status .me').textContent()).toBe('You are Nixon');
    await expect.poll(() => nixon.locator('.hand-cards .card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.card))).toEqual(hand); // the hand arrives with the seat's sync
    expect(await nixon.locator('.hand').count()).toBe(1);

    // A third browser watches: no hand, no choices.
    const watcherCtx = await env.session.context({ width: 390, height: 844 });
    const watcher = await watcherCtx.newPage();
    await watcher.goto(`${env.server.url}/#/match/${matchID}`);
    await watcher.locator('.game').waitFor();
    expect(await watcher.locator('.hand').count()).toBe(0);
    expect(await watcher.locator('.option').count()).toBe(0);
    // Phones: the board fits 390 px without sideways scrolling.
    expect(await watcher.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const phoneCtx = await env.session.context({ width: 390, height: 844 });
    const phone = await phoneCtx.newPage();
    await phone.goto(`${env.server.url}/#/`);
    await phone.evaluate(() => localStorage.setItem('watergate.seats', '{}'));
    await editorCtx.storageState().then(async (s) => {
      const seats = s.origins[0]?.localStorage.find((x) => x.name === 'watergate.seats')?.value ?? '{}';
      await phone.evaluate((v) => localStorage.setItem('watergate.seats', v), seats);
    });
    await phone.goto(`${env.server.url}/#/match/${matchID}`);
    await phone.locator('.game').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'board-phone', false); // the screen as seen: the dock is fixed at its bottom

    await phoneCtx.close();
    await watcherCtx.close();

    // Play on to the end of the game; both see the game-over screen; then both ask to play again at once,
    // the Editor keeping the sides: they meet in one new match, in the same roles.
    for (let n = 0; n < 2000; n++) {
      if ((await editor.locator('.gameover').count()) > 0) break;
      const e = await boardState(editor);
      const x = await boardState(nixon);
      const actor = e.mine ? '0' : x.mine ? '1' : null;
      if (!actor) {
        await editor.waitForTimeout(50);
        continue;
      }
      const page = pages[actor];
      const before = await boardState(page);
      await decide(page, actor);
      await waitForChange(page, before);
    }
    await editor.locator('.gameover').waitFor();
    await nixon.locator('.gameover').waitFor();
    const winner = await editor.locator('.gameover').getAttribute('data-winner');
    expect(await editor.locator('.gameover .headline').textContent()).toBe(winner === '0' ? 'You win!' : 'You lose.');
    expect(await nixon.locator('.gameover .headline').textContent()).toBe(winner === '1' ? 'You win!' : 'You lose.');
    await editor.locator('[data-swap]').uncheck();
    await nixon.locator('[data-swap]').uncheck();
    // Both ask at once: whichever asks second may already see the other's invitation and accept it instead.
    await Promise.all([editor, nixon].map((p) => p.locator('[data-play-again], [data-rematch-accept]').first().click()));
    await editor.waitForURL((u) => !u.hash.endsWith(matchID));
    await nixon.waitForURL((u) => !u.hash.endsWith(matchID));
    expect(nixon.url().split('#')[1]).toBe(editor.url().split('#')[1]);
    await editor.locator('.game[data-round="1"]').waitFor();
    expect(await editor.locator('.status .me').textContent()).toBe('You are the Editor');
    expect(await nixon.locator('.status .me').textContent()).toBe('You are Nixon');
    await expect.poll(async () => (await boardState(editor)).mine).toBe(true);

    for (const c of [editorCtx, nixonCtx]) await c.close();
    expect(env.session.problems).toEqual([]);
  });

  it('during a game, "Leave" keeps the seat after asking; the player not to move resigns and the other side wins', { timeout: 120_000 }, async () => {
    const { matchID, editor, nixon, editorCtx, nixonCtx } = await meetInLobby({ editor: 'Eve', nixon: 'Rex' });
    const before = await boardState(editor);
    await decide(editor, '0');
    await waitForChange(nixon, before);

    // Leave mid-game: the page says what it does; "Stay" keeps the board, "Go to the lobby" keeps the seat.
    await editor.locator('[data-leave]').click();
    const ask = editor.locator('.confirm.leave');
    await expect.poll(() => ask.textContent()).toContain('Your seat stays yours');
    await ask.getByRole('button', { name: 'Stay' }).click();
    expect(await ask.count()).toBe(0);
    await editor.locator('[data-leave]').click();
    await ask.getByRole('button', { name: 'Go to the lobby' }).click();
    await editor.waitForURL((u) => u.hash === '#/' || u.hash === '');
    await editor.locator(`[data-my-match="${matchID}"]`).waitFor();
    expect(await (await fetch(`${env.server.url}/games/watergate/${matchID}`)).json()).toMatchObject({ players: [{ name: 'Eve' }, { name: 'Rex' }] });
    await editor.goto(`${env.server.url}/#/match/${matchID}`);
    await editor.locator('.game').waitFor();

    // Nixon resigns while it is not his turn to move: asked first, then both boards say who won and why.
    const waiting = (await boardState(nixon)).mine ? editor : nixon;
    const [resigner, winner] = waiting === nixon ? [nixon, editor] : [editor, nixon];
    await resigner.locator('[data-resign]').click();
    await resigner.locator('[data-resign-confirm]').click();
    await resigner.locator('.gameover').waitFor();
    await winner.locator('.gameover').waitFor();
    expect(await resigner.locator('.gameover .headline').textContent()).toBe('You lose.');
    expect(await winner.locator('.gameover .headline').textContent()).toBe('You win!');
    expect(await winner.locator('.gameover .why').textContent()).toMatch(/^(Nixon|Editor) resigned\.$/);
    expect(await winner.locator('.record-lines').textContent()).toContain('the other side resigned');

    for (const c of [editorCtx, nixonCtx]) await c.close();
    expect(env.session.problems).toEqual([]);
  });

  it('a player who leaves frees the seat for someone else; when the last one leaves, the match is gone', { timeout: 120_000 }, async () => {
    const { matchID, editor, nixon, editorCtx, nixonCtx } = await meetInLobby({ editor: 'Kay', nixon: 'Ron' });
    expect(await nixon.locator('.status .me').textContent()).toBe('You are Nixon');

    // Nixon leaves from the match page: back in the lobby, the match is no longer his, the seat is free.
    await nixon.locator('.match-bar').getByRole('button', { name: 'Leave' }).click();
    await nixon.waitForURL((u) => u.hash === '#/' || u.hash === '');
    await expect.poll(() => nixon.locator(`[data-match="${matchID}"]`).textContent()).toContain('Kay (Editor) waits for Nixon');
    expect(await nixon.locator(`[data-my-match="${matchID}"]`).count()).toBe(0);
    expect(await nixon.locator(`[data-match="${matchID}"] [data-join="1"]`).isEnabled()).toBe(true);
    // His old link now offers the free seat again, or to just watch: no hand, no seat.
    await nixon.goto(`${env.server.url}/#/match/${matchID}`);
    await expect.poll(() => nixon.locator('[data-join-offer] h2').textContent()).toBe('Kay invites you to this match.');
    await nixon.locator('[data-just-watch]').click();
    await nixon.locator('.game').waitFor();
    expect(await nixon.locator('.hand').count()).toBe(0);

    // The Editor leaves from the lobby's "Your matches": nobody is left, so the match is gone.
    await editor.goto(`${env.server.url}/#/`);
    const mine = editor.locator(`[data-my-match="${matchID}"]`);
    await mine.waitFor();
    await mine.getByRole('button', { name: 'Leave' }).click();
    await expect.poll(() => mine.count()).toBe(0);
    await expect.poll(() => editor.locator(`[data-match="${matchID}"]`).count()).toBe(0);
    const res = await fetch(`${env.server.url}/games/watergate/${matchID}`);
    expect(res.status).toBe(404);

    for (const c of [editorCtx, nixonCtx]) await c.close();
    expect(env.session.problems).toEqual([]);
  });

  it('the server\'s refusals reach the player: an unknown match, a refused seat, a move on an old state', { timeout: 120_000 }, async () => {
    const ctx = await env.session.context({ width: 1280, height: 900 });
    const page = await ctx.newPage();
    const post = async (path: string, body: object) => (await fetch(`${env.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();

    // A match that does not exist: said so, instead of "connecting" for ever.
    await page.goto(`${env.server.url}/#/match/no-such-match`);
    await expect.poll(() => page.locator('[data-refused="not-found"]').textContent()).toContain('There is no match no-such-match');

    // A seat whose credentials the server refuses (left, or taken over): said so, and the page offers to watch.
    const { matchID } = (await post('/games/watergate/create', { numPlayers: 2 })) as { matchID: string };
    const editor = (await post(`/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' })) as { playerCredentials: string };
    await post(`/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Bob' });
    const hold = (credentials: string) =>
      page.evaluate(([id, c]) => localStorage.setItem('watergate.seats', JSON.stringify({ [id]: { matchID: id, playerID: '0', credentials: c, name: 'Ann' } })), [matchID, credentials]);
    await hold('not-the-credentials');
    await page.goto(`${env.server.url}/#/match/${matchID}`);
    const refused = page.locator('[data-refused="unauthorized"]');
    await expect.poll(() => refused.textContent()).toContain("This browser's seat in this match was not accepted");
    await refused.getByRole('button', { name: 'Watch instead' }).click();
    await page.locator('.game').waitFor();
    expect(await page.locator('.hand').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('watergate.seats'))).toBe('{}');

    // The Editor's move leaves with an out-of-date state number (as if another move had been saved
    // first): the server refuses it and resyncs, the page says why, nothing changed, and the player
    // can choose again.
    await hold(editor.playerCredentials);
    let tamper = true;
    await page.routeWebSocket(/socket\.io/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        const text = String(m);
        const at = text.indexOf('["update"');
        if (tamper && text.startsWith('42/watergate,') && at > 0) {
          tamper = false;
          const args = JSON.parse(text.slice(at)) as [string, unknown, number, ...unknown[]];
          args[2] -= 1;
          server.send(text.slice(0, at) + JSON.stringify(args));
        } else server.send(m);
      });
      server.onMessage((m) => ws.send(m));
    });
    await page.reload(); // a new socket, through the route
    await expect.poll(async () => (await boardState(page)).mine).toBe(true);
    const before = await boardState(page);
    await decide(page, '0');
    const banner = page.locator('[data-refusal="stale"]');
    await expect.poll(() => banner.textContent()).toContain('The game had moved on');
    expect(await boardState(page)).toEqual(before);
    await decide(page, '0');
    await waitForChange(page, before);
    await expect.poll(() => banner.count()).toBe(0);
    expect(tamper).toBe(false);
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('the rules reference finds cards in the player\'s language, and the lobby, rules and local pages load cleanly', { timeout: 120_000 }, async () => {
    const ctx = await env.session.context({ width: 1280, height: 900 });
    const page = await ctx.newPage();
    await page.goto(`${env.server.url}/#/rules`);
    await page.locator('.rules-summary').waitFor();
    expect(await page.locator('.card-grid .card').count()).toBe(40);
    await page.locator('[data-rules-search]').fill('Sirica');
    await expect.poll(() => page.locator('.card-grid .card').count()).toBe(2); // Judge John Sirica, James McCord's note
    await page.locator('[data-rules-search]').fill('');
    await page.goto(`${env.server.url}/#/local`);
    await page.locator('.evidence-board').waitFor();
    // The hotseat board offers the Editor's first move; the Debug panel is there.
    expect(await page.locator('.prompt.mine').count()).toBe(1);
    await page.goto(`${env.server.url}/#/nowhere`);
    await page.getByText('Page not found.').waitFor();
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('on a phone the local page starts with the Debug panel folded, so the board and the prompt are free', { timeout: 60_000 }, async () => {
    const { ctx, page } = await openLocal({ width: 390, height: 844 });
    // Folded: only the panel's opener is shown, and it does not sit on the prompt.
    await page.locator('section.debug-panel button.opener').waitFor();
    await page.locator('.prompt.mine').waitFor();
    const prompt = await page.locator('.prompt.mine').boundingBox();
    const opener = await page.locator('section.debug-panel button.opener').boundingBox();
    expect(prompt).not.toBeNull();
    const overlap = (a: NonNullable<typeof prompt>, b: NonNullable<typeof prompt>) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlap(prompt!, opener!)).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The player can still open it.
    await page.locator('section.debug-panel button.opener').click();
    await expect.poll(() => page.locator('section.debug-panel button.opener').count()).toBe(0);
    // On a wide screen it starts open, as boardgame.io shows it.
    const wide = await (await env.session.context({ width: 1280, height: 900 })).newPage();
    await wide.goto(`${env.server.url}/#/local`);
    await wide.locator('section.debug-panel').waitFor();
    expect(await wide.locator('section.debug-panel button.opener').count()).toBe(0);
    await wide.context().close();
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('plays a whole game in the local hotseat mode up to the game-over screen that says why', { timeout: 240_000 }, async () => {
    const { ctx, page } = await openLocal();
    await hideDebug(page);
    let n = 0;
    for (; n < 1500; n++) {
      // Hotseat: the board shown is the one of whoever must act (or the game is over).
      await page.locator('.prompt.mine, .gameover').first().waitFor({ timeout: 5_000 });
      if ((await page.locator('.gameover').count()) > 0) break;
      const before = await boardState(page);
      expect(before.mine).toBe(true);
      await decide(page, before.player as '0' | '1');
      await waitForChange(page, before);
    }
    const over = page.locator('.gameover');
    await over.waitFor();
    const text = (await over.textContent()) ?? '';
    expect(text).toMatch(/The Editor wins!|Nixon wins!/);
    expect(text).toMatch(/Two informants are connected to Nixon by face-up evidence: .+, .+\.|Nixon placed his 5th momentum token\.|The momentum supply ran out at the assessment\./);
    expect(await page.locator('.prompt').count()).toBe(0);
    await shot(page, 'gameover', false);
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('every action is reachable with the keyboard alone', { timeout: 60_000 }, async () => {
    const { ctx, page } = await openLocal();
    await hideDebug(page);
    const focused = () => page.evaluate(() => document.activeElement?.className ?? '');
    const tabTo = async (cls: RegExp) => {
      for (let i = 0; i < 200; i++) {
        await page.keyboard.press('Tab');
        if (cls.test(await focused())) return;
      }
      throw new Error(`never reached ${cls} with Tab`);
    };
    const before = await boardState(page);
    await tabTo(/\bcard\b/);
    await page.keyboard.press('Enter');
    expect(await page.locator('.hand-cards .card.selected').count()).toBe(1);
    await tabTo(/\boption\b/);
    // The focused control shows a visible focus ring.
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    await waitForChange(page, before);
    // SVG targets on the board and track are focusable buttons with spoken labels.
    const svgButtons = await page.locator('svg [role="button"]').evaluateAll((els) => els.map((e) => [e.getAttribute('tabindex'), e.getAttribute('aria-label')]));
    for (const [tab, label] of svgButtons) {
      expect(tab).toBe('0');
      expect(label).toBeTruthy();
    }
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });

  it('local mode against the bot: the bot answers as Nixon and the Editor keeps playing', { timeout: 90_000 }, async () => {
    const { ctx, page } = await openLocal();
    await page.getByLabel('Against a bot (you are the Editor)').check();
    // Our own bot (bots/browser.ts, searching in a Web Worker), at level easy to keep the test short.
    expect(await page.getByLabel('Bot level').inputValue()).toBe('normal');
    await page.getByLabel('Bot level').selectOption('easy');
    await page.locator('.prompt.mine').waitFor();
    await hideDebug(page);
    for (let turn = 0; turn < 4; turn++) {
      const before = await boardState(page);
      expect(before.player).toBe('0');
      await decide(page, '0');
      // The bot takes Nixon's decisions until the Editor is asked again.
      await expect.poll(async () => {
        const s = await boardState(page);
        return s.mine && s.log > before.log;
      }, { timeout: 20_000 }).toBe(true);
    }
    expect(await page.locator('.record-lines li.role-1').count()).toBeGreaterThan(2);
    // Its code came in on demand, and its search ran in a worker, not on the page's thread.
    expect(await page.evaluate(() => performance.getEntriesByType('resource').some((r) => /browser-worker/.test(r.name)))).toBe(true);
    await ctx.close();
    expect(env.session.problems).toEqual([]);
  });
});
