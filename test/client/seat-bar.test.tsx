// @vitest-environment happy-dom
/**
 * The seat bar above the board: before the game an empty seat is waited for; in a finished game nobody
 * is — a seat its player left (the Lobby's leave empties it) says so, the seats still held show who
 * played, and no seat says "waiting for a player". In all three languages.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { initI18n, setLanguage } from '../../client/i18n';
import { StatusBar, type Seat } from '../../client/board/Info';
import { playerView, type PlayerID } from '../../game';
import { Scenario } from '../helpers/scenario';

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
});
afterEach(cleanup);
afterAll(() => setLanguage('en', false));

const chips = (view: ReturnType<typeof playerView>, me: PlayerID | null, seats: Seat[]) => {
  const el = render(<StatusBar view={view} me={me} seats={seats} />).container;
  return Object.fromEntries([...el.querySelectorAll('[data-seat]')].map((c) => [c.getAttribute('data-seat'), c.textContent ?? '']));
};

/** Ann (the Editor) left the table; Ben (Nixon) is still at it. */
const seats: Seat[] = [{ id: 0 }, { id: 1, name: 'Ben', isConnected: true }];

describe('the seat bar', () => {
  it('waits for a player at an empty seat while the game can start', () => {
    const s = new Scenario(7);
    const bar = chips(playerView(s.G, null), null, seats);
    expect(bar['0']).toContain('waiting for a player');
    expect(bar['1']).toContain('Ben');
  });

  it('in a finished game, says the empty seat\'s player left, shows who played, and waits for nobody', () => {
    const s = new Scenario(7);
    s.act('0', 'resign');
    const view = playerView(s.G, null);
    expect(view.phase).toBe('gameover');
    // As a spectator (both seats shown with their state) and as Nixon (the other seat shown).
    for (const me of [null, '1'] as const) {
      const bar = chips(view, me, seats);
      expect(bar['0']).toContain('left the table');
      expect(bar['0']).not.toContain('waiting');
      if (me === null) expect(bar['1']).toContain('(Ben)');
      cleanup();
    }
  });

  it('says so in Portuguese and Chinese too', async () => {
    const s = new Scenario(7);
    s.act('0', 'resign');
    const view = playerView(s.G, null);
    for (const [lang, left, waiting] of [
      ['pt-BR', 'saiu da mesa', 'aguardando um jogador'],
      ['zh-CN', '已离开牌桌', '等待玩家'],
    ] as const) {
      await setLanguage(lang, false);
      const bar = chips(view, null, seats);
      expect(bar['0']).toContain(left);
      expect(bar['0']).not.toContain(waiting);
      cleanup();
    }
  });
});
