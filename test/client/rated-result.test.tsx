// @vitest-environment happy-dom
/**
 * What a finished game did to the ratings, as the game-over dialog and the profile show it
 * (client/account/RatedResult.tsx): each rated side's change ("Editor (Ann) 1500 → 1527?, +27", "?" after a
 * provisional rating) fetched from the result route, or why the game was not rated, in three languages;
 * nothing when the server has no result for this page.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { loadPageWords, setLanguage } from '../../client/i18n';
import { MatchRatedResult, SeatResults } from '../../client/account/RatedResult';
import { SEEN_TOGETHER_REFUSAL, UNRATED_REASONS, type MatchResult } from '../../protocol/accounts';
import { refusalText } from '../../client/account/AccountPage';
import { AccountError } from '../../client/account/api';
import { i18n } from '../../client/i18n';
import { usePageWords } from '../helpers/page-words';
import { StatusBar } from '../../client/board/Info';
import { playerView } from '../../game';
import { Scenario } from '../helpers/scenario';

usePageWords();

const rated: MatchResult = {
  matchID: 'm1',
  seats: [
    { side: '0', username: 'Ann', rated: true, unratedReason: null, ratingBefore: 1512.4, ratingAfter: 1527.2, provisional: false },
    { side: '1', username: 'Bob', rated: true, unratedReason: null, ratingBefore: 1500, ratingAfter: 1473, provisional: true },
  ],
};
const capped: MatchResult = {
  matchID: 'm2',
  seats: (['0', '1'] as const).map((side) => ({ side, username: side === '0' ? 'Ann' : 'Bob', rated: false, unratedReason: 'pair-limit' as const, ratingBefore: null, ratingAfter: null, provisional: false })),
};

describe('the rated result of a finished game', () => {
  it('fetches the result route and shows each side\'s change, "?" after a provisional rating', async () => {
    const f = vi.fn(async (input: string | URL | Request) => {
      const path = new URL(String(input)).pathname;
      return new Response(JSON.stringify(path === '/games/watergate/m1/result' ? rated : { matchID: 'gone', seats: [] }), { headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', f);
    const { container } = render(<MatchRatedResult matchID="m1" />);
    await waitFor(() => expect(container.textContent).toContain('Editor (Ann) 1512 → 1527, +15'));
    expect(container.textContent).toContain('Nixon (Bob) 1500 → 1473?, −27');
    expect(container.textContent).toMatch(/provisional/);
    const none = render(<MatchRatedResult matchID="gone" />);
    await waitFor(() => expect(f).toHaveBeenCalledTimes(2));
    expect(none.container.textContent).toBe('');
  });

  it.each([
    ['en', /Not rated: these two accounts already played 3 rated games/],
    ['pt-BR', /Não classificada: estas duas contas já jogaram 3 partidas classificadas/],
    ['zh-CN', /不计等级分：这两个账号在过去 24 小时内已经互相下了 3 局/],
  ] as const)('%s: says why a game was not rated', async (lng, words) => {
    // Every code the server records is worded (a new one without words would show its key).
    expect(UNRATED_REASONS).toContain('seen-together');
    await setLanguage(lng);
    await loadPageWords();
    try {
      const { container } = render(<SeatResults result={capped} />);
      expect(container.textContent).toMatch(words);
      expect(container.querySelector('[data-rated-result]')!.getAttribute('data-rated-result')).toBe('pair-limit');
      for (const why of ['casual', 'computer', 'guest', 'same-account', 'aborted-editor', 'aborted-nixon', 'few-decisions', 'seen-together'] as const) {
        const r = render(<SeatResults result={{ matchID: 'x', seats: [{ ...capped.seats[0], unratedReason: why }] }} />);
        expect(r.container.textContent, `${lng} ${why}`).not.toMatch(/result\.why|\{\{/);
        r.unmount();
      }
    } finally {
      await setLanguage('en');
    }
  });
});

describe('a rated challenge or join refused between accounts seen together', () => {
  it.each([
    ['en', /same network address or device.*casual game/],
    ['pt-BR', /mesmo endereço de rede ou dispositivo.*partida casual/],
    ['zh-CN', /同一网络地址或同一设备/],
  ] as const)('%s: says why, in the player\'s language', async (lng, words) => {
    await setLanguage(lng);
    await loadPageWords();
    try {
      expect(refusalText(i18n.t.bind(i18n) as never, new AccountError(409, SEEN_TOGETHER_REFUSAL, null))).toMatch(words);
    } finally {
      await setLanguage('en');
    }
  });
});

describe('a seat of a signed-in player', () => {
  it('shows its side rating, with "?" while provisional', () => {
    const view = playerView(new Scenario(3).G, '0');
    const seats = [
      { id: 0, name: 'Ann', account: { username: 'Ann', rating: 1612.4, provisional: false } },
      { id: 1, name: 'Bob', account: { username: 'Bob', rating: 1500, provisional: true } },
    ];
    const { container } = render(<StatusBar view={view} me="0" seats={seats} />);
    expect(container.textContent).toContain('Ann · 1612');
    expect(container.textContent).not.toContain('1612?');
    expect(container.textContent).toContain('Bob · 1500?');
  });
});
