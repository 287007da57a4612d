/**
 * Seeded random-play fuzzing through boardgame.io's Client: moves come from ai.enumerate, and after
 * every move all components are accounted for and no view or record line shows a secret to the wrong
 * player. Split over several test files so Vitest runs them in parallel.
 */
import { expect } from 'vitest';
import { Client } from 'boardgame.io/client';
import { Watergate } from '../game/index';
import type { MoveChoice, PlayerID, WatergateState } from '../game/types';
import { seeded } from './helpers/rng';
import { expectAccounted, expectRecordKeepsSecrets, expectViewKeepsSecrets } from './helpers/invariants';
import { secretsOf } from '../game/infostate';

const ROUND_LIMIT = 100; // K14: no cap in the rules; a game reaching this would fail the test as "aborted"
const VIEWERS: (PlayerID | null)[] = ['0', '1', null];

export function fuzzGames(from: number, count: number, setupData?: object): { rounds: number[]; winners: string[] } {
  const rounds: number[] = [];
  const winners: string[] = [];
  for (let g = from; g < from + count; g++) {
    const rng = seeded(g * 7919 + 1);
    const client = Client({ game: { ...Watergate, seed: `fuzz-${g}` }, numPlayers: 2, setupData } as never);
    client.start();
    let state = client.store.getState();
    let moves = 0;
    while (!state.ctx.gameover) {
      const G = state.G as WatergateState;
      expect(G.round).toBeLessThan(ROUND_LIMIT);
      const active = Object.keys(state.ctx.activePlayers ?? {});
      expect(active).toEqual([G.prompt!.player]);
      const p = active[0] as PlayerID;
      const options = Watergate.ai!.enumerate(G, state.ctx, p) as MoveChoice[];
      expect(options.length).toBeGreaterThan(0);
      const m = options[rng.int(options.length)];
      const secretsBefore = VIEWERS.map((v) => secretsOf(G, v));
      const logLength = G.log.length;
      const round = G.round;
      client.updatePlayerID(p);
      (client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
      const next = client.store.getState();
      expect(next._stateID, `move ${JSON.stringify(m)} was refused`).toBe(state._stateID + 1);
      state = next;
      const H = state.G as WatergateState;
      expectAccounted(H);
      VIEWERS.forEach((v, i) => {
        expectViewKeepsSecrets(H, v);
        expectRecordKeepsSecrets(H.log.slice(logLength), secretsBefore[i], secretsOf(H, v));
      });
      if (H.round !== round && H.prompt?.kind === 'play') {
        // R6: 5 and 4 cards at the start of each cards phase, fewer only when deck and discard ran out.
        for (const [seat, n] of [[H.initiative, 5], [H.initiative === '0' ? '1' : '0', 4]] as const)
          if (H.hands[seat].length < n) expect(H.decks[seat].length + H.discards[seat].length).toBe(0);
      }
      moves++;
    }
    expect(['0', '1']).toContain(state.ctx.gameover.winner);
    expect((state.G as WatergateState).winner).toBe(state.ctx.gameover.winner);
    rounds.push((state.G as WatergateState).round);
    winners.push(state.ctx.gameover.winner);
    client.stop();
    expect(moves).toBeGreaterThan(10);
  }
  return { rounds, winners };
}
