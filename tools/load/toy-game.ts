/**
 * A small card game for the baseline in docs/LOAD.md: what a stock boardgame.io server does with a game
 * of Watergate's length (about 150 moves) but almost no rules. Each player has a shuffled deck of 75
 * cards and a hand of 5; a turn plays one card from the hand onto the table and draws one; the game ends
 * when both have played everything, the higher total wins. The player view hides the decks and the
 * other hand, as a real card game must.
 */
import type { Game } from 'boardgame.io';

export interface ToyState {
  decks: Record<string, number[]>;
  hands: Record<string, number[]>;
  table: Record<string, number[]>;
}

const draw = (G: ToyState, p: string) => {
  const c = G.decks[p].pop();
  if (c !== undefined) G.hands[p].push(c);
};

export const ToyGame: Game<ToyState> = {
  name: 'toy',
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }) => {
    const G: ToyState = { decks: {}, hands: {}, table: {} };
    for (const p of ['0', '1']) {
      G.decks[p] = random.Shuffle(Array.from({ length: 75 }, (_, i) => (i % 13) + 1));
      G.hands[p] = [];
      G.table[p] = [];
      for (let i = 0; i < 5; i++) draw(G, p);
    }
    return G;
  },
  moves: {
    play: {
      move: ({ G, playerID, events }, index: number) => {
        const hand = G.hands[playerID];
        if (!Number.isInteger(index) || index < 0 || index >= hand.length) return 'INVALID_MOVE';
        G.table[playerID].push(hand.splice(index, 1)[0]);
        draw(G, playerID);
        events.endTurn();
      },
      client: false,
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G }) => {
    if (G.hands['0'].length + G.hands['1'].length > 0) return undefined;
    const sum = (p: string) => G.table[p].reduce((a, b) => a + b, 0);
    return sum('0') === sum('1') ? { draw: true } : { winner: sum('0') > sum('1') ? '0' : '1' };
  },
  playerView: ({ G, playerID }) => ({
    decks: { '0': [], '1': [] },
    hands: { '0': playerID === '0' ? G.hands['0'] : [], '1': playerID === '1' ? G.hands['1'] : [] },
    table: G.table,
  }),
  ai: { enumerate: (G, _ctx, playerID) => G.hands[playerID!].map((_, i) => ({ move: 'play', args: [i] })) },
};
