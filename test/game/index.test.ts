/**
 * Watergate as a boardgame.io Game: phases, turns, stages, invalid moves and player views. Its bots
 * (RandomBot and MCTSBot driven by ai.enumerate through complete games) are test/bots/bgio.test.ts's, in the
 * long tier.
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Client } from 'boardgame.io/client';
import { Watergate } from '../../game/index';
import type { MoveChoice, WatergateState, WatergateView } from '../../game/types';

const newClient = (seed: string, playerID?: string) => {
  const c = Client({ game: { ...Watergate, seed }, numPlayers: 2, playerID } as never);
  c.start();
  return c;
};
const state = (c: ReturnType<typeof newClient>) => c.store.getState();
const moves = (c: ReturnType<typeof newClient>) => c.moves as Record<string, (arg?: unknown) => void>;

describe('the boardgame.io Game', () => {
  it('starts in the cards phase of round 1 with the Editor alone active, in the "play" stage', () => {
    const c = newClient('g1');
    const { ctx, G } = state(c);
    expect(ctx.phase).toBe('cards');
    expect(ctx.currentPlayer).toBe('0');
    expect(ctx.activePlayers).toEqual({ '0': 'play' });
    expect((G as WatergateState).round).toBe(1);
  });

  it('moves out of turn, out of stage or with malformed arguments are refused and change nothing', () => {
    // boardgame.io reports each refusal on the console: captured here, and counted.
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onTestFinished(() => reported.mockRestore());
    const c = newClient('g2', '1');
    const before = state(c);
    moves(c).play({ card: (before.G as WatergateState).hands['1'][0], as: 'value', target: { kind: 'momentum' } });
    expect(state(c)._stateID).toBe(before._stateID);
    c.updatePlayerID('0');
    for (const bad of [undefined, null, 42, 'E23', { card: 'E99', as: 'value' }, { card: (before.G as WatergateState).hands['0'][0], as: 'both' }]) {
      moves(c).play(bad);
      expect(state(c)._stateID).toBe(before._stateID);
    }
    moves(c).pin({ token: 'T01', space: 'A1' }); // not a move of the "play" stage
    moves(c).answer('T01');
    expect(state(c)._stateID).toBe(before._stateID);
    expect(state(c).G).toEqual(before.G);
    const lines = reported.mock.calls.map((a) => a.join(' '));
    expect(lines.filter((l) => /^ERROR: (disallowed|invalid) move/.test(l))).toHaveLength(9);
  });

  it('drives turns by the initiative, opens stages for interruptions, and reaches the assessment phase', () => {
    const c = newClient('g3');
    const phases = new Set<string>();
    const stages = new Set<string>();
    let turns = 0;
    let lastTurn = state(c).ctx.turn;
    let guard = 0;
    while (!state(c).ctx.gameover && guard++ < 5000) {
      const { G, ctx } = state(c);
      phases.add(ctx.phase);
      const [p, stage] = Object.entries(ctx.activePlayers!)[0];
      stages.add(stage as string);
      if (ctx.turn !== lastTurn) {
        turns++;
        lastTurn = ctx.turn;
      }
      const g = G as WatergateState;
      if (g.prompt!.kind === 'play') expect(ctx.currentPlayer).toBe(p); // a turn's card is played by its current player
      const options = Watergate.ai!.enumerate(G, ctx, p) as MoveChoice[];
      const m = options[guard % options.length];
      c.updatePlayerID(p);
      moves(c)[m.move](m.args[0]);
    }
    expect(state(c).ctx.gameover).toBeDefined();
    expect(phases).toEqual(new Set(['cards', 'assessment']));
    expect([...stages]).toEqual(expect.arrayContaining(['play', 'react', 'pin']));
    expect(turns).toBeGreaterThan(10);
  });

  it('sends each player its own view: the opponent\'s hand, the decks and the bag stay hidden', () => {
    const editor = newClient('g4', '0');
    const view = editor.getState()!.G as unknown as WatergateView;
    const full = state(editor).G as WatergateState;
    expect(view.hands['0']).toEqual(full.hands['0']);
    expect(view.hands['1']).toBeNull();
    expect(view.handSizes).toEqual({ '0': 5, '1': 4 });
    expect(view.track.evidence.every((t) => t.id === null)).toBe(true);
    const nixon = newClient('g4', '1');
    expect((nixon.getState()!.G as unknown as WatergateView).track.evidence.map((t) => t.id)).toEqual(full.track.evidence.map((t) => t.id));
    const spectator = newClient('g4');
    const sv = spectator.getState()!.G as unknown as WatergateView;
    expect(sv.hands).toEqual({ '0': null, '1': null });
    expect(sv.viewer).toBeNull();
  });
});
