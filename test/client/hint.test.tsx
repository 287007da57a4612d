// @vitest-environment happy-dom
/**
 * "What would the computer do?" on the board: offered only when the match allows hints, to the player who
 * owes the decision, never in the tutorial; its answer is our bot's move for the player's own view (here
 * the bot runs in this thread instead of the browser's Web Worker), one of the legal moves, marked on the
 * hand and in the prompt, with a sentence saying it.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import type { BoardProps } from 'boardgame.io/react';
import { WatergateBoard } from '../../client/board/Board';
import { ShellContext, type Shell } from '../../client/board/shell';
import { initI18n } from '../../client/i18n';
import { legalMovesFromView, moveKey } from '../../client/legal';
import { playerView, type MoveChoice, type PlayArgs, type PlayerID, type WatergateState, type WatergateView } from '../../game';
import { E, N, Scenario } from '../helpers/scenario';

/** The views the bot was asked about, and its answers. */
const asked: { view: WatergateView; move: MoveChoice }[] = [];
vi.mock('../../bots/browser', async () => {
  const { think } = await import('../../bots/levels');
  return {
    thinkInBrowser: async (view: WatergateView, config: object) => {
      const decision = think(view, { ...config, iterations: 200, deterministic: true });
      asked.push({ view, move: decision.move });
      return decision;
    },
  };
});

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
});
afterEach(() => {
  cleanup();
  asked.length = 0;
});

function board(G: WatergateState, seat: PlayerID, shell: Shell) {
  const view = playerView(G, seat);
  const moves = Object.fromEntries(['play', 'answer', 'target', 'react', 'choose', 'pin', 'resign'].map((m) => [m, vi.fn()]));
  const props = { G: view, ctx: {}, playerID: seat, moves, events: {}, isConnected: true, isActive: true, isMultiplayer: false } as unknown as BoardProps<WatergateState>;
  const r = render(
    <ShellContext.Provider value={shell}>
      <WatergateBoard {...props} />
    </ShellContext.Provider>,
  );
  return { ...r, view, legal: legalMovesFromView(view, seat).map(moveKey) };
}

const scenario = () => new Scenario(410).hand(E, ['E24', 'E31', 'E42']).hand(N, ['N20', 'N02']);

describe('the hint', () => {
  it('is offered only with hints on, to the player who owes the decision, and never in the tutorial', async () => {
    const G = scenario().G;
    // The button loads on demand (like the chat): once it has shown, the board draws it at once.
    const first = board(G, E, { hints: true });
    await waitFor(() => expect(first.container.querySelector('[data-hint]')).not.toBeNull());
    cleanup();
    const button = (seat: PlayerID, shell: Shell) => {
      const found = board(G, seat, shell).container.querySelector('[data-hint]') !== null;
      cleanup();
      return found;
    };
    expect(button(E, {})).toBe(false);
    expect(button(E, { hints: false })).toBe(false);
    expect(button(E, { hints: true })).toBe(true);
    expect(button(N, { hints: true })).toBe(false); // the Editor decides, not Nixon
    expect(button(E, { hints: true, guide: { move: null } })).toBe(false);
  });

  it("asks the bot about the player's own view and marks its move, one of the legal moves", async () => {
    const b = board(scenario().G, E, { hints: true });
    fireEvent.click(await waitFor(() => b.container.querySelector('[data-hint]')!));
    await waitFor(() => expect(b.container.querySelector('[data-hint-text]')).not.toBeNull());
    expect(asked).toHaveLength(1);
    expect(asked[0].view.viewer).toBe(E);
    expect('decks' in asked[0].view || 'bag' in asked[0].view).toBe(false); // a view, not the state
    const move = asked[0].move;
    expect(b.legal).toContain(moveKey(move));
    const { card } = move.args[0] as PlayArgs;
    expect(b.container.querySelector('[data-hint-text]')!.textContent).toMatch(/^The computer would: /);
    // The card is marked in the hand; once chosen, so is the option that plays it the suggested way.
    const marked = [...b.container.querySelectorAll('.hand-cards [data-suggested]')].map((c) => c.getAttribute('data-card'));
    expect(marked).toEqual([card]);
    fireEvent.click(b.container.querySelector(`.hand-cards button[data-card="${card}"]`)!);
    expect(b.container.querySelectorAll('.prompt button[data-suggested]')).toHaveLength(1);
  });

  it('the tutorial offers only its move, marked', () => {
    const G = scenario().G;
    const view = playerView(G, E);
    const wanted = legalMovesFromView(view, E).find((m) => (m.args[0] as PlayArgs).card === 'E31' && (m.args[0] as PlayArgs).as === 'action')!;
    const b = board(G, E, { guide: { move: wanted } });
    expect(b.container.querySelector('.hand-cards [data-suggested]')!.getAttribute('data-card')).toBe('E31');
    fireEvent.click(b.container.querySelector('.hand-cards button[data-card="E31"]')!);
    const options = [...b.container.querySelectorAll('.prompt button[data-move]')];
    expect(options).toHaveLength(1);
    expect(options[0].hasAttribute('data-suggested')).toBe(true);
  });
});
