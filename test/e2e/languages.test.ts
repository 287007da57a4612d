/**
 * The board renders in each of the three languages from the translations (no missing key, no raw
 * placeholder), and the language switch is remembered by the browser. Real Chromium, real server.
 */
import { describe, expect, it } from 'vitest';
import en from '../../client/i18n/locales/en';
import ptBR from '../../client/i18n/locales/pt-BR';
import zhCN from '../../client/i18n/locales/zh-CN';
import enPages from '../../client/i18n/locales/pages/en';
import ptBRPages from '../../client/i18n/locales/pages/pt-BR';
import zhCNPages from '../../client/i18n/locales/pages/zh-CN';
import { useServerAndBrowser } from './helpers/setup';

const env = useServerAndBrowser();

const LANGS = [
  { code: 'en', m: en, round: 'Round 1 begins.' },
  { code: 'pt-BR', m: ptBR, round: 'Começa a rodada 1.' },
  { code: 'zh-CN', m: zhCN, round: '第 1 轮开始。' },
] as const;

/** Text that betrays a missing translation: an i18n key or an unfilled placeholder. */
const RAW = /\{\{|\}\}|\b(app|board|card|step|prompt|log|lobby|role|colour|require|reaction|token|gameover)\.[A-Za-z]/;

describe('languages', () => {
  for (const { code, m, round } of LANGS)
    it(`renders the board in ${code}`, { timeout: 90_000 }, async () => {
      const ctx = await env.session.context({ width: 1280, height: 900 });
      await ctx.addInitScript((lang) => {
        if (location.protocol === 'http:' && !localStorage.getItem('watergate.lang')) localStorage.setItem('watergate.lang', lang);
      }, code);
      const page = await ctx.newPage();
      await page.goto(`${env.server.url}/#/local`);
      await page.locator('.evidence-board').waitFor();
      await expect.poll(() => page.locator('.prompt-text').textContent()).toBe(m.prompt!.play);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(code);
      expect(await page.locator('.top nav').textContent()).toContain(m.app!.rules);
      expect(await page.locator('.record-lines').textContent()).toContain(round);
      const cards = page.locator('.hand-cards .card');
      expect(await cards.count()).toBe(5);
      for (const text of await cards.allTextContents()) {
        expect(text).not.toMatch(RAW);
        expect(text.length).toBeGreaterThan(40);
      }
      for (const part of ['.status', '.prompt', '.momentum-cards', '.piles', '.record']) expect(await page.locator(part).textContent()).not.toMatch(RAW);
      // Every SVG element on the board has a spoken label in this language.
      const labels = await page.locator('.evidence-board [aria-label], .track [aria-label]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
      expect(labels.length).toBeGreaterThan(40);
      for (const l of labels) expect(l).not.toMatch(RAW);
      if (code === 'zh-CN') expect(await page.locator('.hand').textContent()).toMatch(/[\u4e00-\u9fff]/);
      await ctx.close();
      expect(env.session.problems).toEqual([]);
    });

  it('remembers the chosen language in this browser', { timeout: 60_000 }, async () => {
    const ctx = await env.session.context({ width: 800, height: 800 }, 'en-US');
    const page = await ctx.newPage();
    await page.goto(`${env.server.url}/#/`);
    await page.getByRole('heading', { name: enPages.lobby.title }).waitFor();
    await page.getByLabel(en.app!.language).selectOption('zh-CN');
    await page.getByRole('heading', { name: zhCNPages.lobby!.title as string }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: zhCNPages.lobby!.title as string }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('watergate.lang'))).toBe('zh-CN');
    // The pages' words follow a switch too (their own chunk, not in the board's bundle).
    await page.getByLabel(zhCN.app!.language as string).selectOption('pt-BR');
    await page.getByRole('heading', { name: ptBRPages.lobby!.title as string }).waitFor();
    expect(await page.locator('.lobby').textContent()).toContain(ptBRPages.lobby!.openMatches as string);
    // A first visit follows the browser's language.
    const pt = await env.session.context({ width: 800, height: 800 }, 'pt-BR');
    const first = await pt.newPage();
    await first.goto(`${env.server.url}/#/`);
    await first.getByRole('heading', { name: ptBRPages.lobby!.title as string }).waitFor();
    await ctx.close();
    await pt.close();
    expect(env.session.problems).toEqual([]);
  });
});
