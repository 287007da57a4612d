/**
 * Events over real connections (in-process servers, SQLite and PostgreSQL): 8 and 9 players, 3 rounds,
 * every game ended by a resignation from the seat's own socket; paired deals sharing the seed with sides
 * swapped; the routes' refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './account-helpers';
import { checkEvent, getEvent, pairStatus, playRound, playToEnd, resign, seatOf, signUpPlayers } from './event-helpers';
import type { RoundStart } from '../../server/events/runner';
import { postgresAvailable, startTestServer, stored, until, type Backend, type TestServer } from './helpers';

const hasPg = await postgresAvailable();

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`events (${backend})`, () => {
    let t: TestServer;
    const announced: RoundStart[] = [];
    beforeAll(async () => {
      t = await startTestServer(backend, { events: { tickMs: 150, noShowMs: 60_000, onRound: (r) => announced.push(r) } });
    });
    afterAll(async () => t?.stop());

    it('an 8-player and a 9-player event of 3 rounds run to the end: balanced sides, no opponent twice, one bye a round', async () => {
      for (const n of [8, 9]) {
        const ep = await signUpPlayers(t.url, n, `p${n}${backend.slice(0, 2)}`);
        const [creator] = ep.players;
        const made = await creator.call('/api/tournaments', { name: `Swiss of ${n}`, rounds: 3, clock: 'none', rated: false });
        expect(made.status).toBe(200);
        const id = made.body.id as string;
        for (const p of ep.players) expect((await p.call(`/api/tournaments/${id}/join`, {})).status).toBe(200);
        expect((await ep.players[1].call(`/api/tournaments/${id}/start`, {})).status).toBe(403);
        expect((await creator.call(`/api/tournaments/${id}/start`, {})).status).toBe(200);
        await until(async () => (await getEvent(creator, id)).round === 1, 'round 1 paired');
        const e = await playToEnd(t.url, creator, ep, id);
        checkEvent(e, n, false);
        // Each round announced once, with its games and the players' accounts (for notices).
        const mine = announced.filter((r) => r.eventID === id);
        expect(mine.map((r) => r.round)).toEqual([1, 2, 3]);
        for (const r of mine) {
          const games = e.rounds[r.round - 1].filter((g) => 'matchID' in g) as { matchID: string; editor: string; nixon: string }[];
          expect(r.games.map((g) => [g.matchID, g.editor.username, g.nixon.username])).toEqual(games.map((g) => [g.matchID, g.editor, g.nixon]));
          expect(r.bye?.username ?? null).toBe((e.rounds[r.round - 1].find((g) => 'bye' in g) as { bye: string } | undefined)?.bye ?? null);
        }
        // Scores: a point a game won, a point a bye; the standings best first.
        expect(e.players.reduce((s, p) => s + p.score, 0)).toBe(3 * Math.floor(n / 2) + 3 * (n % 2));
        expect(e.players.map((p) => p.score)).toEqual([...e.players.map((p) => p.score)].sort((a, b) => b - a));
        // Each game's match holds the two accounts in the named sides, and the result agrees with the match.
        const g = e.rounds[0].find((x) => 'matchID' in x) as { matchID: string; editor: string; nixon: string; result: string };
        const m = await stored(t.store, g.matchID);
        expect([m.metadata.players['0'].name, m.metadata.players['1'].name]).toEqual([g.editor, g.nixon]);
        expect(m.state.ctx.gameover.winner).toBe(g.result === 'editor' ? '0' : '1');
        // The list shows it; joining a finished event is refused.
        expect(((await creator.call('/api/tournaments')).body.events as { id: string; status: string }[]).find((x) => x.id === id)?.status).toBe('finished');
        expect((await creator.call(`/api/tournaments/${id}/join`, {})).status).toBe(409);
      }
    });

    it('paired deals: each pair plays one deal from both sides, the second game made only when the first ends', async () => {
      const ep = await signUpPlayers(t.url, 4, `pd${backend.slice(0, 2)}`);
      const [creator] = ep.players;
      const id = (await creator.call('/api/tournaments', { name: 'Duplicate', rounds: 3, clock: 'none', rated: false, paired: true })).body.id as string;
      for (const p of ep.players) await p.call(`/api/tournaments/${id}/join`, {});
      await creator.call(`/api/tournaments/${id}/start`, {});
      await until(async () => (await getEvent(creator, id)).round === 1, 'round 1 paired');
      const r1 = (await getEvent(creator, id)).rounds[0] as { matchID: string; editor: string; nixon: string; seed: string; result: string | null }[];
      expect(r1).toHaveLength(2); // two boards, their first games only: the second deals are not made yet
      const first = r1[0];
      const s = await seatOf(ep.byName.get(first.nixon)!, first.matchID);
      await resign(t.url, first.matchID, s.playerID, s.playerCredentials);
      await until(async () => (await getEvent(creator, id)).rounds[0].length === 3, 'the second game of the pair');
      const second = (await getEvent(creator, id)).rounds[0].find((g) => 'matchID' in g && g.matchID !== first.matchID && g.seed === first.seed) as typeof first;
      expect([second.editor, second.nixon]).toEqual([first.nixon, first.editor]);
      // The same deal: the two matches start from the same state (hands, decks, bag), seats swapped. (The view
      // names the second game as soon as the document does; its match is made by the runner's next step.)
      await until(async () => (await stored(t.store, second.matchID)).initialState !== undefined, 'the second match made');
      const [a, b] = [await stored(t.store, first.matchID), await stored(t.store, second.matchID)];
      expect(b.initialState.G).toEqual(a.initialState.G);
      expect(b.initialState.plugins.random.data.seed).toBe(a.initialState.plugins.random.data.seed);
      expect(first.seed).not.toBe(a.initialState.plugins.random.data.seed); // the public id is not the seed
      // Each board says which game of the pair it is; the second names the first and who won it (the pair's score so far).
      expect(await pairStatus(t.url, first.matchID)).toEqual({ game: 1, event: id });
      expect(await pairStatus(t.url, second.matchID)).toEqual({ game: 2, first: { matchID: first.matchID, winner: 'editor' }, event: id });
      const view = (await getEvent(creator, id)).rounds[0] as (typeof first & { pair: unknown })[];
      expect(view.find((g) => g.matchID === first.matchID)!.pair).toEqual({ game: 1, score: null });
      expect(view.find((g) => g.matchID === second.matchID)!.pair).toEqual({ game: 2, score: null });
      const e = await playToEnd(t.url, creator, ep, id);
      checkEvent(e, 4, true);
      for (const p of e.players) expect(p.sides.editor).toBe(p.sides.nixon);
      // Every round's pairs: two games with one seed, the sides swapped; score 1 / ½ / 0.
      for (const r of e.rounds) {
        const games = r as (typeof first)[];
        for (let i = 0; i < games.length; i += 2) {
          expect(games[i + 1].seed).toBe(games[i].seed);
          expect([games[i + 1].editor, games[i + 1].nixon]).toEqual([games[i].nixon, games[i].editor]);
          // The pair's points on both its games: 1 / ½ / 0 between its two players, by games won.
          const pair = games[i] as typeof first & { pair: { game: number; score: { player: string; points: number }[] } };
          expect((games[i + 1] as typeof pair).pair.score).toEqual(pair.pair.score);
          expect(pair.pair.score.map((x) => x.player)).toEqual([games[i].editor, games[i].nixon]);
          const wins = (u: string) => [games[i], games[i + 1]].filter((g) => g.result !== 'none' && g[g.result as 'editor' | 'nixon'] === u).length;
          expect(pair.pair.score.map((x) => x.points)).toEqual(wins(games[i].editor) === 2 ? [1, 0] : wins(games[i].nixon) === 2 ? [0, 1] : [0.5, 0.5]);
        }
        expect(new Set(games.map((g) => g.seed)).size).toBe(games.length / 2);
      }
      expect(e.players.reduce((s2, p) => s2 + p.score, 0)).toBe(3 * 2);
    });

    it('a rated game resigned before its first decision scores as lost by that side; a game nobody starts is forfeited by the side to move', async () => {
      const slow = await startTestServer(backend, { events: { tickMs: 100, noShowMs: 2_000 } });
      try {
        const ep = await signUpPlayers(slow.url, 4, `ns${backend.slice(0, 2)}`);
        const [creator] = ep.players;
        const id = (await creator.call('/api/tournaments', { name: 'No shows', rounds: 3, clock: 'none', rated: true })).body.id as string;
        for (const p of ep.players) await p.call(`/api/tournaments/${id}/join`, {});
        await creator.call(`/api/tournaments/${id}/start`, {});
        await until(async () => (await getEvent(creator, id)).round === 1, 'round 1 paired');
        const [g1, g2] = (await getEvent(creator, id)).rounds[0] as { matchID: string; editor: string; nixon: string; result: string | null }[];
        const s = await seatOf(ep.byName.get(g1.editor)!, g1.matchID);
        await resign(slow.url, g1.matchID, s.playerID, s.playerCredentials);
        await until(async () => (await getEvent(creator, id)).rounds[0].every((g) => 'matchID' in g && g.result !== null), 'both games scored', 30_000);
        const r = (await getEvent(creator, id)).rounds[0] as (typeof g1)[];
        expect(r.map((g) => g.result)).toEqual(['nixon', 'nixon']);
        expect((await stored(slow.store, g1.matchID)).state.ctx.gameover).toMatchObject({ reason: 'aborted', aborted: '0' });
        expect((await stored(slow.store, g2.matchID)).state.ctx.gameover).toMatchObject({ winner: '1', reason: 'abandoned' });
        expect(slow.logs.some((l) => l.includes(g2.matchID) && l.includes('the game ended by an exit'))).toBe(true);
      } finally {
        await slow.stop();
      }
    });

    it('rounds at set times: round 2 waits for its time though round 1 is over, the next look stored for then', async () => {
      const ep = await signUpPlayers(t.url, 4, `rm${backend.slice(0, 2)}`);
      const [creator] = ep.players;
      const id = (await creator.call('/api/tournaments', { name: 'Timed rounds', rounds: 3, clock: 'none', rated: false, roundMinutes: 1 })).body.id as string;
      for (const p of ep.players) await p.call(`/api/tournaments/${id}/join`, {});
      const started = Date.now();
      await creator.call(`/api/tournaments/${id}/start`, {});
      await until(async () => (await getEvent(creator, id)).round === 1, 'round 1 paired');
      await playRound(t.url, creator, ep, id, 5);
      await until(async () => (await getEvent(creator, id)).rounds[0].every((g) => 'matchID' in g && g.result !== null), 'round 1 scored');
      await until(async () => {
        const row = await t.store.events.get(id);
        return row!.nextAt! >= started + 60_000 - 1000;
      }, 'the next look at round 2 time');
      await new Promise((r) => setTimeout(r, 1000)); // several ticks
      const e = await getEvent(creator, id);
      expect([e.status, e.round]).toEqual(['running', 1]);
      const row = await t.store.events.get(id);
      expect(row!.nextAt! - started).toBeGreaterThan(58_000);
      expect(row!.nextAt! - started).toBeLessThan(62_000);
    });

    it('one write per version: of ten writers of one version, one lands', async () => {
      const row = { id: `race${backend}`, version: 0, status: 'open', nextAt: null, createdAt: Date.now(), doc: '{}' };
      await t.store.events.insert(row);
      const wins = await Promise.all(Array.from({ length: 10 }, (_, i) => t.store.events.update({ ...row, doc: JSON.stringify({ i }) })));
      expect(wins.filter(Boolean)).toHaveLength(1);
      const after = await t.store.events.get(row.id);
      expect(after!.version).toBe(1);
      expect(JSON.parse(after!.doc).i).toBe(wins.indexOf(true));
    });

    it('refusals: signed out, bad bodies, entry rules, a start with too few players cancels', async () => {
      const ann = await signUp(t.url, `ann${backend.slice(0, 2)}`);
      expect((await fetch(`${t.url}/api/tournaments`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify({ name: 'x y z', rounds: 3 }) })).status).toBe(401);
      for (const bad of [{ name: 'ok name', rounds: 0 }, { name: 'ok name', rounds: 3, clock: 'blitz' }, { name: 'a\u202eb c', rounds: 3 }, { name: 'ok name', rounds: 3, extra: 1 }, { name: 'ok name', rounds: 3, minRating: 1800, maxRating: 1200 }, { name: 'ok name', rounds: 3, startsAt: 5 }])
        expect((await ann.call('/api/tournaments', bad)).status, JSON.stringify(bad)).toBe(400);
      // A time control by its clock, a start as an ISO date.
      const byClock = await ann.call('/api/tournaments', { name: 'By clock', rounds: 3, clock: { initialSeconds: 600, incrementSeconds: 10 }, startsAt: new Date(Date.now() + 3_600_000).toISOString() });
      expect(byClock.status).toBe(200);
      expect((await ann.call(`/api/tournaments/${byClock.body.id}`)).body).toMatchObject({ clock: 'live', status: 'open' });
      expect((await ann.call('/api/tournaments', { name: 'Odd clock', rounds: 3, clock: { initialSeconds: 1 } })).status).toBe(400);
      const ranged = (await ann.call('/api/tournaments', { name: 'Established only', rounds: 3, minRating: 1000 })).body.id;
      // CSRF: a change carrying the session cookie but no Origin is refused.
      expect((await fetch(`${t.url}/api/tournaments/${ranged}/withdraw`, { method: 'POST', headers: { cookie: ann.cookie } })).status).toBe(403);
      const j = await ann.call(`/api/tournaments/${ranged}/join`, {});
      expect(j.status).toBe(403);
      expect(j.body.error).toMatch(/established/);
      expect((await ann.call('/api/tournaments/nope')).status).toBe(404);
      const small = (await ann.call('/api/tournaments', { name: 'Too small', rounds: 3 })).body.id;
      await ann.call(`/api/tournaments/${small}/join`, {});
      expect((await ann.call(`/api/tournaments/${small}/withdraw`, {})).status).toBe(200);
      expect((await ann.call(`/api/tournaments/${small}/withdraw`, {})).status).toBe(409);
      await ann.call(`/api/tournaments/${small}/join`, {});
      await ann.call(`/api/tournaments/${small}/start`, {});
      await until(async () => (await getEvent(ann, small)).status === 'cancelled', 'cancelled');
      expect((await ann.call(`/api/tournaments/${small}`)).body.note).toBe('too-few-players');
    });
  });
}
