// @vitest-environment happy-dom
/**
 * The board as a component, without a browser (as FreeBoardGames tests its boards): rendered from a seat's
 * view with the moves as spies, a click on a highlighted target calls the engine's move with exactly one
 * of the legal arguments, and what is not a legal target cannot be clicked.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import type { BoardProps } from 'boardgame.io/react';
import { WatergateBoard } from '../../client/board/Board';
import { ShellContext } from '../../client/board/shell';
import { initI18n } from '../../client/i18n';
import { legalMovesFromView } from '../../client/legal';
import { playerView, type MoveChoice, type PlayerID, type WatergateState } from '../../game';
import { E, N, Scenario } from '../helpers/scenario';

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
});
afterEach(cleanup);

type Seats = { id: number; name?: string; isConnected?: boolean }[];

/** The board for a seat; `online` with the seats as the server describes them (else a local match). */
function board(G: WatergateState, seat: PlayerID | null, online?: Seats, extra: Record<string, unknown> = {}) {
  const view = playerView(G, seat);
  const moves = Object.fromEntries(['play', 'answer', 'target', 'react', 'choose', 'pin', 'resign'].map((m) => [m, vi.fn()])) as Record<MoveChoice['move'], ReturnType<typeof vi.fn>>;
  const props = { G: view, ctx: {}, playerID: seat, moves, events: {}, matchData: online, isConnected: true, isActive: true, isMultiplayer: !!online, chatMessages: [], sendChatMessage: vi.fn(), ...extra } as unknown as BoardProps<WatergateState>;
  const r = render(
    <ShellContext.Provider value={{ online: !!online }}>
      <WatergateBoard {...props} />
    </ShellContext.Provider>,
  );
  const legal = seat === null ? [] : legalMovesFromView(view, seat).map((m) => JSON.stringify([m.move, m.args[0]]));
  /** The one call made to any move, as [move, argument]. */
  const called = () => Object.entries(moves).flatMap(([name, fn]) => fn.mock.calls.map((c) => JSON.stringify([name, c[0]])));
  return { ...r, moves, legal, called };
}

describe('the board component', () => {
  it('a hand card, then a track token: plays the card for its value on that token, a legal move', () => {
    const s = new Scenario(300).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const b = board(s.G, E);
    // Before a card is chosen, the track's tokens are pictures, not buttons.
    expect(b.container.querySelector('.track [data-piece="initiative"]')!.getAttribute('role')).toBe('img');
    fireEvent.click(b.container.querySelector('.hand-cards button[data-card="E24"]')!);
    const initiative = b.container.querySelector('.track [data-piece="initiative"]')!;
    expect(initiative.getAttribute('role')).toBe('button');
    fireEvent.click(initiative);
    expect(b.called()).toEqual([JSON.stringify(['play', { card: 'E24', as: 'value', target: { kind: 'initiative' } }])]);
    expect(b.legal).toContain(b.called()[0]);
  });

  it('every option the prompt panel offers is a legal move, and clicking it plays exactly that', () => {
    const s = new Scenario(301).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const b = board(s.G, E);
    fireEvent.click(b.container.querySelector('.hand-cards button[data-card="E31"]')!);
    const options = [...b.container.querySelectorAll('.prompt button[data-move]')];
    expect(options.length).toBeGreaterThan(0);
    fireEvent.click(options.at(-1)!);
    expect(b.called()).toHaveLength(1);
    expect(b.legal).toContain(b.called()[0]);
  });

  it('pinning: a highlighted empty space of the token\'s colour pins it there', () => {
    const s = new Scenario(302).track([{ id: 'T02', pos: 4, up: true }]).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    s.value(E, 'E24', { kind: 'evidence', token: 'T02' });
    expect(s.G.prompt).toMatchObject({ kind: 'pin', player: E });
    const b = board(s.G, E);
    const spaces = [...b.container.querySelectorAll('[data-space][role="button"]')];
    expect(spaces.length).toBe(b.legal.length);
    fireEvent.click(spaces[0]);
    expect(b.called()).toHaveLength(1);
    expect(b.called()[0]).toMatch(/^\["pin",\{"token":"T02","space":"/);
    expect(b.legal).toContain(b.called()[0]);
  });

  it('resigning asks first, then makes the resign move (no argument); it is never among the prompt\'s options', () => {
    const s = new Scenario(304).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const b = board(s.G, E);
    expect(b.container.querySelector('[data-resign-confirm]')).toBeNull();
    fireEvent.click(b.container.querySelector('[data-resign]')!);
    expect(b.moves.resign).not.toHaveBeenCalled();
    expect(b.container.querySelector('.resign.confirm')!.textContent).toContain('Nixon wins at once');
    fireEvent.click(b.container.querySelector('[data-resign-confirm]')!);
    expect(b.moves.resign).toHaveBeenCalledTimes(1);
    expect(b.moves.resign.mock.calls[0]).toEqual([]);
    expect(b.legal.some((m) => m.includes('resign'))).toBe(false);
  });

  it('the opponent and spectators get nothing to click while the Editor decides', () => {
    const s = new Scenario(303).hand(E, ['E24', 'E31']).hand(N, ['N20', 'N02']);
    for (const seat of [N, null]) {
      const b = board(s.G, seat);
      expect(b.container.querySelectorAll('[role="button"], .prompt button[data-move]')).toHaveLength(0);
      expect(b.container.querySelectorAll('.hand-cards button')).toHaveLength(0);
      cleanup();
    }
  });

  it('two quick clicks on an option send one move: the second waits for the state the first one makes', () => {
    const s = new Scenario(305).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const b = board(s.G, E);
    fireEvent.click(b.container.querySelector('.hand-cards button[data-card="E31"]')!);
    const option = b.container.querySelector('.prompt button[data-move]')!;
    fireEvent.click(option);
    fireEvent.click(option);
    fireEvent.click(option);
    expect(b.called()).toHaveLength(1);
  });

  it('online with a seat still free: no "your move", nothing to click, and it says whom the game waits for', () => {
    const s = new Scenario(306).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const b = board(s.G, E, [{ id: 0, name: 'Ann', isConnected: true }, { id: 1 }]);
    expect(b.container.querySelector('[data-waiting="1"]')!.textContent).toContain('Waiting for Nixon to join');
    expect(b.container.querySelectorAll('[role="button"], .prompt button[data-move], [data-resign]')).toHaveLength(0);
    fireEvent.click(b.container.querySelector('.hand-cards button[data-card="E31"]') ?? document.body);
    expect(b.called()).toEqual([]);
    cleanup();
    // Once Nixon has joined, the same state is the Editor's move.
    const both = board(s.G, E, [{ id: 0, name: 'Ann', isConnected: true }, { id: 1, name: 'Bob', isConnected: true }]);
    expect(both.container.querySelector('[data-waiting]')).toBeNull();
    expect(both.container.querySelectorAll('.hand-cards button').length).toBeGreaterThan(0);
  });

  it("online, the players' chat is on a seat's page only: a spectator's page has no chat (the server sends it none)", async () => {
    const s = new Scenario(309).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const seats = [{ id: 0, name: 'Ann', isConnected: true }, { id: 1, name: 'Bob', isConnected: true }];
    const seated = board(s.G, N, seats);
    // The chat loads on demand: once it is there for a seat, it would be there at once for anyone.
    await waitFor(() => expect(seated.container.querySelector('section.chat form.chat-say')).not.toBeNull());
    cleanup();
    const watching = board(s.G, null, seats);
    await new Promise((r) => setTimeout(r, 50));
    expect(watching.container.querySelector('.chat, .chat-lines, [data-chat-unread]')).toBeNull();
    expect(watching.container.querySelector('.track')).not.toBeNull(); // the board itself is there
  });

  it("online, a spectator's page has the spectators' room instead: its lines under the server's pseudonyms, as text, and what the spectator says goes there", async () => {
    const s = new Scenario(310).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const seats = [{ id: 0, name: 'Ann', isConnected: true }, { id: 1, name: 'Bob', isConnected: true }];
    const say = vi.fn();
    const lines = [{ id: 'w1', who: 'Qx3a', text: '<b>Who is Deep Throat?</b>', at: 1 }];
    // Even a players' line in boardgame.io's chat props would not be shown to a spectator.
    const watching = board(s.G, null, seats, { watchers: { lines, say }, chatMessages: [{ id: 'p1', sender: '0', payload: 'a players-only line' }] });
    const room = await waitFor(() => {
      const r = watching.container.querySelector('section.watchers');
      expect(r).not.toBeNull();
      return r!;
    });
    expect(room.getAttribute('aria-label')).toBe("Spectators' chat");
    expect(room.textContent).toContain('Only spectators read this: the players do not see it.');
    expect([...room.querySelectorAll('.chat-lines li')].map((li) => li.textContent)).toEqual(['Spectator Qx3a: <b>Who is Deep Throat?</b>']);
    expect(room.querySelector('.chat-lines b')).toBeNull();
    expect(watching.container.textContent).not.toContain('a players-only line');
    fireEvent.change(room.querySelector('input')!, { target: { value: '  Follow the money  ' } });
    fireEvent.submit(room.querySelector('form')!);
    expect(say).toHaveBeenCalledWith('Follow the money');
    cleanup();
    // A seat's page has the players' chat, never the spectators' room.
    const seated = board(s.G, E, seats, { watchers: { lines, say } });
    await waitFor(() => expect(seated.container.querySelector('section.chat form.chat-say')).not.toBeNull());
    expect(seated.container.querySelector('section.watchers')).toBeNull();
  });

  it('the game record numbers its lines without gaps: round and assessment headings take no number', () => {
    const s = new Scenario(307).hand(E, ['E24', 'E31']).hand(N, ['N20']);
    const b = board(s.G, E);
    const lines = [...b.container.querySelectorAll<HTMLLIElement>('.record-lines li')];
    const headings = lines.filter((l) => l.matches('.rec-round, .rec-assessment'));
    expect(headings.length).toBeGreaterThan(0);
    expect(headings.every((l) => !l.hasAttribute('value'))).toBe(true);
    const numbers = lines.filter((l) => !headings.includes(l)).map((l) => Number(l.getAttribute('value')));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });
});
