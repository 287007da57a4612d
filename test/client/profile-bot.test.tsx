// @vitest-environment happy-dom
/**
 * A bot account's profile says so (its server answer carries `bot: true`: test/server/bot-api.test.ts),
 * in the page's language; a player's profile does not.
 */
import { describe, expect, it, vi } from 'vitest';
import { render } from '@testing-library/react';
import { usePageWords } from '../helpers/page-words';
import ProfilePage from '../../client/account/ProfilePage';
import pages from '../../client/i18n/locales/pages/pt-BR';

usePageWords('pt-BR');

const side = { rating: 1500, rd: 350, games: 0 };
const profile = (bot: boolean) => ({
  username: 'randombot',
  ...(bot ? { bot: true } : {}),
  ratings: { editor: side, nixon: side },
  history: { editor: [], nixon: [] },
  bySide: { editor: { won: 0, lost: 0 }, nixon: { won: 0, lost: 0 } },
  byOpponent: [],
  byLevel: [],
  averageMoves: null,
  averageMinutes: null,
  matches: [],
});

describe('the profile page', () => {
  for (const bot of [true, false]) {
    it(bot ? 'says a bot account is a bot' : 'says nothing of bots for a player', async () => {
      vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(profile(bot)), { headers: { 'content-type': 'application/json' } })));
      const { container } = render(<ProfilePage username="randombot" />);
      await vi.waitFor(() => expect(container.querySelector('[data-profile]')).not.toBeNull());
      expect(container.querySelector('[data-bot]')?.textContent ?? null).toBe(bot ? pages.profile!.bot : null);
    });
  }
});
