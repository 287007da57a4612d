/**
 * Resigning: either seated player may give up at any moment the game is not over, whatever it waits
 * for; the other side wins at once, with the reason "resigned" in ctx.gameover and in the record. A bot
 * never considers it (it is not among the legal moves). On the engine, in boardgame.io's client, and as
 * the server applies and replays it (game/advance.ts; the socket path: test/server/resign.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { advance, applyMove, checkMove, legalMoves, Watergate, type WatergateState } from '../../game/index';
import { replay } from '../../server/match/replay';
import { advanceDriver, initialState, playout, randomChooser, reducerDriver } from '../../tools/playout';
import { randomDecisions, seeded } from '../helpers/rng';

describe('resign', () => {
  it('on the engine: either player, at any decision; the other wins, recorded; refused with an argument or after the end', () => {
    let tried = 0;
    for (let seed = 1; seed <= 6; seed++)
      for (const { G, player, moves } of randomDecisions(8800 + seed)) {
        expect(moves.some((m) => (m.move as string) === 'resign')).toBe(false);
        for (const who of ['0', '1'] as const) {
          if (tried++ % 7 !== 0) continue;
          const copy = structuredClone(G);
          expect(checkMove(copy, who, 'resign', 'now')).toBe('resign takes no argument');
          expect(applyMove(copy, who, 'resign', undefined, seeded(1))).toBeNull();
          expect(copy).toMatchObject({ winner: who === '0' ? '1' : '0', endReason: 'resigned', phase: 'gameover', prompt: null });
          expect(copy.log.at(-1)).toMatchObject({ key: 'win.resigned', player: who === '0' ? '1' : '0' });
          expect(checkMove(copy, who === '0' ? '1' : '0', 'resign', undefined)).toBe('the game is over');
          expect(legalMoves(copy, player)).toEqual([]);
        }
      }
    expect(tried).toBeGreaterThan(100);
  });

  it("in the browser: boardgame.io's client finds resign for either player, the one deciding included (no 'disallowed move')", async () => {
    const { ProcessGameConfig } = await import('boardgame.io/internal');
    const flow = ProcessGameConfig(Watergate as never).flow;
    const state = initialState(Watergate as never, 'resign-0');
    let checked = 0;
    for (const step of playout(reducerDriver(Watergate as never), state, randomChooser(seeded(5)), { maxMoves: 60 }))
      for (const who of ['0', '1']) {
        expect(flow.getMove(step.state.ctx, 'resign', who), `${who} in ${JSON.stringify(step.state.ctx.activePlayers)}`).not.toBeNull();
        checked++;
      }
    expect(checked).toBeGreaterThan(50);
  });

  it('as the server applies it: the player who is not to move resigns too; ctx.gameover says why, and the stored move replays', () => {
    const start = initialState(Watergate as never, 'resign-1');
    // Play a few moves, then let the player who is NOT to move resign.
    let state = start;
    for (const step of playout(advanceDriver(), start, randomChooser(seeded(3)), { maxMoves: 25 })) state = step.state;
    const waiting = state.G.prompt!.player === '0' ? '1' : '0';
    expect(Object.keys(state.ctx.activePlayers ?? {})).toEqual([state.G.prompt!.player]);
    const action = { type: 'MAKE_MOVE' as const, payload: { type: 'resign', args: [], playerID: waiting } };
    const after = advance(state, action).state;
    expect(after._stateID).toBe(state._stateID + 1);
    expect(after.ctx.gameover).toEqual({ winner: state.G.prompt!.player, reason: 'resigned' });
    // A server replaying the stored move from the state before gets the same state.
    expect(replay(state, [{ stateID: after._stateID, action, log: [] }])).toEqual(after);
    // And the state before is untouched.
    expect(state.ctx.gameover).toBeUndefined();
    expect((state.G as WatergateState).winner).toBeNull();
  });
});

describe('running out of time (the server\'s timeout move)', () => {
  it('only the player the game waits for can run out of time; the other side wins with the reason "time"', () => {
    let tried = 0;
    for (const { G, player, moves } of randomDecisions(9100)) {
      expect(moves.some((m) => (m.move as string) === 'timeout')).toBe(false); // never a bot's or a player's choice
      if (tried++ % 5 !== 0) continue;
      const copy = structuredClone(G);
      const waiting = player === '0' ? '1' : '0';
      expect(checkMove(copy, waiting, 'timeout', undefined)).toBe('only the player who owes the decision can run out of time');
      expect(applyMove(copy, player, 'timeout', undefined, seeded(1))).toBeNull();
      expect(copy).toMatchObject({ winner: waiting, endReason: 'time', phase: 'gameover', prompt: null });
      expect(copy.log.at(-1)).toMatchObject({ key: 'win.time', player: waiting });
    }
    expect(tried).toBeGreaterThan(10);
  });
});

describe("the server's exits: forfeit (a seat left or was away too long) and abort (no winner)", () => {
  it('forfeit: any seated side, at any decision, with its reason; the other side wins, recorded; a wrong reason is refused', () => {
    let tried = 0;
    for (const { G, player, moves } of randomDecisions(9300)) {
      expect(moves.some((m) => ['forfeit', 'abort'].includes(m.move as string))).toBe(false); // never a bot's or a player's choice
      if (tried++ % 5 !== 0) continue;
      for (const [who, reason] of [[player, 'left'], [player === '0' ? '1' : '0', 'abandoned']] as const) {
        const copy = structuredClone(G);
        expect(checkMove(copy, who, 'forfeit', undefined)).toBe('forfeit takes one of left, abandoned');
        expect(checkMove(copy, who, 'forfeit', 'bored')).toBe('forfeit takes one of left, abandoned');
        expect(applyMove(copy, who, 'forfeit', reason, seeded(1))).toBeNull();
        expect(copy).toMatchObject({ winner: who === '0' ? '1' : '0', endReason: reason, phase: 'gameover', prompt: null });
        expect(copy.log.at(-1)).toMatchObject({ key: `win.${reason}`, player: who === '0' ? '1' : '0' });
        expect(checkMove(copy, who, 'resign', undefined)).toBe('the game is over');
      }
    }
    expect(tried).toBeGreaterThan(10);
  });

  it('abort: the game is over with no winner; the record and the state name the side that had not decided; nothing more is legal', () => {
    const start = initialState(Watergate as never, 'abort-1');
    const G = structuredClone(start.G as WatergateState);
    expect(checkMove(G, '1', 'abort', 'now')).toBe('abort takes no argument');
    expect(applyMove(G, '1', 'abort', undefined, seeded(1))).toBeNull();
    expect(G).toMatchObject({ winner: null, endReason: 'aborted', aborted: '1', phase: 'gameover', prompt: null });
    expect(G.log.at(-1)).toMatchObject({ key: 'game.aborted', player: '1' });
    for (const who of ['0', '1'] as const) {
      expect(legalMoves(G, who)).toEqual([]);
      expect(checkMove(G, who, 'resign', undefined)).toBe('the game is over');
      expect(checkMove(G, who, 'forfeit', 'left')).toBe('the game is over');
    }
    // As the server applies it: ctx.gameover has no winner and says who had not decided; the view shows it to everyone.
    const action = { type: 'MAKE_MOVE' as const, payload: { type: 'abort', args: [], playerID: '0' } };
    const after = advance(start, action).state;
    expect(after.ctx.gameover).toEqual({ reason: 'aborted', aborted: '0' });
    expect(replay(start, [{ stateID: after._stateID, action, log: [] }])).toEqual(after);
    for (const viewer of ['0', '1', null]) expect((Watergate.playerView!({ G: after.G, ctx: after.ctx, playerID: viewer } as never) as WatergateState).aborted).toBe('0');
  });
});
