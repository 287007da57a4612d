/**
 * Seeded random play as the server runs it (the engine checks each move once, game/advance.ts applies it),
 * shared by the files of test/fuzz/ (one set of seeds each, so that the two test workers share the sets
 * between them); test/game/advance.test.ts holds advance to boardgame.io's reducer. Moves come from the
 * engine's legal moves (ai.enumerate); after every move all components are accounted for, no view or record line shows a
 * secret to the wrong player, only the player the engine waits for is active in boardgame.io's stages, and
 * the hands are dealt as R6 says; every game ends with a winner.
 *
 * Size: 250 games per set where bugs are hunted (CI, which sets CI=true) and the first FUZZ_DEV_GAMES of
 * the same seeds on a developer's machine, where someone waits for the answer. FUZZ_GAMES=<n> asks for n
 * games per set anywhere (FUZZ_GAMES=250 npm test runs CI's size locally). Every size runs every check.
 */
import { expect, it } from 'vitest';
import { Watergate } from '../../game/index';
import { secretsOf } from '../../game/infostate';
import type { PlayerID, SetupData, WatergateState } from '../../game/types';
import { advanceDriver, initialState, playToEnd, randomChooser } from '../../tools/playout';
import { expectAccounted, expectRecordKeepsSecrets, expectViewKeepsSecrets } from './invariants';
import { seeded } from './rng';

export const FULL_GAMES = 250;
/** Seconds rather than minutes for a developer; each set still sees both sides win (asserted). */
export const FUZZ_DEV_GAMES = 40;

/** Games per set for this run: FUZZ_GAMES if given, else the full size in CI and the smaller one elsewhere. */
export function fuzzSize(env: Record<string, string | undefined> = process.env): number {
  if (env.FUZZ_GAMES !== undefined && env.FUZZ_GAMES !== '') {
    const n = Number(env.FUZZ_GAMES);
    if (!Number.isInteger(n) || n < 1) throw new Error(`FUZZ_GAMES must be a whole number of games ≥ 1, not ${JSON.stringify(env.FUZZ_GAMES)}`);
    return n;
  }
  return env.CI && env.CI !== 'false' && env.CI !== '0' ? FULL_GAMES : FUZZ_DEV_GAMES;
}

const ROUND_LIMIT = 100; // K14: no cap in the rules; a game reaching this one fails the test as "aborted"
const VIEWERS: (PlayerID | null)[] = ['0', '1', null];
const driver = advanceDriver();

export function fuzzGames(from: number, count: number, setupData?: SetupData): string[] {
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

/** One set of seeds as one test: `fuzzSize()` games from `from`, each checked after every move. */
export function fuzzSet(from: number, setupData?: SetupData, label = ''): void {
  const count = fuzzSize();
  it(`games ${from}–${from + count - 1}${label} end with a winner; every card, token and momentum token accounted for; no secret in any view or record line`, () => {
    const winners = fuzzGames(from, count, setupData);
    expect(winners).toHaveLength(count);
    // Both sides win some: a bug that hands every game to one side shows here.
    expect(new Set(winners)).toEqual(new Set(['0', '1']));
  }, 600_000);
}
