/**
 * Seeded random play through boardgame.io's reducer, as the server runs it: 1,000 complete games in four
 * sets (the last with the other rule options). Moves come from ai.enumerate; after every move all
 * components are accounted for, no view or record line shows a secret to the wrong player, and the hands
 * are dealt as R6 says.
 */
import { describe, expect, it } from 'vitest';
import { Watergate } from '../game/index';
import { secretsOf } from '../game/infostate';
import type { PlayerID, SetupData, WatergateState } from '../game/types';
import { initialState, playToEnd, randomChooser, reducerDriver } from '../tools/playout';
import { expectAccounted, expectRecordKeepsSecrets, expectViewKeepsSecrets } from './helpers/invariants';
import { seeded } from './helpers/rng';

const ROUND_LIMIT = 100; // K14: no cap in the rules; a game reaching this one fails the test as "aborted"
const VIEWERS: (PlayerID | null)[] = ['0', '1', null];
const driver = reducerDriver(Watergate as never);

function fuzzGames(from: number, count: number, setupData?: SetupData): string[] {
  const winners: string[] = [];
  for (let g = from; g < from + count; g++) {
    let before = initialState(Watergate as never, `fuzz-${g}`, setupData);
    let secretsBefore = VIEWERS.map((v) => secretsOf(before.G, v));
    const { state, moves } = playToEnd(driver, before, randomChooser(seeded(g * 7919 + 1)), { maxRounds: ROUND_LIMIT }, (after, _move, player) => {
      // boardgame.io's stages follow the engine's prompt: only the player it waited for was active.
      expect(Object.keys(before.ctx.activePlayers ?? {})).toEqual([player]);
      const H = after.G as WatergateState;
      expectAccounted(H);
      VIEWERS.forEach((v, i) => {
        expectViewKeepsSecrets(H, v);
        expectRecordKeepsSecrets(H.log.slice(before.G.log.length), secretsBefore[i], secretsOf(H, v));
      });
      if (H.round !== before.G.round && H.prompt?.kind === 'play') {
        // R6: 5 and 4 cards at the start of each cards phase, fewer only when deck and discard ran out.
        for (const [seat, n] of [[H.initiative, 5], [H.initiative === '0' ? '1' : '0', 4]] as const)
          if (H.hands[seat].length < n) expect(H.decks[seat].length + H.discards[seat].length).toBe(0);
      }
      before = after;
      secretsBefore = VIEWERS.map((v) => secretsOf(H, v));
    });
    const over = state.ctx.gameover as { winner: string } | undefined;
    expect(over, `game ${g} reached round ${ROUND_LIMIT}`).toBeDefined();
    expect(['0', '1']).toContain(over!.winner);
    expect(state.G.winner).toBe(over!.winner);
    expect(moves).toBeGreaterThan(10);
    winners.push(over!.winner);
  }
  return winners;
}

describe('seeded random play through boardgame.io', () => {
  it.each([
    ['1000–1249', 1000, undefined],
    ['2000–2249', 2000, undefined],
    ['3000–3249', 3000, undefined],
    ['4000–4249, rulebook2019 jokers and unpinnable tokens removed', 4000, { jokerFallback: 'rulebook2019', pinImpossible: 'removeFromGame' } as SetupData],
  ])('games %s end with a winner; every card, token and momentum token accounted for; no secret in any view or record line', (_name, from, setupData) => {
    const winners = fuzzGames(from, 250, setupData);
    expect(winners).toHaveLength(250);
    // Both sides win some: a bug that hands every game to one side shows here.
    expect(new Set(winners)).toEqual(new Set(['0', '1']));
  }, 600_000);
});
