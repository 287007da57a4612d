/** The board as a component test sees it: a seat's view of a state, with spies for the moves. */
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import type { BoardProps } from 'boardgame.io/react';
import { WatergateBoard } from '../../client/board/Board';
import { ShellContext, type Shell } from '../../client/board/shell';
import { playerView, type PlayerID, type WatergateState } from '../../game';

export function renderBoard(G: WatergateState, seat: PlayerID | null, shell: Shell = {}): HTMLElement {
  const moves = Object.fromEntries(['play', 'answer', 'target', 'react', 'choose', 'pin', 'resign'].map((m) => [m, vi.fn()]));
  const props = { G: playerView(G, seat), ctx: {}, playerID: seat, moves, events: {}, isConnected: true, isActive: true, isMultiplayer: false } as unknown as BoardProps<WatergateState>;
  return render(
    <ShellContext.Provider value={shell}>
      <WatergateBoard {...props} />
    </ShellContext.Provider>,
  ).container;
}
