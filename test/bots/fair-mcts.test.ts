/**
 * boardgame.io's MCTSBot made fair (bots/fair-mcts.ts) never reads the true state: it refuses one, its
 * decisions are legal, and — the sentinel — two true states that differ in everything the seat cannot see
 * (the opponent's hand and deck, the bag, face-down tokens) but look the same from the seat get the same
 * decision with the same visit counts, even through the boardgame.io Bot that is handed the full state.
 * The stock MCTSBot (bots/bgio.ts, which searches the state it is given) fails the same check.
 */
import { describe, expect, it } from 'vitest';
import type { Game, State } from 'boardgame.io';
import { InitializeGame } from 'boardgame.io/internal';
import { activePlayersFor, Watergate, type WatergateState } from '../../game/index';
import { apply, currentPlayer, legalActions, legalActionsOfView, newState, resample, seededRandom, view, type GameState } from '../../game/api';
import { engine, fairMCTS, fairMCTSBot, playDeal } from '../../bots/arena';
import { watergateMCTSBot } from '../../bots/bgio';

/** Decision points with a real choice, from seeded random games. */
function positions(n: number): GameState[] {
  const out: GameState[] = [];
  const r = seededRandom('fair-positions');
  for (let g = 0; out.length < n; g++) {
    let s = newState(`fair-${g}`);
    for (let k = 0, p = currentPlayer(s); p !== null && out.length < n && k < 80; k++, p = currentPlayer(s)) {
      const ids = legalActions(s, p);
      if (k % 17 === 5 && ids.length > 2) out.push(s);
      s = apply(s, ids[Math.floor(r() * ids.length)]);
    }
  }
  return out;
}

/** The same position from the seat's side, with every hidden part dealt again. */
function twin(s: GameState): GameState {
  const seat = currentPlayer(s)!;
  const t = resample(view(s, seat), seededRandom('twin'));
  expect(view(t, seat)).toEqual(view(s, seat));
  const opp = seat === '0' ? '1' : '0';
  expect(JSON.stringify([t.G.hands[opp], t.G.decks[opp], t.G.bag])).not.toBe(JSON.stringify([s.G.hands[opp], s.G.decks[opp], s.G.bag]));
  return t;
}

/** A boardgame.io state (as Local and the Debug panel hand bots) holding `s`. */
function bgio(s: GameState): State<WatergateState> {
  const init = InitializeGame({ game: { ...Watergate, seed: 'x' } as Game, numPlayers: 2 }) as State<WatergateState>;
  return { ...init, G: s.G, ctx: { ...init.ctx, phase: s.G.phase, currentPlayer: s.G.turnPlayer, activePlayers: activePlayersFor(s.G.prompt!) }, plugins: { ...init.plugins, random: { data: s.random } } } as unknown as State<WatergateState>;
}

describe('fair MCTS', () => {
  const points = positions(4);

  it('refuses the full state and a spectator view; decides legal moves from a seat view', async () => {
    const s = points[0];
    const seat = currentPlayer(s)!;
    await expect(fairMCTS(s.G as never)).rejects.toThrow(/view/);
    await expect(fairMCTS(view(s, null))).rejects.toThrow(/view/);
    const d = await fairMCTS(view(s, seat), { iterations: 40 });
    expect(d.iterations).toBe(40);
    expect(d.visits.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const id = await (await engine('mcts:40:10'))(view(s, seat), legalActionsOfView(view(s, seat)));
    expect(legalActions(s, seat)).toContain(id);
  });

  it('the sentinel: worlds that look the same from the seat get the same search, through the Bot that is handed the full state', async () => {
    const Fair = fairMCTSBot({ iterations: 60, playoutDepth: 10, seed: 7 });
    const Stock = watergateMCTSBot({ iterations: 60, playoutDepth: 10, seed: 7 });
    let stockDiffers = 0;
    for (const s of points) {
      const t = twin(s);
      const seat = currentPlayer(s)!;
      const args = { game: Watergate as Game, enumerate: Watergate.ai!.enumerate };
      const [a, b] = [await new Fair(args).play(bgio(s), seat), await new Fair(args).play(bgio(t), seat)];
      expect(b.action).toEqual(a.action);
      expect((b.metadata as { visits: number[] }).visits).toEqual((a.metadata as { visits: number[] }).visits);
      // The stock bot searches the state it is given: its tree differs between the twins (it reads the secrets).
      const stats = async (st: State) => JSON.stringify(((await new Stock({ ...args, seed: 7 }).play(st, seat)).metadata as { children: { visits: number }[] }).children.map((c) => c.visits));
      if ((await stats(bgio(s))) !== (await stats(bgio(t)))) stockDiffers++;
    }
    expect(stockDiffers).toBeGreaterThan(0);
  }, 120_000);

  it('plays a whole game against random on a seeded deal', async () => {
    const r = await playDeal('fair-whole', { '0': await engine('mcts:20:8', 1), '1': await engine('random', 1) });
    expect(r.moves).toBeGreaterThan(10);
    expect(r.reason).not.toBeNull();
  }, 120_000);
});
