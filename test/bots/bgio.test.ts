/**
 * boardgame.io's bots on Watergate: ai.enumerate drives RandomBot and MCTSBot (stock, as the Debug
 * panel's AI tab builds it) through complete games; our MCTSBot subclass keeps its options when
 * boardgame.io constructs it (Local), and our own bot plays from the seat's view only.
 */
import { describe, expect, it } from 'vitest';
import { Client } from 'boardgame.io/client';
import { Local } from 'boardgame.io/multiplayer';
import { MCTSBot, RandomBot, Step } from 'boardgame.io/ai';
import { InitializeGame } from 'boardgame.io/internal';
import type { Game, State } from 'boardgame.io';
import { playerView, Watergate, type WatergateState, type WatergateView } from '../../game';
import { playMatch } from '../../bots/arena';
import { watergateBot, watergateMCTSBot } from '../../bots/bgio';
import { think, type BotConfig } from '../../bots/levels';

const game = Watergate as Game;

describe("the Debug panel's AI tab (stock bots, local client)", () => {
  for (const [name, make] of [
    ['RandomBot', () => new RandomBot({ enumerate: game.ai!.enumerate, seed: 'r' })],
    [
      'MCTSBot',
      () => {
        // Exactly how the AI tab builds it; the tab's sliders then lower iterations and playout depth.
        const bot = new MCTSBot({ game, enumerate: game.ai!.enumerate, seed: 'm' });
        bot.setOpt('iterations', 8);
        bot.setOpt('playoutDepth', 8);
        return bot;
      },
    ],
  ] as const) {
    it(`${name} plays a complete game with Step()`, async () => {
      const client = Client({ game, numPlayers: 2, debug: false });
      client.start();
      const bot = make();
      let steps = 0;
      while (client.getState()!.ctx.gameover === undefined && steps < 3000) {
        const action = await Step(client as never, bot);
        expect(action).toBeTruthy(); // ai.enumerate offered at least one move at every decision
        steps++;
      }
      const over = client.getState()!.ctx.gameover as { winner: string; reason: string };
      expect(['0', '1']).toContain(over.winner);
      expect(['connected', 'momentum', 'supply']).toContain(over.reason);
      client.stop();
    }, 120_000);
  }
});

describe('watergateMCTSBot', () => {
  it('keeps its iterations and playout depth when boardgame.io constructs it with only game, enumerate and seed', async () => {
    const Cls = watergateMCTSBot({ iterations: 30, playoutDepth: 12 });
    const bot = new Cls({ game, enumerate: game.ai!.enumerate, seed: 's' });
    expect(bot.getOpt('iterations')).toBe(30);
    expect(bot.getOpt('playoutDepth')).toBe(12);
    const state = InitializeGame({ game, numPlayers: 2 });
    const { action, metadata } = await bot.play(state, '0');
    expect((metadata as { visits: number }).visits).toBe(30);
    const legal = game.ai!.enumerate(state.G, state.ctx, '0').map((m) => JSON.stringify([(m as { move: string }).move, (m as { args: unknown[] }).args]));
    expect(legal).toContain(JSON.stringify([(action as { payload: { type: string } }).payload.type, (action as { payload: { args: unknown[] } }).payload.args]));
  });

  it('plays both seats of a game in Local({ bots }), with our bot against it', async () => {
    const client = Client({
      game,
      numPlayers: 2,
      debug: false,
      playerID: '0',
      multiplayer: Local({ bots: { '0': watergateBot({ level: 'easy', deterministic: true }), '1': watergateMCTSBot({ iterations: 10, playoutDepth: 10 }) } }),
    });
    client.start();
    const over = await new Promise<{ winner: string }>((resolve) => {
      client.subscribe((s) => s?.ctx.gameover && resolve(s.ctx.gameover));
    });
    expect(['0', '1']).toContain(over.winner);
    client.stop();
  }, 120_000);
});

describe('our bot', () => {
  it('is handed only the seat view: the full state is reduced to playerView before the search sees it', async () => {
    const seen: WatergateView[] = [];
    const spy = (view: WatergateView, config: BotConfig) => (seen.push(structuredClone(view)), think(view, config));
    const Cls = watergateBot({ level: 'easy', deterministic: true, seed: 3 }, spy);
    const state = InitializeGame({ game, numPlayers: 2 }) as State<WatergateState>;
    const bot = new Cls({ game, enumerate: game.ai!.enumerate });
    const first = await bot.play(state, '0');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual(playerView(state.G, '0'));
    const secrets = [state.G.bag, state.G.decks['0'], state.G.decks['1'], state.G.hands['1'], state.G.track.evidence.map((t) => t.id)];
    for (const secret of secrets) expect(JSON.stringify(seen[0])).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(seen[0].hands['1']).toBeNull();

    // Another world with the same view (Nixon's hand and deck swapped, the bag reversed): the same move.
    const G2 = structuredClone(state.G);
    [G2.hands['1'], G2.decks['1']] = [G2.decks['1'].slice(0, G2.hands['1'].length), [...G2.hands['1'], ...G2.decks['1'].slice(G2.hands['1'].length)]];
    G2.bag.reverse();
    expect(playerView(G2, '0')).toEqual(playerView(state.G, '0'));
    expect(G2.hands['1']).not.toEqual(state.G.hands['1']);
    const second = await bot.play({ ...state, G: G2 }, '0');
    expect(second.action).toEqual(first.action);
  });

  it('gives the same move for the same view and seed (deterministic budget)', () => {
    const state = InitializeGame({ game, numPlayers: 2 }) as State<WatergateState>;
    const view = playerView(state.G, '0');
    const a = think(view, { level: 'normal', deterministic: true, seed: 9 });
    const b = think(view, { level: 'normal', deterministic: true, seed: 9 });
    expect(a.iterations).toBe(1000);
    expect(a.move).toEqual(b.move);
    expect(a.stats).toEqual(b.stats);
  });

  // Documented in docs/BOTS.md: 10 seeded games per seat, level easy with a fixed iteration budget.
  // A uniformly random Editor wins about 7% of games, so these thresholds leave no room for luck.
  for (const seat of ['0', '1'] as const) {
    it(`beats RandomBot as ${seat === '0' ? 'Editor' : 'Nixon'}: at least 9 of 10 seeded games`, async () => {
      const ours = watergateBot({ level: 'easy', deterministic: true, seed: 42 });
      let wins = 0;
      for (let g = 0; g < 10; g++) {
        const r = await playMatch({ seats: seat === '0' ? { '0': ours, '1': RandomBot } : { '0': RandomBot, '1': ours }, seed: `vs-random-${g}` });
        expect(r.aborted).toBe(false);
        if (r.winner === seat) wins++;
      }
      expect(wins).toBeGreaterThanOrEqual(9);
    }, 120_000);
  }
});
