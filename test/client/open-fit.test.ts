/** Which open match "Play now" joins before it queues (client/lobby/openFit.ts). */
import { describe, expect, it } from 'vitest';
import type { PublicMatch } from '../../protocol/index';
import { openMatchFor } from '../../client/lobby/openFit';

const match = (id: string, o: Partial<PublicMatch> & { host?: { seat: 0 | 1; name: string; bot?: boolean } } = {}): PublicMatch => {
  const h = o.host ?? { seat: 0, name: 'Hanna' };
  const players = [0, 1].map((id) => (id === h.seat ? { id, name: h.name, ...(h.bot ? { data: { bot: 'normal' } } : {}) } : { id }));
  return { matchID: id, gameName: 'watergate', players, createdAt: 1000, updatedAt: 1000, ...o } as unknown as PublicMatch;
};
const untimed = { side: 'either', clock: 'none', rated: false } as const;

describe('Play now’s look at the open list', () => {
  it('takes the free seat of the longest-waiting person on the same terms', () => {
    const list = [match('new', { createdAt: 3000 }), match('old', { createdAt: 2000, host: { seat: 1, name: 'Olga' } })];
    expect(openMatchFor(list, untimed, new Set())).toEqual({ matchID: 'old', seat: '0' });
  });
  it('passes over the computer, full or empty matches, its own, other terms and the wrong side', () => {
    const list = [
      match('bot', { host: { seat: 0, name: 'Computer', bot: true } }),
      match('mine'),
      match('rated', { rated: true }),
      match('live', { setupData: { clock: { initialSeconds: 600, incrementSeconds: 10 } } }),
      match('kept', { kept: { seat: '1', until: Date.now() + 60_000 } }),
      { ...match('full'), players: [{ id: 0, name: 'A' }, { id: 1, name: 'B' }] } as PublicMatch,
    ];
    expect(openMatchFor(list, untimed, new Set(['mine']))).toBeNull();
    expect(openMatchFor([match('ed')], { ...untimed, side: '0' }, new Set())).toBeNull();
    expect(openMatchFor([match('ed')], { ...untimed, side: '1' }, new Set())).toEqual({ matchID: 'ed', seat: '1' });
    expect(openMatchFor(list, { side: 'either', clock: 'live', rated: false }, new Set())).toEqual({ matchID: 'live', seat: '1' });
    expect(openMatchFor(list, { side: 'either', clock: 'none', rated: true }, new Set())).toEqual({ matchID: 'rated', seat: '1' });
  });
});
