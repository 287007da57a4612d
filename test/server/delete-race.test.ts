/**
 * Deleting an account while it takes a seat (issue: "a join racing an account deletion can leave a seat
 * tied to a deleted account"): the deletion removes the account with its seat links in one transaction
 * and lets go of every seat it removed; a seat linked to an account that no longer exists is refused in
 * the linking transaction. Raced over real HTTP, many times, on SQLite and PostgreSQL: whichever wins, no
 * seat is left marked with the deleted account, and the join is answered 200 or refused, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seatEntry } from '../../protocol/index';
import { seatAccount } from '../../server/storage/accounts';
import { api, postgresAvailable, startTestServer, type Backend, type TestServer } from './helpers';
import { signUp } from './account-helpers';

const hasPg = await postgresAvailable();

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`an account deleted while it joins (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend);
    });
    afterAll(() => t.stop());

    it('storage: the removal returns the seats it unlinked, and a seat linked afterwards to the gone account is refused with nothing written', async () => {
      const host = await signUp(t.url, `host${backend}`);
      const gone = await signUp(t.url, `gone${backend}`);
      const id = (await t.store.accounts.byKey(`gone${backend}`))!.id;
      const matchID = (await host.call('/games/watergate/create', { rated: false })).body.matchID;
      expect((await gone.call(`/games/watergate/${matchID}/join`, { playerID: '1' })).status).toBe(200);
      const links = await t.store.accounts.remove(id, 'deleted player');
      expect(links).toEqual([{ matchID, seat: '1', accountID: id }]);
      const before = (await t.store.head(matchID))!.metadata;
      await expect(t.store.updateMetadata(matchID, (m) => ({ metadata: { ...m, updatedAt: 1 }, links: [{ matchID, seat: '0', accountID: id }] }))).rejects.toThrow('this account has been deleted');
      expect((await t.store.head(matchID))!.metadata).toEqual(before);
    });

    it('over HTTP, raced 12 times: no seat stays with the deleted account, and no 500', async () => {
      const host = await signUp(t.url, `racehost${backend}`);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const name = `race${backend}${i}`;
        const me = await signUp(t.url, name);
        const id = (await t.store.accounts.byKey(name))!.id;
        const matchID = (await host.call('/games/watergate/create', { rated: false })).body.matchID;
        const [join, del] = await Promise.all([me.call(`/games/watergate/${matchID}/join`, { playerID: '1' }), me.call('/auth/delete', { password: 'correct horse battery' })]);
        expect(del.status).toBe(200);
        statuses.push(join.status);
        expect([200, 401, 403, 409]).toContain(join.status);
        const seat = seatEntry((await t.store.head(matchID))!.metadata.players, '1');
        expect(seatAccount(seat)?.id, `round ${i}: the seat is ${JSON.stringify(seat)}`).not.toBe(id);
        expect((await api(t.url, `/players/${name}`)).status).toBe(404);
      }
      expect(statuses.every((s) => s !== 500)).toBe(true);
    });
  });
}
