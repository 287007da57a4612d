// @vitest-environment happy-dom
/**
 * "Take back" on the match page (client/lobby/TakeBack.tsx), against answers of the undo route stubbed at
 * fetch: offered only when the server's status for the state on the board allows it, the reason given
 * otherwise (hover, tap, Ctrl+Z) without asking the server; the request it sends; the opponent's Accept /
 * Refuse; a request past its time not shown. Every reason and setting has words in the three languages.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import TakeBack from '../../client/lobby/TakeBack';
import { TAKE_BACK_SETTINGS } from '../../game/index';
import { TAKE_BACK_REASONS, undoPath, type MatchStatus, type TakeBackStatus } from '../../protocol/index';
import { resources } from '../helpers/i18n';
import { usePageWords } from '../helpers/page-words';

usePageWords();

const seat = { matchID: 'm1', playerID: '0' as const, credentials: 'secret-creds', name: 'Ann' };
const status = (tb: Partial<TakeBackStatus>): MatchStatus => ({
  matchID: 'm1',
  clock: null,
  standIns: {},
  away: {},
  abandonMinutes: null,
  rated: false,
  hints: false,
  now: Date.now(),
  takeBack: { mode: 'consent', stateID: 7, why: { '0': null, '1': 'opponent' }, request: null, ...tb },
});
/** fetch stubbed with one answer; the calls are kept. */
function answer(code: number, body: unknown) {
  const f = vi.fn(async () => new Response(JSON.stringify(body), { status: code, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', f);
  return f;
}
const button = () => screen.getByRole('button', { name: /Take back/ });

describe('words', () => {
  it.each(['en', 'pt-BR', 'zh-CN'] as const)('%s words every reason and every setting', (lng) => {
    const words = resources[lng].translation.takeBack as { why: Record<string, string>; settings: Record<string, string> };
    for (const r of TAKE_BACK_REASONS) expect(words.why[r]?.trim(), r).toBeTruthy();
    for (const v of TAKE_BACK_SETTINGS) expect(words.settings[v]?.trim(), v).toBeTruthy();
    expect(new Set(TAKE_BACK_SETTINGS.map((v) => words.settings[v])).size).toBe(TAKE_BACK_SETTINGS.length);
  });
});

describe('TakeBack', () => {
  it('allowed for the state on the board: asks the server for it, with the state seen', async () => {
    const f = answer(202, { pending: true });
    render(<TakeBack matchID="m1" seat={seat} status={status({})} stateID={7} />);
    expect(button().getAttribute('aria-disabled')).toBe('false');
    await act(async () => fireEvent.click(button()));
    expect(f).toHaveBeenCalledTimes(1);
    const [url, init] = f.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(undoPath('m1'));
    expect(JSON.parse(init.body as string)).toEqual({ playerID: '0', credentials: 'secret-creds', stateID: 7 });
  });

  it('a refusal from the server is shown in words; a status about another state offers nothing', async () => {
    const f = answer(409, { error: 'the game has moved on since the state you saw', reason: 'stale' });
    const { rerender } = render(<TakeBack matchID="m1" seat={seat} status={status({})} stateID={7} />);
    await act(async () => fireEvent.click(button()));
    expect(screen.getByRole('status').textContent).toBe('The game has moved on since.');
    rerender(<TakeBack matchID="m1" seat={seat} status={status({})} stateID={8} />);
    expect(button().getAttribute('aria-disabled')).toBe('true');
    await act(async () => fireEvent.click(button()));
    expect(f).toHaveBeenCalledTimes(1);
  });

  it('not allowed: the reason on hover and on a tap or Ctrl+Z, and the server is not asked', async () => {
    const f = answer(200, {});
    render(
      <>
        <input aria-label="chat" />
        <TakeBack matchID="m1" seat={seat} status={status({ why: { '0': 'hidden', '1': null } })} stateID={7} />
      </>,
    );
    const reason = 'A draw, a shuffle or something revealed came after your decision.';
    expect(button().getAttribute('aria-disabled')).toBe('true');
    expect(button().getAttribute('title')).toBe(reason);
    // Ctrl+Z while typing belongs to the text field.
    fireEvent.keyDown(screen.getByLabelText('chat'), { key: 'z', ctrlKey: true });
    expect(screen.queryByRole('status')).toBeNull();
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(screen.getByRole('status').textContent).toBe(reason);
    fireEvent.click(button());
    expect(screen.getByRole('status').textContent).toBe(reason);
    expect(f).not.toHaveBeenCalled();
  });

  it("the opponent's request: Accept and Refuse answer it; a request past its time is not shown", async () => {
    const f = answer(200, { stateID: 8 });
    const request = { by: '1' as const, stateID: 7, at: Date.now(), expiresAt: Date.now() + 60_000 };
    const { rerender } = render(<TakeBack matchID="m1" seat={seat} status={status({ why: { '0': 'pending', '1': 'pending' }, request })} stateID={7} />);
    expect(screen.getByRole('alert').textContent).toContain('Your opponent (Nixon) asks to take back their last decision.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Accept' })));
    expect(JSON.parse((f.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({ playerID: '0', credentials: 'secret-creds', stateID: 7, accept: true });
    rerender(<TakeBack matchID="m1" seat={seat} status={status({ request: { ...request, expiresAt: Date.now() - 1 } })} stateID={7} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('its own request waiting, then refused: said to the asker', () => {
    const mine = { by: '0' as const, stateID: 7, at: Date.now(), expiresAt: Date.now() + 60_000 };
    const { rerender } = render(<TakeBack matchID="m1" seat={seat} status={status({ why: { '0': 'pending', '1': 'pending' }, request: mine })} stateID={7} />);
    expect(screen.getByText('Asked: waiting for your opponent to answer.')).toBeTruthy();
    rerender(<TakeBack matchID="m1" seat={seat} status={status({ why: { '0': 'refused', '1': 'opponent' }, request: { ...mine, refused: true } })} stateID={7} />);
    expect(screen.getByText('Your opponent refused to let you take back this decision.')).toBeTruthy();
    expect(button().getAttribute('title')).toBe('Your opponent refused to take back this position.');
  });
});
