/**
 * Two friends' whole journey, once per language, in two real Chromium contexts against the real server: one
 * player creates a private match and copies its invite link, the other opens the link and takes the free
 * seat; the game starts only then; they chat, the chat survives a reload and a server restart; losing the
 * server says "Reconnecting…" on both boards within 2 s and play resumes after the restart; one side
 * resigns and both boards say who won and why; "play again" swaps the sides and the opponent accepts the
 * invitation with one click. Every text checked is the translation the player's language gives.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { translator } from '../../tools/words';
import { boardState, decide, waitForChange } from './helpers/play';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

async function inLanguage(lang: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await env.session.context(undefined, lang);
  await ctx.addInitScript((l) => {
    if (location.protocol === 'http:' && !localStorage.getItem('watergate.lang')) localStorage.setItem('watergate.lang', l);
  }, lang);
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
  return { ctx, page: await ctx.newPage() };
}

describe('the online journey', () => {
  for (const lang of ['en', 'pt-BR', 'zh-CN'])
    it(`in ${lang}: invite link, waiting for the opponent, chat, lost server, resign, rematch with sides swapped`, { timeout: 240_000 }, async () => {
      const { t } = await translator(lang);
      const role = (p: '0' | '1') => t(`role.${p}`);

      // The host creates a private match as the Editor: the board waits for Nixon and says so.
      const host = await inLanguage(lang);
      const a = host.page;
      await a.goto(`${env.server.url}/#/`);
      await a.getByLabel(t('lobby.yourName')).fill('Ann');
      await a.locator('[data-private]').check();
      await a.locator('[data-create="0"]').click();
      await a.waitForURL(/#\/match\//);
      const matchID = a.url().split('/match/')[1];
      await expect.poll(() => a.locator('[data-waiting="1"]').textContent()).toBe(t('board.waitingForYou', { role: role('1') }));
      expect(await a.title()).toBe(t('app.title'));
      await a.locator('[data-invite]').click();
      await a.getByText(t('lobby.copied')).waitFor();
      const link = await a.evaluate(() => navigator.clipboard.readText());

      // The guest opens the link: invited by name, takes the free seat; the game starts for both.
      const guest = await inLanguage(lang);
      const b = guest.page;
      await b.goto(link);
      await expect.poll(() => b.locator('[data-join-offer] h2').textContent()).toBe(t('lobby.invitedBy', { name: 'Ann' }));
      await b.getByLabel(t('lobby.yourName')).fill('Bob');
      await b.locator('[data-take-seat="1"]').click();
      await expect.poll(() => b.locator('.status .me').textContent()).toBe(t('board.youAre1'));
      await a.locator('[data-waiting]').waitFor({ state: 'detached' });
      await expect.poll(() => a.title()).toBe(t('app.yourMoveTitle'));
      const before = await boardState(a);
      await decide(a, '0');
      await waitForChange(b, before);

      // Chat, heard by both, kept through a reload.
      await a.getByLabel(t('chat.say')).fill('Deep Throat says hi');
      await a.locator('.chat-say button[type="submit"]').click();
      await expect.poll(() => b.locator('.chat-lines li').allTextContents()).toEqual([`${role('0')} (Ann): Deep Throat says hi`]);
      await b.reload();
      await expect.poll(() => b.locator('.chat-lines li').count()).toBe(1);

      // The server goes away: both boards say so within 2 s; after the restart play and chat go on.
      // What was still loading when the server died (a font, a chunk) fails with it: expected, and only then.
      const beforeCrash = env.session.problems.length;
      await env.server.crash();
      const t0 = Date.now();
      await Promise.all([a, b].map((p) => p.locator('[data-offline]').waitFor({ timeout: 2_000 })));
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect(await a.locator('[data-offline]').textContent()).toBe(t('board.reconnecting'));
      await env.server.restart();
      await Promise.all([a, b].map((p) => p.locator('[data-offline]').waitFor({ state: 'detached', timeout: 20_000 })));
      const lost = env.session.problems.splice(beforeCrash);
      env.session.problems.push(...lost.filter((p) => !/net::(ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_CONTENT_LENGTH_MISMATCH|ERR_EMPTY_RESPONSE|ERR_INCOMPLETE_CHUNKED_ENCODING)\b/.test(p)));
      await expect.poll(() => a.locator('.chat-lines li').count()).toBe(1);
      const [mover, other] = (await boardState(a)).mine ? [a, b] : [b, a];
      const s = await boardState(other);
      await decide(mover, mover === a ? '0' : '1');
      await waitForChange(other, s);

      // The guest (Nixon) resigns: both boards say the Editor won because Nixon resigned.
      await b.locator('[data-resign]').click();
      await b.locator('[data-resign-confirm]').click();
      await Promise.all([a, b].map((p) => p.locator('.gameover').waitFor()));
      expect(await a.locator('.gameover .headline').textContent()).toBe(t('gameover.youWin'));
      expect(await b.locator('.gameover .headline').textContent()).toBe(t('gameover.youLose'));
      expect(await a.locator('.gameover .why').textContent()).toBe(t('gameover.resigned', { loser: role('1') }));

      // Play again: the host asks (sides swapped by default), the guest sees the invitation and accepts.
      expect(await a.locator('[data-swap]').isChecked()).toBe(true);
      await a.locator('[data-play-again]').click();
      await a.waitForURL((u) => !u.hash.endsWith(matchID));
      const next = a.url().split('/match/')[1];
      expect(await a.locator('.status .me').textContent()).toBe(t('board.youAre1'));
      const offer = b.locator('[data-rematch-offer="0"]');
      await expect.poll(() => offer.locator('p').textContent()).toBe(t('lobby.rematchOffer', { name: 'Ann', role: role('0') }));
      await offer.locator('[data-rematch-accept]').click();
      await b.waitForURL((u) => u.hash.endsWith(next));
      await b.locator('.game').waitFor();
      expect(await b.locator('.status .me').textContent()).toBe(t('board.youAre0'));
      await expect.poll(async () => (await boardState(b)).mine).toBe(true); // the new Editor moves first
      expect(await a.locator('[data-waiting]').count()).toBe(0);

      await Promise.all([host.ctx.close(), guest.ctx.close()]);
      expect(env.session.problems.filter((p) => !/socket\.io|websocket/i.test(p))).toEqual([]);
    });
});
