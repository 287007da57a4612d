/**
 * The public game record: every line the engine writes is one of LOG_KEYS with public parameters, and
 * says in words who did what (in English here; every language has words for every key: client/i18n.test).
 */
import { describe as suite, expect, it } from 'vitest';
import { LOG_KEYS, type LogEntry } from '../../game';
import { logText } from '../../client/i18n/words';
import { translator } from '../helpers/i18n';
import { E, N, Scenario, randomGame } from '../helpers/scenario';

suite('the game record', () => {
  it('says in words who did what', async () => {
    const { t } = await translator('en');
    const line = (e: LogEntry) => logText(t, e);
    const s = new Scenario(200).hand(E, ['E31']).hand(N, ['N02', 'N20']).turn(N);
    s.value(N, 'N02', { kind: 'initiative' });
    expect(line(s.G.log.at(-1)!)).toBe('Nixon played Chuck Colson for its value: moved the initiative token 1 step.');
    s.action(E, 'E31').pass(N);
    expect(s.G.log.slice(-3).map(line)).toEqual(['The Editor played John Dean for its action.', 'Nixon did not react.', 'The Editor pinned the picture of John Dean face up.']);
  });

  it('writes only known keys with plain public parameters, and most kinds of line occur in 40 games', () => {
    const keys = new Set<string>();
    for (let g = 0; g < 40; g++) {
      const G = randomGame(300 + g, { setup: g % 2 ? { jokerFallback: 'rulebook2019', pinImpossible: 'removeFromGame' } : undefined });
      for (const entry of G.log) {
        keys.add(entry.key);
        expect(LOG_KEYS, entry.key).toContain(entry.key);
        for (const v of Object.values(entry.params)) expect(['string', 'number']).toContain(typeof v);
      }
    }
    expect(keys.size).toBeGreaterThan(30);
  });
});
