/**
 * Every UI string, card text and game-record line exists in all three languages and renders completely
 * (no missing key, no unfilled {{placeholder}}), built from the component data.
 */
import i18next, { type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { CARDS, describe as recordLine, MESSAGES, playerView, type LogEntry } from '../../game';
import { bundles } from '../../client/i18n';
import enMessages from '../../client/i18n/locales/en';
import ptBR from '../../client/i18n/locales/pt-BR';
import zhCN from '../../client/i18n/locales/zh-CN';
import type { Translation } from '../../client/i18n/locales/types';

const resources = {
  en: bundles(enMessages as unknown as Translation),
  'pt-BR': bundles(ptBR),
  'zh-CN': bundles(zhCN),
};
import { abilityText, cardActionLines, cardName, historyNote, logText, moveText } from '../../client/i18n/words';
import { randomDecisions, randomGame } from '../helpers/rng';

const LANGS = ['en', 'pt-BR', 'zh-CN'] as const;

/** Flattened keys with i18next plural suffixes removed. */
function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj === 'string' || Array.isArray(obj)) return [prefix.replace(/_(one|other|few|many)$/, '')];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

async function translator(lng: string): Promise<{ t: TFunction; missing: string[] }> {
  const missing: string[] = [];
  const inst = i18next.createInstance();
  await inst.init({
    resources,
    lng,
    fallbackLng: false,
    ns: ['translation', 'log'],
    interpolation: { escapeValue: false },
    saveMissing: true,
    // Names of people and places fall back to the data on purpose (defaultValue); anything else missing is a bug.
    missingKeyHandler: (_l, ns, key) => {
      if (!/^(cardNames|informants|history)\./.test(key)) missing.push(`${ns}:${key}`);
    },
  });
  return { t: inst.t, missing };
}

const complete = (s: string) => {
  expect(s).not.toMatch(/\{\{|\}\}/);
  expect(s.trim().length).toBeGreaterThan(0);
};

describe('translations', () => {
  it('the rules summary has the same sections in every language', async () => {
    const [en, pt, zh] = await Promise.all(LANGS.map((l) => import(`../../client/rules/summary/${l}.ts`)));
    expect(en.sections.length).toBeGreaterThan(10);
    for (const other of [pt, zh]) {
      expect(other.sections.length).toBe(en.sections.length);
      for (const [h, body] of other.sections) expect(h.length * body.length).toBeGreaterThan(0);
    }
  });

  const en = resources.en.translation;
  const base = new Set(keys(en).filter((k) => !k.startsWith('cardNames') && !k.startsWith('history') && !k.startsWith('informants')));

  it.each(['pt-BR', 'zh-CN'] as const)('%s has every English key, and no stray one', (lng) => {
    const got = new Set(keys(resources[lng].translation));
    expect([...base].filter((k) => !got.has(k))).toEqual([]);
    const extra = [...got].filter((k) => !base.has(k) && !/^(cardNames|history|informants)\./.test(k));
    expect(extra).toEqual([]);
  });

  it.each(['pt-BR', 'zh-CN'] as const)('%s translates every history note, and every record key of the engine', (lng) => {
    for (const id of Object.keys(CARDS)) expect(resources[lng].translation.history?.[id], id).toBeTruthy();
    const log = new Set(keys(resources[lng].log));
    for (const key of Object.keys(MESSAGES)) expect(log.has(key), key).toBe(true);
  });

  it.each(LANGS)('%s renders every card (name, action, history) and every Editor ability from the data', async (lng) => {
    const { t, missing } = await translator(lng);
    for (const c of Object.values(CARDS)) {
      complete(cardName(t, c.id));
      complete(historyNote(t, c.id));
      const lines = cardActionLines(t, c);
      expect(lines.length).toBeGreaterThan(0);
      lines.forEach(complete);
    }
    for (const space of [1, 2, 3, 4]) complete(abilityText(t, space));
    expect(missing).toEqual([]);
  });

  it.each(LANGS)('%s renders every record line and every offered move of 6 random games', async (lng) => {
    const { t, missing } = await translator(lng);
    const seen = new Set<string>();
    for (let seed = 1; seed <= 6; seed++) {
      const game = randomDecisions(seed, 300);
      let r = game.next();
      for (; !r.done; r = game.next()) {
        const { G, player, moves } = r.value;
        const view = playerView(G, player);
        for (const m of moves.slice(0, 30)) complete(moveText(t, view, m));
      }
      for (const e of r.value.log as LogEntry[]) {
        seen.add(e.key);
        const line = logText(t, e);
        complete(line);
        expect(line).not.toBe(e.key);
      }
    }
    expect(seen.size).toBeGreaterThan(25);
    expect(missing).toEqual([]);
  });

  it('the English record on screen is word for word the engine\'s record (game/record.ts), with real plurals', async () => {
    const { t } = await translator('en');
    const seen = new Set<string>();
    let lines = 0;
    for (let seed = 11; seed <= 40; seed++)
      for (const e of randomGame(seed).log as LogEntry[]) {
        const shown = logText(t, e);
        expect(shown, e.key).toBe(recordLine(e));
        expect(shown).not.toMatch(/\(s\)/);
        seen.add(e.key);
        lines++;
      }
    expect(lines).toBeGreaterThan(1000);
    expect(seen.size).toBeGreaterThan(30);
  });

  it.each([
    ['en', 'moves 1 step.', 'moves 2 steps.'],
    ['pt-BR', 'anda 1 casa.', 'anda 2 casas.'],
  ] as const)('%s says "1 step" and "2 steps": no "(s)" in prompts or record', async (lng, one, two) => {
    const { t } = await translator(lng);
    const move = (steps: number) => ({ key: 'step.moveToken', player: null, params: { token: 'initiative', steps } }) as unknown as LogEntry;
    expect(logText(t, move(1))).toContain(one);
    expect(logText(t, move(2))).toContain(two);
    expect(JSON.stringify(resources[lng])).not.toMatch(/\(s\)/);
  });
});
