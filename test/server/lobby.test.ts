/**
 * The Lobby REST API against a real server: the whole flow a lobby page drives, bad bodies, the
 * concurrent join race (hardening 6), origins on HTTP (hardening 5) and per-match seeds (hardening 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InitializeGame } from 'boardgame.io/internal';
import { Watergate, type WatergateState } from '../../game/index';
import { api, createAndJoin, postgresAvailable, startTestServer, type Backend, type TestServer, stored } from './helpers';

const hasPg = await postgresAvailable();

describe('Lobby REST flow', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { origins: ['https://play.example.org', 'http://localhost:*'] });
  });
  afterAll(async () => t?.stop());

  it('lists, creates, joins both seats, gets, renames, leaves and plays again', async () => {
    expect((await api(t.url, '/games')).body).toEqual(['watergate']);
    const created = await api(t.url, '/games/watergate/create', { numPlayers: 2, setupData: { jokerFallback: 'rulebook2019' } });
    expect(created.status).toBe(200);
    const { matchID } = created.body;
    const listed = await api(t.url, '/games/watergate');
    expect(listed.body.matches.map((m: { matchID: string }) => m.matchID)).toContain(matchID);

    const editor = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Woodward' });
    expect(editor.status).toBe(200);
    expect(editor.body.playerID).toBe('0');
    const nixon = await api(t.url, `/games/watergate/${matchID}/join`, { playerName: 'Dick' }); // first free seat
    expect(nixon.body.playerID).toBe('1');
    expect(nixon.body.playerCredentials).not.toBe(editor.body.playerCredentials);
    expect((await api(t.url, `/games/watergate/${matchID}/join`, { playerName: 'Late' })).status).toBe(409);

    const got = await api(t.url, `/games/watergate/${matchID}`);
    expect(got.body.players).toEqual([
      { id: 0, name: 'Woodward' },
      { id: 1, name: 'Dick' },
    ]);
    expect(JSON.stringify(got.body)).not.toContain(editor.body.playerCredentials); // credentials never listed
    expect(got.body.setupData).toEqual({ jokerFallback: 'rulebook2019' });

    const renamed = await api(t.url, `/games/watergate/${matchID}/update`, { playerID: '1', credentials: nixon.body.playerCredentials, newName: 'Richard' });
    expect(renamed.status).toBe(200);
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[1].name).toBe('Richard');
    const forged = await api(t.url, `/games/watergate/${matchID}/update`, { playerID: '1', credentials: editor.body.playerCredentials, newName: 'Hacker' });
    expect(forged.status).toBe(403);
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[1].name).toBe('Richard');

    // Both ask to play again at once: one next match for both, each seated in the other role.
    const [again0, again1] = await Promise.all([
      api(t.url, `/games/watergate/${matchID}/playAgain`, { playerID: '0', credentials: editor.body.playerCredentials }),
      api(t.url, `/games/watergate/${matchID}/playAgain`, { playerID: '1', credentials: nixon.body.playerCredentials }),
    ]);
    expect(again0.status).toBe(200);
    expect(again0.body.nextMatchID).toBe(again1.body.nextMatchID);
    const next = await api(t.url, `/games/watergate/${again0.body.nextMatchID}`);
    expect(next.body.players).toEqual([
      { id: 0, name: 'Richard' },
      { id: 1, name: 'Woodward' },
    ]);
    expect(next.body.setupData).toEqual({ jokerFallback: 'rulebook2019' });

    expect((await api(t.url, `/games/watergate/${matchID}/leave`, { playerID: '1', credentials: 'wrong' })).status).toBe(403);
    expect((await api(t.url, `/games/watergate/${matchID}/leave`, { playerID: '1', credentials: nixon.body.playerCredentials })).status).toBe(200);
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players[1]).toEqual({ id: 1 });
    // The seat is free again; the last player leaving removes the match.
    expect((await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Ford' })).status).toBe(200);
    const m2 = await createAndJoin(t.url);
    await api(t.url, `/games/watergate/${m2.matchID}/leave`, { playerID: '0', credentials: m2.creds['0'] });
    await api(t.url, `/games/watergate/${m2.matchID}/leave`, { playerID: '1', credentials: m2.creds['1'] });
    expect((await api(t.url, `/games/watergate/${m2.matchID}`)).status).toBe(404);
  });

  it('answers malformed bodies with a clear 4xx and changes nothing (hardening 8)', async () => {
    const before = (await api(t.url, '/games/watergate')).body.matches.length;
    const bad: [string, unknown, number, RegExp][] = [
      ['/games/watergate/create', { numPlayers: 100000 }, 400, /numPlayers must be 2/],
      ['/games/watergate/create', { numPlayers: 'two' }, 400, /numPlayers/],
      ['/games/watergate/create', { setupData: { jokerFallback: 'x'.repeat(5000) } }, 400, /setupData/],
      ['/games/watergate/create', { setupData: 'nope' }, 400, /setupData/],
      ['/games/watergate/create', { unlisted: 'yes' }, 400, /unlisted/],
      ['/games/watergate/create', { evil: 1 }, 400, /unknown field "evil"/],
      ['/games/watergate/create', '{"numPlayers": 2', 400, /./], // broken JSON
      ['/games/watergate/create', [1, 2], 400, /JSON object/],
      ['/games/chess/create', { numPlayers: 2 }, 404, /game "chess" not found/],
      ['/games/watergate/create', { setupData: { x: 'y'.repeat(20_000) } }, 413, /./], // body over 16 kB
    ];
    for (const [path, body, status, message] of bad) {
      const r = await api(t.url, path, body);
      expect(r.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBe(status);
      expect(typeof r.body === 'object' ? r.body.error : r.body).toMatch(message);
    }
    expect((await api(t.url, '/games/watergate')).body.matches.length).toBe(before);

    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const joins: [unknown, number, RegExp][] = [
      [{}, 400, /playerName is required/],
      [{ playerName: 42 }, 400, /playerName/],
      [{ playerName: 'x'.repeat(41) }, 400, /1 to 40/],
      [{ playerName: '   ' }, 400, /1 to 40/],
      [{ playerName: 'A', playerID: '2' }, 400, /playerID must be/],
      [{ playerName: 'A', playerID: { $ne: 1 } }, 400, /playerID must be/],
      [{ playerName: 'A', data: 'str' }, 400, /data must be an object/],
    ];
    for (const [body, status, message] of joins) {
      const r = await api(t.url, `/games/watergate/${matchID}/join`, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error).toMatch(message);
    }
    expect((await api(t.url, `/games/watergate/nosuchmatch/join`, { playerName: 'A' })).status).toBe(404);
    expect((await api(t.url, `/games/watergate/${matchID}`)).body.players).toEqual([{ id: 0 }, { id: 1 }]);
    expect((await api(t.url, '/healthz')).body).toEqual({ status: 'ok', storage: 'embedded', bus: 'none' });
  });

  it('gives every match its own unpredictable PRNG seed, not one derived from createdAt (hardening 2)', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, async () => (await api(t.url, '/games/watergate/create', {})).body.matchID as string));
    const decks = new Set<string>();
    for (const id of ids) {
      const { createdAt } = (await api(t.url, `/games/watergate/${id}`)).body as { createdAt: number };
      const { state } = await stored(t.store, id);
      const G = state.G as WatergateState;
      decks.add(JSON.stringify(G.decks));
      // Replay boardgame.io's default seeding (Date.now() in base 36) for every ms around createdAt.
      for (let ms = createdAt - 50; ms <= createdAt + 5; ms++) {
        const guess = InitializeGame({ game: { ...Watergate, seed: ms.toString(36) }, numPlayers: 2 });
        expect(JSON.stringify((guess.G as WatergateState).decks)).not.toBe(JSON.stringify(G.decks));
      }
    }
    expect(decks.size).toBe(ids.length);
  });

  it('lets only the own origin and configured origins through CORS; patterns are anchored (hardening 5)', async () => {
    const ok = await api(t.url, '/games/watergate/create', {}, { Origin: 'https://play.example.org' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://play.example.org');
    expect((await api(t.url, '/games/watergate', undefined, { Origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await api(t.url, '/games/watergate', undefined, { Origin: t.url })).status).toBe(200); // same origin
    const before = (await api(t.url, '/games/watergate')).body.matches.length;
    for (const evil of ['http://localhost:3000.evil.example', 'https://play.example.org.evil.example', 'https://evil.example', 'null', 'http://evil.localhost:80']) {
      const r = await api(t.url, '/games/watergate/create', {}, { Origin: evil });
      expect(r.status, evil).toBe(403);
      expect(r.headers.get('access-control-allow-origin'), evil).toBeNull();
    }
    expect((await api(t.url, '/games/watergate')).body.matches.length).toBe(before);
  });
});

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`concurrent seat claims (${backend}, hardening 6)`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend);
    });
    afterAll(async () => t?.stop());

    it('20 concurrent joins for one seat give exactly one seat and 19 clear 409s', async () => {
      for (let round = 0; round < 3; round++) {
        const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: `P${i}` })),
        );
        const winners = results.filter((r) => r.status === 200);
        const losers = results.filter((r) => r.status === 409);
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(19);
        for (const l of losers) expect(l.body.error).toBe('seat 1 (Nixon) is already taken');
        // The winner's credentials are the ones stored: nobody overwrote them.
        const winnerName = `P${results.indexOf(winners[0])}`;
        const { metadata } = await stored(t.store, matchID);
        expect(metadata.players[1]).toMatchObject({ name: winnerName, credentials: winners[0].body.playerCredentials });
      }
    });
  });
}
