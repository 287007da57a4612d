// @vitest-environment happy-dom
/**
 * The chime and the page's "your move" notice (a browser notification while the tab is hidden) come each
 * time a decision becomes the player's — also when the opponent's answer arrives in the same frame as the
 * echo of the player's own move, so the board never shows the player not owing in between (a quick
 * opponent, a busy device) — and not for the player's own next decision, even when the rules wrote lines
 * under the other side's name on the way (cards drawn, an answer nobody could give).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { BoardProps } from 'boardgame.io/react';
import { WatergateBoard } from '../../client/board/Board';
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

/** A board of the Editor's seat; `show` gives it a later state (`stateID`: boardgame.io's state counter). */
function board(G: WatergateState, stateID: number, shell: Shell) {
  const props = (g: WatergateState, id: number) => ({ G: playerView(g, E), ctx: {}, _stateID: id, playerID: E, moves: {}, events: {}, isConnected: true, isActive: true, isMultiplayer: true }) as unknown as BoardProps<WatergateState>;
  const ui = (g: WatergateState, id: number) => (
    <ShellContext.Provider value={shell}>
      <WatergateBoard {...props(g, id)} />
    </ShellContext.Provider>
  );
  const r = render(ui(G, stateID));
  return { show: (g: WatergateState, id: number) => r.rerender(ui(g, id)) };
}

/**
 * From seeded games (each move one state on): an Editor's decision, his next one right after his own move
 * — one whose move wrote lines under Nixon's name — and his next decision after Nixon has decided.
 */
function editorDecisions() {
  for (let seed = 1; seed < 50; seed++) {
    const ds: { G: WatergateState; player: PlayerID }[] = [];
    for (const d of randomDecisions(seed, 200)) ds.push({ G: structuredClone(d.G), player: d.player }); // the live state, copied as it is now
    for (let i = 0; i + 1 < ds.length; i++) {
      const [a, b] = [ds[i], ds[i + 1]];
      if (a.player !== E || b.player !== E || !b.G.log.slice(a.G.log.length).some((l) => l.player === '1')) continue;
      const nixon = ds.findIndex((d, j) => j > i + 1 && d.player !== E);
      const back = nixon < 0 ? -1 : ds.findIndex((d, j) => j > nixon && d.player === E);
      if (back >= 0) return { first: { G: a.G, id: i }, again: { G: b.G, id: i + 1 }, back: { G: ds[back].G, id: back } };
    }
  }
  throw new Error("no seeded game had two Editor decisions in a row with a line of Nixon's between");
}

describe("the player's turn notice", () => {
  it("comes when the decision becomes the player's, not again for his own next one (Nixon's name in its lines), and again when Nixon's answer comes with his own move's echo", () => {
    const { first, again, back } = editorDecisions();
    const yourTurn = vi.fn();
    const page = board(first.G, first.id, { online: true, yourTurn });
    expect(yourTurn).toHaveBeenCalledTimes(1);
    page.show(again.G, again.id);
    expect(yourTurn).toHaveBeenCalledTimes(1);
    // Nixon's decision and the Editor's next one in one update: the board never showed Nixon to move.
    page.show(back.G, back.id);
    expect(yourTurn).toHaveBeenCalledTimes(2);
  });

  it('a local board (no page around it to tell) gets none', () => {
    const { first } = editorDecisions();
    const yourTurn = vi.fn();
    board(first.G, first.id, { online: false, yourTurn });
    expect(yourTurn).not.toHaveBeenCalled();
  });
});
