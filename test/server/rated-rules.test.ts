/**
 * Rated means fixed rules (README "Rated matches", protocol/rated.ts), over real HTTP on both storages:
 * a rated match is created only with one of the time controls, its abandon-limit floor, no hints,
 * take-backs off and the standard rules (else a 400 naming the field); "Play now" makes its rated
 * matches the same way; a rematch that changes any setting is unrated and says what changed, one that
 * changes nothing stays rated; the rematch seat is kept for the old opponent — a stranger's join, or a
 * stranger sitting in the old match's seat asking "play again", gets a 409 that says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMATCH_SEAT_KEPT_MS, STATUS_EVENT, type MatchStatus, type PublicMatch } from '../../protocol/index';
import { TIME_CONTROLS } from '../../protocol/rated';
import { signUp, signUpFrom, type Signed } from './account-helpers';
import { api, apiFrom, createAndJoin, next as nextEvent, postgresAvailable, rawSocket, startTestServer, type Backend, type TestServer } from './helpers';

const hasPg = await postgresAvailable();
const LIVE = { initialSeconds: 600, incrementSeconds: 10, onTimeout: 'lose' };

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`rated matches have fixed rules (${backend})`, () => {
    let t: TestServer;
    let n = 0;
    beforeAll(async () => {
      t = await startTestServer(backend);
    });
    afterAll(async () => t?.stop());
    const match = async (id: string): Promise<PublicMatch> => (await api(t.url, `/games/watergate/${id}`)).body;
    const two = async () => [await signUp(t.url, `Rater${++n}a`), await signUp(t.url, `Rater${n}b`)] as const;
    /** A rated match between two accounts, both seated: its id and each seat's credentials. */
    const ratedPair = async (a: Signed, b: Signed, setupData?: unknown) => {
      const made = await a.call('/games/watergate/create', { rated: true, ...(setupData ? { setupData } : {}) });
      expect(made.status).toBe(200);
      const matchID = made.body.matchID as string;
      const creds = { '0': (await a.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials as string, '1': (await b.call(`/games/watergate/${matchID}/join`, { playerID: '1' })).body.playerCredentials as string };
      return { matchID, creds };
    };

    it('refuses a rated match with a one-minute abandon limit, hints, a 1-second clock or other non-rated settings, naming the field; unrated they are allowed', async () => {
      const [ann] = await two();
      const create = (setupData: unknown, rated = true) => ann.call('/games/watergate/create', { rated, setupData });
      const refused: [unknown, RegExp][] = [
        [{ abandonMinutes: 1 }, /^abandonMinutes must be at least 1440 in a rated match without a clock$/],
        [{ clock: LIVE, abandonMinutes: 1 }, /^abandonMinutes must be at least 5 in a rated match with this clock \(live\)$/],
        [{ hints: true }, /^hints are never offered in a rated match/],
        [{ clock: { initialSeconds: 1, incrementSeconds: 0, onTimeout: 'lose' } }, /^clock must be one of the rated time controls in a rated match: left out \(none\), \{ initialSeconds: 600, incrementSeconds: 10 \} \(live\) or \{ initialSeconds: 86400, incrementSeconds: 14400 \} \(relaxed\)$/],
        [{ takeBacks: 'free' }, /^takeBacks must be "off" in a rated match$/],
        [{ jokerFallback: 'rulebook2019' }, /^jokerFallback must be "errata2023" \(the standard rules\) in a rated match$/],
        [{ pinImpossible: 'removeFromGame' }, /^pinImpossible must be "returnToBag" \(the standard rules\) in a rated match$/],
        [{ hints: 'yes' }, /^invalid setupData: hints must be true or false$/],
      ];
      for (const [setupData, error] of refused) {
        const r = await create(setupData);
        expect(r.status, JSON.stringify(setupData)).toBe(400);
        expect(r.body.error).toMatch(error);
        // The same settings unrated are a match as asked.
        if (!JSON.stringify(setupData).includes('"yes"')) expect((await create(setupData, false)).status, JSON.stringify(setupData)).toBe(200);
      }
      // Each control at its floor, or with no hand-over when it has a clock; untimed without one gets the floor.
      for (const c of Object.values(TIME_CONTROLS)) {
        const clock = c.clock ? { ...c.clock, onTimeout: 'lose' } : undefined;
        const r = await create({ ...(clock ? { clock } : {}), abandonMinutes: c.ratedAbandonFloor, takeBacks: 'off', jokerFallback: 'errata2023' });
        expect(r.status).toBe(200);
        expect((await match(r.body.matchID)).rated).toBe(true);
      }
      // Running out of time loses a rated game: a clock asked to hand over to the computer is stored as it applies.
      expect((await match((await create({ clock: { ...LIVE, onTimeout: 'bot' } })).body.matchID)).setupData).toEqual({ clock: LIVE });
      const plain = await match((await create({ clock: LIVE })).body.matchID);
      expect(plain).toMatchObject({ rated: true, setupData: { clock: LIVE } });
      expect((plain.setupData as { abandonMinutes?: number }).abandonMinutes).toBeUndefined();
      expect((await match((await ann.call('/games/watergate/create', { rated: true })).body.matchID)).setupData).toEqual({ abandonMinutes: 24 * 60 });
    });

    it('a rated match never offers hints, even one stored with them before they were refused', async () => {
      const [ann, bob] = await two();
      const statusOf = async (matchID: string, seat: '0' | '1', credentials: string) => {
        const s = await rawSocket(t.url);
        const status = nextEvent<[MatchStatus]>(s, STATUS_EVENT);
        s.emit('sync', matchID, seat, credentials, 2);
        const [got] = await status;
        s.close();
        return got;
      };
      const rated = await ratedPair(ann, bob);
      const guests = await createAndJoin(t.url, { hints: true });
      for (const m of [rated, guests]) {
        await t.store.updateMetadata(m.matchID, (d) => ({ ...d, setupData: { ...(d.setupData as object), hints: true } }));
        await t.server.service.metadataChanged(m.matchID);
      }
      expect((await statusOf(rated.matchID, '0', rated.creds['0'])).hints).toBe(false);
      expect((await statusOf(guests.matchID, '0', guests.creds['0'])).hints).toBe(true);
    });

    it('"Play now" makes its rated matches as a rated create does: untimed with the floor, live with its clock lost on time', async () => {
      // Two players at two addresses ("Play now" never pairs accounts seen from one address).
      const [ann, bob] = [await signUpFrom('127.0.0.2', t.url, `Rater${++n}a`), await signUpFrom('127.0.0.3', t.url, `Rater${n}b`)];
      const ask = (who: Signed, from: string, body: unknown) => apiFrom(from, t.url, '/pair', body, { cookie: who.cookie, origin: t.url });
      for (const clock of ['none', 'live'] as const) {
        const first = (await ask(ann, '127.0.0.2', { side: '0', clock, rated: true })).body;
        const second = (await ask(bob, '127.0.0.3', { side: '1', clock, rated: true })).body;
        const matchID = (second.matchID ?? (await ann.call('/pair/poll', { ticket: first.ticket })).body.matchID) as string;
        expect((await match(matchID)).setupData).toEqual(clock === 'none' ? { abandonMinutes: 24 * 60 } : { clock: LIVE });
      }
    });

    it('a rematch that changes the clock, the abandon limit or hints is unrated and says what changed; one that changes nothing stays rated', async () => {
      const [ann, bob] = await two();
      const old = await ratedPair(ann, bob, { clock: LIVE });
      const asked = await ann.call(`/games/watergate/${old.matchID}/playAgain`, { playerID: '0', credentials: old.creds['0'], setupData: { clock: { initialSeconds: 1, incrementSeconds: 0, onTimeout: 'lose' }, abandonMinutes: 1 } });
      expect(asked.status).toBe(200);
      const next = await match(asked.body.nextMatchID);
      expect(next.rated).toBeUndefined();
      expect(next.changed).toEqual([
        { setting: 'clock', from: LIVE, to: { initialSeconds: 1, incrementSeconds: 0, onTimeout: 'lose' } },
        { setting: 'abandonMinutes', from: null, to: 1 },
      ]);
      // The opponent accepting sits in an unrated match (their answer told them what changed).
      const accepted = await bob.call(`/games/watergate/${old.matchID}/playAgain`, { playerID: '1', credentials: old.creds['1'] });
      expect(accepted.status).toBe(200);
      expect((await match(asked.body.nextMatchID)).rated).toBeUndefined();

      // Hints and take-backs asked of an untimed rated match's rematch: unrated, listed.
      const untimed = await ratedPair(ann, bob);
      const hinted = await bob.call(`/games/watergate/${untimed.matchID}/playAgain`, { playerID: '1', credentials: untimed.creds['1'], setupData: { abandonMinutes: 24 * 60, hints: true, takeBacks: 'free' } });
      const h = await match(hinted.body.nextMatchID);
      expect(h.rated).toBeUndefined();
      expect(h.changed).toEqual([
        { setting: 'hints', from: false, to: true },
        { setting: 'takeBacks', from: 'off', to: 'free' },
      ]);

      // A setup that is none is refused, not taken for "nothing changed".
      const bad = await createAndJoin(t.url);
      for (const setupData of ['fast', 7, [], { clock: 'fast' }, { hints: 1 }])
        expect((await api(t.url, `/games/watergate/${bad.matchID}/playAgain`, { playerID: '0', credentials: bad.creds['0'], setupData })).status, JSON.stringify(setupData)).toBe(400);
      expect((await match(bad.matchID)).nextMatchID).toBeUndefined();

      // Nothing changed (no setup, or the same one written out): rated, with the old settings, no list.
      for (const setupData of [undefined, { clock: { initialSeconds: 600, incrementSeconds: 10 }, jokerFallback: 'errata2023' }]) {
        const same = await ratedPair(ann, bob, { clock: LIVE });
        const r = await ann.call(`/games/watergate/${same.matchID}/playAgain`, { playerID: '0', credentials: same.creds['0'], ...(setupData ? { setupData } : {}) });
        const m = await match(r.body.nextMatchID);
        expect(m).toMatchObject({ rated: true, setupData: { clock: LIVE } });
        expect(m.changed).toBeUndefined();
      }
    });

    it('the rematch seat is kept for the old opponent: a stranger joining it, or asking "play again" from the old seat they took, gets a 409 that says so', async () => {
      const { matchID, creds } = await createAndJoin(t.url); // Woodward (Editor), Nixon
      const asked = await api(t.url, `/games/watergate/${matchID}/playAgain`, { playerID: '0', credentials: creds['0'] });
      const nextID = asked.body.nextMatchID as string;
      const next = await match(nextID);
      expect(next.kept).toEqual({ seat: '0', until: expect.any(Number) });
      expect(next.kept!.until - Date.now()).toBeGreaterThan(REMATCH_SEAT_KEPT_MS - 60_000);
      expect(JSON.stringify(next)).not.toMatch(/holder|credentials/);

      const kept = /^seat 0 \(the Editor\) is kept for the rematch's old opponent until \d{4}-\d\d-\d\dT[\d:.]+Z: they take it through "play again"$/;
      for (const body of [{ playerID: '0', playerName: 'Stranger' }, { playerName: 'Stranger' }]) {
        const r = await api(t.url, `/games/watergate/${nextID}/join`, body);
        expect(r.status).toBe(409);
        expect(r.body.error).toMatch(kept);
      }
      // The old opponent leaves the finished pairing; a stranger takes their old seat and asks to play again.
      expect((await api(t.url, `/games/watergate/${matchID}/leave`, { playerID: '1', credentials: creds['1'] })).status).toBe(200);
      const sat = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Stranger' });
      expect(sat.status).toBe(200);
      const via = await api(t.url, `/games/watergate/${matchID}/playAgain`, { playerID: '1', credentials: sat.body.playerCredentials });
      expect(via.status).toBe(409);
      expect(via.body.error).toMatch(kept);
      expect((await match(nextID)).players[0]).toEqual({ id: 0 });

      // The old opponent themself takes it through "play again"; then nothing is kept.
      const other = await createAndJoin(t.url);
      const a = await api(t.url, `/games/watergate/${other.matchID}/playAgain`, { playerID: '1', credentials: other.creds['1'] });
      const b = await api(t.url, `/games/watergate/${other.matchID}/playAgain`, { playerID: '0', credentials: other.creds['0'] });
      expect(b).toMatchObject({ status: 200, body: { nextMatchID: a.body.nextMatchID, playerID: '1' } });
      expect((await match(a.body.nextMatchID)).kept).toBeUndefined();
    });

    it('a rated rematch seat is kept for the old opponent\'s account: the account accepts, a stranger\'s join is refused', async () => {
      const [ann, bob] = await two();
      const stranger = await signUp(t.url, `Rater${n}c`);
      const old = await ratedPair(ann, bob);
      const asked = await ann.call(`/games/watergate/${old.matchID}/playAgain`, { playerID: '0', credentials: old.creds['0'] });
      const nextID = asked.body.nextMatchID as string;
      expect((await stranger.call(`/games/watergate/${nextID}/join`, { playerID: '0' })).status).toBe(409);
      const accepted = await bob.call(`/games/watergate/${old.matchID}/playAgain`, { playerID: '1', credentials: old.creds['1'] });
      expect(accepted).toMatchObject({ status: 200, body: { nextMatchID: nextID, playerID: '0' } });
      expect(await match(nextID)).toMatchObject({ rated: true, players: [{ id: 0, name: bob.username }, { id: 1, name: ann.username }] });
    });
  });
}
