/**
 * The match store on both backends: what boardgame.io asks of a StorageAPI.Async, plus the guarantees
 * it adds (stale writes refused, seats only changed through locked updates, concurrent writers serialised).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, State } from 'boardgame.io';
import { Watergate } from '../../game/index';
import { buildMatch } from '../../server/lobby/matches';
import { StaleStateError } from '../../server/storage/errors';
import type { MatchStore } from '../../server/storage/store';
import { openTestStore, postgresAvailable, type Backend } from './helpers';

const hasPg = await postgresAvailable();

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`match store (${backend})`, () => {
    let store: MatchStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await openTestStore(backend));
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    const fresh = async () => {
      const id = `m${Math.random().toString(36).slice(2)}`;
      const { initialState, metadata } = buildMatch(Watergate, undefined, false);
      await store.createMatch(id, { initialState, metadata });
      return { id, initialState, metadata };
    };
    const successor = (s: State, mark: number): State => ({ ...s, _stateID: s._stateID + 1, G: { ...s.G, mark } });

    it('stores and returns a match exactly, with its log appended move by move', async () => {
      const { id, initialState, metadata } = await fresh();
      const s1 = successor(initialState, 1);
      const entry = { action: { type: 'MAKE_MOVE', payload: { type: 'play', args: [1], playerID: '0' } }, _stateID: 0, turn: 1, phase: 'cards' };
      await store.setState(id, s1, [entry as never]);
      await store.setState(id, successor(s1, 2), [{ ...entry, _stateID: 1 } as never]);
      const got = await store.fetch(id, { state: true, initialState: true, metadata: true, log: true });
      expect(got.state._stateID).toBe(initialState._stateID + 2);
      expect(got.state.G.mark).toBe(2);
      expect(got.initialState).toEqual(initialState);
      expect(got.metadata).toEqual(metadata);
      expect(got.log.map((e: { _stateID: number }) => e._stateID)).toEqual([0, 1]);
    });

    it('refuses loudly a write based on a stale _stateID and keeps the stored state', async () => {
      const { id, initialState } = await fresh();
      await store.setState(id, successor(initialState, 1), []);
      // A second writer that also started from the initial state:
      await expect(store.setState(id, successor(initialState, 99), [])).rejects.toBeInstanceOf(StaleStateError);
      // A writer far behind or ahead is refused too.
      await expect(store.setState(id, { ...initialState, _stateID: initialState._stateID + 5 }, [])).rejects.toThrow(/stale write refused/);
      const { state } = await store.fetch(id, { state: true });
      expect(state.G.mark).toBe(1);
    });

    it('lets exactly one of many concurrent writers of the same next state win', async () => {
      const { id, initialState } = await fresh();
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.setState(id, successor(initialState, i), [])));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof StaleStateError)).toHaveLength(9);
    });

    it("keeps a seat claimed after boardgame.io read the metadata (its setMetadata cannot undo the claim)", async () => {
      const { id, metadata } = await fresh();
      const staleCopy: Server.MatchData = JSON.parse(JSON.stringify(metadata));
      await store.updateMetadata(id, (m) => ({ ...m, players: { ...m.players, 1: { id: 1, name: 'Nixon', credentials: 'secret' } } }));
      staleCopy.players[0].isConnected = true;
      staleCopy.gameover = { winner: '0' };
      await store.setMetadata(id, staleCopy);
      const { metadata: now } = await store.fetch(id, { metadata: true });
      expect(now.players[1]).toMatchObject({ name: 'Nixon', credentials: 'secret' });
      expect(now.players[0].isConnected).toBe(true);
      expect(now.gameover).toEqual({ winner: '0' });
    });

    it('lists matches by game, gameover and update time, and wipes them with their log', async () => {
      const a = await fresh();
      const b = await fresh();
      await store.updateMetadata(b.id, (m) => ({ ...m, gameover: { winner: '1' }, updatedAt: 10 }));
      const all = await store.listMatches({ gameName: 'watergate' });
      expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(await store.listMatches({ gameName: 'chess' })).toEqual([]);
      expect(await store.listMatches({ gameName: 'watergate', where: { isGameover: true } })).toContain(b.id);
      expect(await store.listMatches({ gameName: 'watergate', where: { isGameover: false } })).not.toContain(b.id);
      expect(await store.listMatches({ where: { updatedBefore: 11 } })).toEqual([b.id]);
      await store.setState(a.id, successor(a.initialState, 1), [{ _stateID: 0 } as never]);
      await store.wipe(a.id);
      expect(await store.fetch(a.id, { state: true, metadata: true, log: true })).toEqual({});
      expect(await store.listMatches()).not.toContain(a.id);
    });

    it('refuses to create a match twice under one ID', async () => {
      const { id, initialState, metadata } = await fresh();
      await expect(store.createMatch(id, { initialState, metadata })).rejects.toThrow(/already exists/);
    });
  });
}
