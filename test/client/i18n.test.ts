/**
 * Every UI string, card text and game-record line exists in all three languages and renders completely
 * (no missing key, no unfilled {{placeholder}}), built from the component data.
 */
import { describe, expect, it } from 'vitest';
import { CARDS, LOG_KEYS, playerView, type LogEntry } from '../../game';
import { resources, translator } from '../helpers/i18n';

import { abilityText, cardActionLines, cardName, historyNote, logText, moveText } from '../../client/i18n/words';
import { randomDecisions, randomGame } from '../helpers/rng';
import { LEVEL_NAMES } from '../../protocol/index';

const LANGS = ['en', 'pt-BR', 'zh-CN'] as const;

/** Flattened keys with i18next plural suffixes removed. */
function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj === 'string' || Array.isArray(obj)) return [prefix.replace(/_(one|other|few|many)$/, '')];
  return Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
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
  it('every history note is a real line of history', () => {
    for (const id of Object.keys(CARDS)) expect(String(en.history?.[id] ?? '').length, id).toBeGreaterThan(10);
  });

  it.each(['pt-BR', 'zh-CN'] as const)('%s has every English key, and no stray one', (lng) => {
    const got = new Set(keys(resources[lng].translation));
    expect([...base].filter((k) => !got.has(k))).toEqual([]);
    const extra = [...got].filter((k) => !base.has(k) && !/^(cardNames|history|informants)\./.test(k));
    expect(extra).toEqual([]);
  });

  it.each(LANGS)('%s has a history note for every card', (lng) => {
    for (const id of Object.keys(CARDS)) expect(resources[lng].translation.history?.[id], id).toBeTruthy();
  });

  it.each(LANGS)('%s names every level of the computer (protocol/ lists them), each in words of its own', (lng) => {
    const words = LEVEL_NAMES.map((l) => resources[lng].translation.lobby?.levels?.[l]);
    for (const [i, w] of words.entries()) expect(typeof w === 'string' && w.trim() !== '', LEVEL_NAMES[i]).toBe(true);
    expect(new Set(words).size).toBe(LEVEL_NAMES.length);
    expect(Object.keys(resources[lng].translation.lobby?.levels ?? {}).sort()).toEqual([...LEVEL_NAMES].sort());
  });

  it.each(LANGS)('%s has words for every kind of record line the engine writes (LOG_KEYS)', (lng) => {
    const log = new Set(keys(resources[lng].log));
    expect(LOG_KEYS.filter((key) => !log.has(key))).toEqual([]);
    // Besides the keys: pieces the lines are built from.
    expect([...log].filter((key) => !(LOG_KEYS as readonly string[]).includes(key)).sort()).toEqual(['noToken', 'step.returnHidden']);
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

  it.each([
    ['en', /\b1 (\S+ )?(tokens|cards|steps|pictures|spaces)\b/],
    ['pt-BR', /\b1 (\S+ )?(fichas|cartas|casas|fotos|imagens|espaços)\b/],
  ] as const)('%s never says "1" with a plural noun on a card or an ability ("up to 1 evidence token")', async (lng, onePlural) => {
    const { t } = await translator(lng);
    const lines = [...Object.values(CARDS).flatMap((c) => cardActionLines(t, c)), ...[1, 2, 3, 4].map((s) => abilityText(t, s))];
    expect(lines.filter((l) => onePlural.test(l))).toEqual([]);
    expect(lines.some((l) => /\b1 evidence token\b|\b1 ficha de evidência\b/.test(l))).toBe(true); // the singular is used
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

  it('the English record says every line of 30 games in full words, with real plurals', async () => {
    const { t } = await translator('en');
    const seen = new Set<string>();
    let lines = 0;
    for (let seed = 11; seed <= 40; seed++)
      for (const e of randomGame(seed).log as LogEntry[]) {
        const shown = logText(t, e);
        complete(shown);
        expect(shown, e.key).not.toMatch(/undefined|NaN|\[object|^[a-z]+\.[a-zA-Z.]+$/);
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
