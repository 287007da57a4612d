/**
 * The lobby forms refuse what the server would (protocol/names.ts) before sending, in the player's
 * language: an empty name, hidden characters and the computer's name each get their own words.
 */
import { describe, expect, it } from 'vitest';
import { formName } from '../../client/lobby/seats';
import { translator } from '../helpers/i18n';

describe('the name in the lobby forms', () => {
  it('is sent tidied when the server would take it', () => {
    expect(formName('  Ann \u00A0 Lee ')).toEqual({ name: 'Ann Lee' });
  });

  it('is refused with a message of its own in every language', async () => {
    for (const lng of ['en', 'pt-BR', 'zh-CN']) {
      const { t, missing } = await translator(lng);
      const said = ['', 'Ann\u202Enoxin', 'Computer', '电脑（困难）', 'x'.repeat(41)].map((raw) => {
        const r = formName(raw);
        expect('error' in r, `${lng} ${raw}`).toBe(true);
        return t((r as { error: string }).error);
      });
      expect(missing, lng).toEqual([]);
      // Empty, hidden characters, the computer (twice, the same words), too long: four different messages.
      expect(new Set(said).size, lng).toBe(4);
      expect(said[2]).toBe(said[3]);
    }
  });
});
