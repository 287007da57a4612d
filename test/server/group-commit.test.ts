/**
 * The embedded store's group commit (server/storage/sqlite.ts commitMove): the moves of several matches
 * made in one turn of the event loop are written in one transaction, each kept or refused on its own —
 * a stale move among them is refused and the others are written; a long turn is written in groups as it
 * goes; and a move still waiting when the server stops is written before the file closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { State } from 'boardgame.io';
import { afterEach, expect, it } from 'vitest';
import { Watergate } from '../../game/index';
import { buildMatch } from '../../server/lobby/matches';
import { StaleStateError } from '../../server/storage/errors';
import { SqliteStore } from '../../server/storage/sqlite';
import type { MoveCommit } from '../../server/storage/types';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const next = (s: State): State => ({ ...s, _stateID: s._stateID + 1 });
const move = (prev: State, state: State): MoveCommit => {
  const action = { type: 'MAKE_MOVE' as const, payload: { type: 'play', args: [state._stateID], playerID: '0' } };
  return { prevStateID: prev._stateID, seatsVersion: 0, state, action, log: [{ action, _stateID: prev._stateID, turn: 1, phase: 'cards' } as never], updatedAt: Date.now(), snapshot: false };
};

async function openWith(matches: number) {
  const dir = mkdtempSync(join(tmpdir(), 'wg-group-'));
  dirs.push(dir);
  const store = new SqliteStore(dir);
  await store.connect();
  const ids: { id: string; s0: State }[] = [];
  for (let i = 0; i < matches; i++) {
    const { initialState, metadata } = buildMatch(Watergate, undefined, false);
    await store.createMatch({ matchID: `g${i}`, initialState, metadata });
    ids.push({ id: `g${i}`, s0: initialState });
  }
  // Each write of moves is one transaction, seen as one observation of the operation `move`.
  const transactions: number[] = [];
  store.observe = (op) => void (op === 'move' && transactions.push(1));
  return { dir, store, ids, transactions };
}

it('writes the moves of one turn in one transaction; a stale one is refused and the others are written', async () => {
  const { store, ids, transactions } = await openWith(3);
  const [a, b, c] = ids;
  const a1 = next(a.s0);
  const settled = await Promise.allSettled([
    store.commitMove(a.id, move(a.s0, a1)),
    store.commitMove(a.id, move(a1, next(a1))), // the same match's next move, in order, in the same turn
    store.commitMove(b.id, move(next(b.s0), next(next(b.s0)))), // made on a state storage never had
    store.commitMove(c.id, move(c.s0, next(c.s0))),
  ]);
  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(StaleStateError);
  expect(transactions).toHaveLength(1);
  expect((await store.head(a.id))!.stateID).toBe(a.s0._stateID + 2);
  expect((await store.head(b.id))!.stateID).toBe(b.s0._stateID);
  expect((await store.head(c.id))!.stateID).toBe(c.s0._stateID + 1);
  expect((await store.movesAfter(a.id, a.s0._stateID)).map((m) => m.stateID)).toEqual([a.s0._stateID + 1, a.s0._stateID + 2]);
  expect(await store.movesAfter(b.id, b.s0._stateID)).toEqual([]);
  // A move of a later turn is a transaction of its own.
  await store.commitMove(c.id, move(next(c.s0), next(next(c.s0))));
  expect(transactions).toHaveLength(2);
  await store.close();
});

it('writes a long turn in groups as it goes: a move waits a few milliseconds at most for the others', async () => {
  const { store, ids, transactions } = await openWith(2);
  const [a, b] = ids;
  const first = store.commitMove(a.id, move(a.s0, next(a.s0)));
  const until = performance.now() + 5; // the rest of a long turn: other matches' work
  while (performance.now() < until);
  const second = store.commitMove(b.id, move(b.s0, next(b.s0)));
  // Both were written when the second came, 5 ms into the turn, not at the turn's end.
  expect(transactions).toHaveLength(1);
  await Promise.all([first, second]);
  expect(transactions).toHaveLength(1);
  expect((await store.head(a.id))!.stateID).toBe(a.s0._stateID + 1);
  expect((await store.head(b.id))!.stateID).toBe(b.s0._stateID + 1);
  // Moves of a short turn still wait for its end, together.
  await Promise.all([store.commitMove(a.id, move(next(a.s0), next(next(a.s0)))), store.commitMove(b.id, move(next(b.s0), next(next(b.s0))))]);
  expect(transactions).toHaveLength(2);
  await store.close();
});

it('writes a move still waiting when the store closes', async () => {
  const { dir, store, ids } = await openWith(1);
  const [a] = ids;
  const written = store.commitMove(a.id, move(a.s0, next(a.s0)));
  await store.close();
  await expect(written).resolves.toBeUndefined();
  const again = new SqliteStore(dir);
  await again.connect();
  expect((await again.head(a.id))!.stateID).toBe(a.s0._stateID + 1);
  await again.close();
});
