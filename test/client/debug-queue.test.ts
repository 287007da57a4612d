/**
 * The Debug panel's bot (client/local/debugAI.ts) when a developer presses "play" or "simulate" while it
 * searches: the press waits for that search's move (the page is told, to say so), then searches from the
 * board that move left, and the run it took over from ends at its next step (one run at a time). Real
 * states of a seeded game, boardgame.io's MCTSBot with the page's sliced search, a stand-in for the
 * page's client that applies each move as its store would; the real clock (the search slices by it).
 */
import { describe, expect, it } from 'vitest';
import { MCTSBot } from 'boardgame.io/ai';
import type { Game, State } from 'boardgame.io';
import { advanceMove, Watergate, type PlayerID, type WatergateState } from '../../game';
import { debugRunner, installSlicedSearch } from '../../client/local/debugAI';
import type { GameClientInstance } from '../../client/net/GameClient';
import { initialState } from '../../tools/playout';

type S = State<WatergateState>;
type Action = { type: string; payload: { type: string; args: unknown[]; playerID: PlayerID } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the Debug panel's bot, pressed during its own search", () => {
  it('waits for the move under way, says so, plays on from the new board; the run it took over ends', { timeout: 60_000 }, async () => {
    installSlicedSearch();
    const queued: boolean[] = [];
    const runner = debugRunner(() => null, (w) => queued.push(w));
    let state = initialState(Watergate as Game, 'queue-1');
    const client = { store: { getState: () => state } } as unknown as GameClientInstance;
    runner.attach(client);
    // boardgame.io's Step, as the panel's play and simulate call it, on this stand-in's store.
    const bot = new MCTSBot({ game: { ...Watergate, ai: { enumerate: runner.enumerate } } as Game, enumerate: runner.enumerate as never, seed: 'q', iterations: 1000, playoutDepth: 20 });
    const step = async () => {
      const now = state;
      const { action } = (await bot.play(now, now.G.prompt!.player)) as { action?: Action };
      if (!action) return null;
      const moved = advanceMove(state, action.payload.playerID, action.payload.type, action.payload.args[0]);
      if ('error' in moved) throw new Error(`the panel's move was refused: ${moved.error}`);
      state = moved.state as S;
      runner.attach(client); // the page's onUpdate
      return { action };
    };
    await sleep(120); // a search right after a change is refused (a second loop's step)
    const first = step(); // "play"
    await sleep(0);
    const second = step(); // "simulate", pressed while "play" searches
    await sleep(0);
    expect(queued).toEqual([true]);
    const before = state;
    expect(await first).not.toBeNull();
    const afterFirst = state;
    expect(afterFirst).not.toBe(before);
    // The run "play" belonged to, had it been a simulate loop: its next step, 100 ms after its move.
    await sleep(100);
    expect(await step()).toBeNull();
    const next = await second;
    expect(queued).toEqual([true, false]);
    // Searched from the board the first move left (not the one it was pressed on): a move of the player
    // that board waits for, which the stand-in's store applied to it.
    expect(next).not.toBeNull();
    expect(next!.action.payload.playerID).toBe(afterFirst.G.prompt!.player);
    expect(state).not.toBe(afterFirst);
  });
});
