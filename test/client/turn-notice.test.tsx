// @vitest-environment happy-dom
/**
 * The chime and the page's "your move" notice (a browser notification while the tab is hidden) come each
 * time a decision becomes the player's — also when the opponent's answer arrives in the same frame as the
 * echo of the player's own move, so the board never shows the player not owing in between (a quick
 * opponent, a busy device) — and not for a decision that follows the player's own with nobody else acting.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { BoardProps } from 'boardgame.io/react';
import { WatergateBoard } from '../../client/board/Board';
import { lastLineNotBy } from '../../client/board/lastMove';
import { ShellContext, type Shell } from '../../client/board/shell';
import { initI18n } from '../../client/i18n';
import { playerView, type PlayerID, type WatergateState } from '../../game';
import { randomDecisions } from '../helpers/rng';

beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
});
afterEach(cleanup);

const E: PlayerID = '0';

function board(G: WatergateState, shell: Shell) {
  const props = (g: WatergateState) => ({ G: playerView(g, E), ctx: {}, playerID: E, moves: {}, events: {}, isConnected: true, isActive: true, isMultiplayer: true }) as unknown as BoardProps<WatergateState>;
  const ui = (g: WatergateState) => (
    <ShellContext.Provider value={shell}>
      <WatergateBoard {...props(g)} />
    </ShellContext.Provider>
  );
  const r = render(ui(G));
  return { show: (g: WatergateState) => r.rerender(ui(g)) };
}

/**
 * From seeded games: an Editor's decision that follows his own with no line of anyone else's between
 * (`again`), and his next decision after Nixon has decided (`back`).
 */
function editorDecisions(): { first: WatergateState; again: WatergateState; back: WatergateState } {
  for (let seed = 1; seed < 50; seed++) {
    const ds: { G: WatergateState; player: PlayerID }[] = [];
    for (const d of randomDecisions(seed, 200)) ds.push({ G: structuredClone(d.G), player: d.player }); // the live state, copied as it is now
    for (let i = 0; i + 1 < ds.length; i++) {
      const [a, b] = [ds[i], ds[i + 1]];
      if (a.player !== E || b.player !== E || lastLineNotBy(a.G.log, E) !== lastLineNotBy(b.G.log, E)) continue;
      const nixon = ds.findIndex((d, j) => j > i + 1 && d.player !== E);
      const back = nixon < 0 ? undefined : ds.find((d, j) => j > nixon && d.player === E);
      if (back) return { first: a.G, again: b.G, back: back.G };
    }
  }
  throw new Error('no seeded game had two Editor decisions in a row');
}

describe("the player's turn notice", () => {
  it("comes when the decision becomes the player's, not again for his own next one, and again when Nixon's answer comes with his own move's echo", () => {
    const { first, again, back } = editorDecisions();
    const yourTurn = vi.fn();
    const page = board(first, { online: true, yourTurn });
    expect(yourTurn).toHaveBeenCalledTimes(1);
    page.show(again);
    expect(yourTurn).toHaveBeenCalledTimes(1);
    // Nixon's decision and the Editor's next one in one update: the board never showed Nixon to move.
    page.show(back);
    expect(yourTurn).toHaveBeenCalledTimes(2);
  });

  it('a local board (no page around it to tell) gets none', () => {
    const { first } = editorDecisions();
    const yourTurn = vi.fn();
    board(first, { online: false, yourTurn });
    expect(yourTurn).not.toHaveBeenCalled();
  });
});
