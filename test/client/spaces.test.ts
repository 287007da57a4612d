/**
 * Players find a board space by what they see — its colour, its ring and where it lies around Nixon's
 * picture, as on a clock face — not by its code (B01), which only "Show sources" draws. Every
 * space gets its own name in every language, and the prompts and the record use it.
 */
import { describe, expect, it } from 'vitest';
import { SPACES, type LogEntry } from '../../game';
import { logText, spaceName } from '../../client/i18n/words';
import { translator } from '../helpers/i18n';

const LANGS = ['en', 'pt-BR', 'zh-CN'] as const;
const CODE = /\b[ABC]\d{1,2}\b/;

describe('board spaces in words', () => {
  it.each(LANGS)('%s: every evidence space has a name of its own, with no code in it', async (lng) => {
    const { t, missing } = await translator(lng);
    const names = SPACES.map((s) => spaceName(t, s.id));
    expect(new Set(names).size).toBe(SPACES.length);
    for (const n of names) expect(n).not.toMatch(CODE);
    expect(missing).toEqual([]);
  });

  it('the names follow the board: colour, ring and clock position (12 at the top, clockwise)', async () => {
    const { t } = await translator('en');
    expect(spaceName(t, 'A1')).toBe('the yellow space at 1 o’clock, inner ring'); // just right of the top
    expect(spaceName(t, 'A4')).toBe('the green space at 6 o’clock, inner ring'); // straight below Nixon
    expect(spaceName(t, 'B12')).toBe('the blue space at 9 o’clock, middle ring'); // straight left
    expect(spaceName(t, 'C2')).toBe('the green space at 2 o’clock, outer ring');
    expect(spaceName(t, 3)).toBe('3'); // a track or momentum space stays a number
  });

  it.each(LANGS)('%s: the record names pinned, turned and removed tokens\' spaces in words', async (lng) => {
    const { t, missing } = await translator(lng);
    for (const key of ['pin.up', 'pin.down', 'board.flip', 'board.remove'] as const) {
      const line = logText(t, { round: 1, player: '0', key, params: { token: 'T01', space: 'B07' } } as LogEntry);
      expect(line).toContain(spaceName(t, 'B07'));
      expect(line).not.toMatch(CODE);
    }
    expect(missing).toEqual([]);
  });
});
