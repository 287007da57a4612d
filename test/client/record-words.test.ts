/**
 * Every kind of game-record line (LOG_KEYS), in each of the three languages, reads as a sentence a player
 * would write: it starts as a sentence starts and ends as one ends, a side is named with its article
 * ("The Editor", "O Editor"), tokens with theirs and in a real list ("a yellow token and a blue/yellow
 * token"), a turned picture or token says which way it turned, a momentum ability says what it does, and
 * a skipped part of an action says why. Each line comes from a real game where one has it, otherwise
 * from the parameters the engine writes for that key.
 */
import { describe, expect, it } from 'vitest';
import { LOG_KEYS, type LogEntry } from '../../game';
import { logText } from '../../client/i18n/words';
import { translator } from '../helpers/i18n';
import { randomGame } from '../helpers/rng';

/** What the engine writes when no random game below shows the key. */
const MADE: Record<string, Pick<LogEntry, 'player' | 'params'>> = {
  ask: { player: '0', params: { card: 'E41', colour: 'yellow' } },
  'ask.none': { player: '1', params: { colour: 'green' } },
  'ask.answer': { player: '1', params: { token: 'T12' } },
  cancelled: { player: null, params: { card: 'N07' } },
  redirect: { player: '0', params: { token: 'T12', steps: 2 } },
  'momentum.full': { player: '0', params: {} },
  'pin.impossible': { player: '0', params: { tokens: 'T12,T22' } },
  'pin.impossible.removed': { player: '0', params: { tokens: 'T12' } },
  'informant.onBoard': { player: '0', params: { informant: 'I_DEAN' } },
  'informant.flip': { player: '1', params: { informant: 'I_DEAN' } },
  'board.flip': { player: '0', params: { token: 'T12', space: 'B01' } },
  'board.remove': { player: '1', params: { token: 'T12', space: 'B01' } },
  'step.nothing': { player: '0', params: { op: 'FLIP_INFORMANT' } },
  'step.noCard': { player: '1', params: {} },
  'step.restrict': { player: '1', params: {} },
  'step.replay': { player: '0', params: { card: 'E34' } },
  'gambit.recycle': { player: '1', params: { card: 'N02' } },
  'gambit.keep': { player: '1', params: {} },
  'win.resigned': { player: '0', params: {} },
  'win.time': { player: '1', params: {} },
  'win.left': { player: '0', params: {} },
  'win.abandoned': { player: '1', params: {} },
  'game.aborted': { player: '1', params: {} },
  'win.connected': { player: '0', params: {} },
  'win.momentum': { player: '1', params: {} },
  'win.supply': { player: '1', params: {} },
  'step.keepNone': { player: '0', params: {} },
};

/** One entry per key: from real games (the richest parameters seen), or made as the engine makes it. */
function samples(): Map<string, LogEntry> {
  const seen = new Map<string, LogEntry>();
  for (let seed = 1; seed <= 40; seed++)
    for (const e of randomGame(seed).log) {
      const had = seen.get(e.key);
      if (!had || Object.keys(e.params).length > Object.keys(had.params).length || (e.key === 'evidence.gain' && String(e.params.tokens).includes(','))) seen.set(e.key, e);
    }
  for (const [key, made] of Object.entries(MADE)) if (!seen.has(key)) seen.set(key, { round: 1, key, ...made } as LogEntry);
  return seen;
}

const SENTENCE = {
  en: { start: /^(["“A-Z0-9])/, end: /[.!]$/ },
  'pt-BR': { start: /^(["“A-ZÀ-Ú0-9])/, end: /[.!]$/ },
  'zh-CN': { start: /^[\u4e00-\u9fff“"0-9第]/, end: /[。！]$/ },
} as const;

describe('record lines read as sentences', () => {
  const all = samples();
  it('every record key has a sample line', () => {
    expect(LOG_KEYS.filter((k) => !all.has(k))).toEqual([]);
  });

  for (const lng of ['en', 'pt-BR', 'zh-CN'] as const)
    for (const key of LOG_KEYS)
      it(`${lng}: ${key}`, async () => {
        const { t } = await translator(lng);
        const e = all.get(key)!;
        const line = logText(t, e);
        expect(line, 'no placeholder or key left').not.toMatch(/\{\{|\}\}|undefined|NaN|\[object|^[a-z]+\.[a-zA-Z.]+$/);
        expect(line, 'starts as a sentence').toMatch(SENTENCE[lng].start);
        expect(line, 'ends as a sentence').toMatch(SENTENCE[lng].end);
        expect(line, 'no doubled or stray spaces').not.toMatch(/ {2}| [.,:;!]/);
        if (lng === 'en') {
          expect(line, 'a side named with its article').not.toMatch(/^Editor\b|[^e] Editor\b/);
          // Every token named by its colour has an article or a determiner before it.
          for (const m of line.matchAll(/(\S+) (?:face-(?:down|up) )?(?:blue|yellow|green)(?:\/(?:blue|yellow|green))* token/g)) expect(['a', 'the', 'every', 'no'], line).toContain(m[1]);
          expect(line, 'a list ends with "and"').not.toMatch(/token(?: \(red 1\))?, a [^,]+ token(?: \(red 1\))?\.$/);
        }
        if (lng === 'pt-BR') {
          expect(line, 'o Editor, com artigo').not.toMatch(/^Editor\b/);
          for (const m of line.matchAll(/(\S+) ficha (?:azul|amarela|verde)/g)) expect(['uma', 'a', 'na', 'da', 'à', 'numa', 'nenhuma'], line).toContain(m[1]);
        }
        if (key === 'informant.flip' || key === 'board.flip') expect(line, 'which way it turned').toMatch(/face up|face down|para cima|para baixo|正面朝上|背面朝上/);
        if (key === 'ability') expect(line.length, 'what the ability does').toBeGreaterThan(lng === 'zh-CN' ? 25 : 70);
        if (key === 'step.nothing') expect(line, 'says why').toMatch(/: .+|：.+/);
      });

  it('English: two gained tokens read "a … token and a … token"; one alone "a … token"', async () => {
    const { t } = await translator('en');
    const gain = (tokens: string) => logText(t, { round: 1, key: 'evidence.gain', player: '0', params: { tokens } } as LogEntry);
    expect(gain('T12')).toMatch(/^The Editor gained a [a-z/]+ token( \(red 1\))?\.$/);
    expect(gain('T12,T22')).toMatch(/^The Editor gained a [a-z/]+ token( \(red 1\))? and a [a-z/]+ token( \(red 1\))?\.$/);
    expect(gain('T12,T22,T28')).toMatch(/^The Editor gained a [^,]+, a [^,]+ and a [^,]+\.$/);
  });

  it('a turned picture says which way: face up for the Editor, face down for Nixon, in each language', async () => {
    for (const [lng, up, down] of [
      ['en', 'face up', 'face down'],
      ['pt-BR', 'para cima', 'para baixo'],
      ['zh-CN', '正面朝上', '背面朝上'],
    ] as const) {
      const { t } = await translator(lng);
      const flip = (player: '0' | '1') => logText(t, { round: 1, key: 'informant.flip', player, params: { informant: 'I_DEAN' } } as LogEntry);
      expect(flip('0')).toContain(up);
      expect(flip('1')).toContain(down);
    }
  });
});
