/** Invariants checked after every move of the fuzz games: components accounted for, secrets kept. */
import { expect } from 'vitest';
import { CARD_IDS } from '../../game/cards';
import { TOKENS } from '../../game/tokens';
import { MOMENTUM_TOKENS } from '../../game/tokens';
import { secretsOf } from '../../game/infostate';
import { playerView } from '../../game/view';
import type { LogEntry, PlayerID, WatergateState } from '../../game/types';

/** Every one of the 40 cards in exactly one place. */
export function cardPlaces(G: WatergateState): string[] {
  const all: string[] = [];
  for (const p of ['0', '1'] as const) all.push(...G.hands[p], ...G.decks[p], ...G.discards[p], ...G.removed[p]);
  all.push(...G.resolving);
  if (G.drawnCard) all.push(G.drawnCard.card);
  return all;
}

/** Every one of the 36 tokens in exactly one place (spares stay in the box). */
export function tokenPlaces(G: WatergateState): string[] {
  const all = [...G.bag, ...G.track.evidence.map((t) => t.id), ...G.removedTokens];
  for (const s of Object.values(G.board)) if (s) all.push(s.token);
  if (G.peek) all.push(...G.peek.tokens);
  for (const t of G.tasks) if (t.t === 'pin') all.push(...t.tokens);
  if (G.prompt?.kind === 'pin') all.push(...G.prompt.tokens);
  all.push(...TOKENS.filter((t) => t.use === 'spare').map((t) => t.id));
  return all;
}

export function momentumCount(G: WatergateState): number {
  const m = G.momentum;
  return (G.track.momentum === null ? 0 : 1) + m.supply + m.cards['0'] + m.cards['1'] + m.removed;
}

export function expectAccounted(G: WatergateState): void {
  expect([...cardPlaces(G)].sort()).toEqual([...CARD_IDS].sort());
  expect(tokenPlaces(G).sort()).toEqual(TOKENS.map((t) => t.id).sort());
  // Once gained this round the momentum token is off the track; only step 4 puts a new one on.
  expect(momentumCount(G)).toBe(MOMENTUM_TOKENS);
  // K15: face-down evidence only on space 0.
  for (const t of G.track.evidence) if (!t.up) expect(t.pos).toBe(0);
}

const ID = /\b[TNE]\d\d\b/g;

/** The view (without the record, checked separately) names no secret of its viewer. */
export function expectViewKeepsSecrets(G: WatergateState, viewer: PlayerID | null): void {
  const { log: _log, ...rest } = playerView(G, viewer);
  const seen = JSON.stringify(rest).match(ID) ?? [];
  const secrets = secretsOf(G, viewer);
  const leaked = seen.filter((id) => secrets.has(id));
  expect(leaked, `view of ${viewer} leaks`).toEqual([]);
}

/** New record lines name nothing that was secret to a viewer both before and after the move. */
export function expectRecordKeepsSecrets(fresh: LogEntry[], before: Set<string>, after: Set<string>): void {
  // A card played, then shuffled into a new deck (and maybe drawn) in the same move was public in between:
  // lines before the last reshuffle may name it.
  const last = fresh.map((l) => l.key).lastIndexOf('reshuffle');
  const reshuffled = new Set(JSON.stringify(fresh.slice(0, Math.max(0, last))).match(ID) ?? []);
  const named = JSON.stringify(fresh).match(ID) ?? [];
  expect(named.filter((id) => before.has(id) && after.has(id) && !reshuffled.has(id)), JSON.stringify(fresh)).toEqual([]);
}
