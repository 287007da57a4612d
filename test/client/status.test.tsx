// @vitest-environment happy-dom
/**
 * The away opponent on the match page (client/lobby/Status.tsx): in an unrated match the button lets the
 * computer play the away seat; in a rated match it says what it does — the away player loses (or the
 * game is aborted) — and sends the same request. Words in the three languages.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import Status from '../../client/lobby/Status';
import type { MatchStatus } from '../../protocol/index';
import { resources } from '../helpers/i18n';
import { usePageWords } from '../helpers/page-words';

usePageWords();
const seat = { matchID: 'm1', playerID: '0' as const, credentials: 'secret-creds', name: 'Ann' };
const status = (rated: boolean, awayFor: number): MatchStatus => ({ matchID: 'm1', clock: null, standIns: {}, away: { '1': Date.now() - awayFor }, abandonMinutes: 60, rated, hints: false, now: Date.now() });

describe('an away opponent', () => {
  it('unrated: the computer may play for them after the limit', () => {
    render(<Status status={status(false, 61 * 60_000)} seat={seat} over={false} />);
    expect(screen.getByRole('button').textContent).toMatch(/computer play for Nixon/);
  });

  it('rated: the button ends the game (Nixon loses) and sends the hand-over request; before the limit, the page says so', async () => {
    const f = vi.fn(async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', f);
    const { unmount } = render(<Status status={status(true, 61 * 60_000)} seat={seat} over={false} />);
    const b = screen.getByRole('button');
    expect(b.textContent).toMatch(/End the game: Nixon was away too long/);
    expect(b.textContent).not.toMatch(/computer/);
    await act(async () => fireEvent.click(b));
    expect((f.mock.calls[0] as unknown as [string])[0]).toMatch(/\/games\/watergate\/m1\/standIn$/);
    unmount();
    render(<Status status={status(true, 10 * 60_000)} seat={seat} over={false} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(document.body.textContent).toMatch(/Nixon loses this rated game/);
  });

  it.each(['en', 'pt-BR', 'zh-CN'] as const)('%s words both', (lng) => {
    const words = (resources[lng].translation as unknown as { status: Record<string, string> }).status;
    for (const k of ['claim', 'claimLater', 'handOver', 'handOverLater']) expect(words[k]?.trim(), `${lng} ${k}`).toBeTruthy();
  });
});
