/**
 * How a rated game ends, over real HTTP and sockets, on both storages (server/match/ending.ts, the commit
 * door): every way a game can end — a finished game, resigning, the clock, leaving, being away past the
 * abandon limit, deleting the account, an abort before both sides decided — and for each, the records
 * the players' profiles show name exactly the winner `ctx.gameover` names (an abort: nobody, unrated,
 * and which side had not decided). The issue's attacks: handing the away opponent's seat to the computer
 * and then resigning no longer wins; leaving, rejoining as a guest and resigning, or deleting the
 * account, no longer dodges the loss.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import { api, player, postgresAvailable, startTestServer, until, type Backend, type TestServer } from './helpers';
import { signUp, type Signed } from './account-helpers';

const hasPg = await postgresAvailable();

type Seat = '0' | '1';
type Player = ReturnType<typeof player>;

interface Rated {
  matchID: string;
  who: Record<Seat, Signed>;
  creds: Record<Seat, string>;
  ps: Record<Seat, Player>;
}

/** Makes the decider's first legal decision (never a resignation) and waits for it to land. */
async function decide(g: Rated): Promise<Seat> {
  const s = g.ps['0'].state()!;
  const seat = s.G.prompt!.player as Seat;
  const mine = g.ps[seat].state()!;
  const m = legalMoves(mine.G as unknown as WatergateState, seat).find((x) => x.move !== 'resign')!;
  (g.ps[seat].client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
  await until(() => g.ps['0'].state()!._stateID > s._stateID && g.ps['1'].state()!._stateID > s._stateID, 'the move landed');
  return seat;
}

const over = (g: Rated) => g.ps['0'].state()?.ctx.gameover as { winner?: Seat; reason: string; aborted?: Seat } | undefined;

/** A rated match between two new accounts, both seats synced; then decisions until each side made `each`. */
async function ratedGame(t: TestServer, tag: string, each: number, setupData?: unknown): Promise<Rated> {
  const who = { '0': await signUp(t.url, `${tag}Ed`), '1': await signUp(t.url, `${tag}Nx`) };
  const made = await who['0'].call('/games/watergate/create', setupData ? { setupData } : {});
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const matchID = made.body.matchID as string;
  const creds = { '0': (await who['0'].call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials, '1': (await who['1'].call(`/games/watergate/${matchID}/join`, { playerID: '1' })).body.playerCredentials };
  const ps = { '0': player(t.url, matchID, '0', creds['0']), '1': player(t.url, matchID, '1', creds['1']) };
  await until(() => ps['0'].state() !== null && ps['1'].state() !== null, 'synced');
  const g = { matchID, who, creds, ps };
  const count = { '0': 0, '1': 0 };
  while (count['0'] < each || count['1'] < each) count[await decide(g)]++;
  return g;
}

/** Each account's record of the match, as its public profile shows it. */
async function records(t: TestServer, g: Rated) {
  const of = async (s: Seat) => ((await api(t.url, `/players/${g.who[s].username}`)).body.matches as { matchID: string; won: boolean; rated: boolean; reason: string; unratedReason: string | null }[]).find((m) => m.matchID === g.matchID);
  return { '0': await of('0'), '1': await of('1') };
}

/** The stored records agree with the game's end: the side ctx.gameover names won, the other lost (an abort: neither, unrated). */
async function agree(t: TestServer, g: Rated, expected: { winner?: Seat; reason: string; aborted?: Seat }) {
  await until(() => over(g) !== undefined, 'the game over on the board');
  const end = over(g)!;
  expect(end).toMatchObject(expected);
  let r = await records(t, g);
  await until(async () => ((r = await records(t, g)), r['0'] !== undefined && r['1'] !== undefined), 'both records');
  for (const s of ['0', '1'] as const) {
    expect(r[s]!.won, `seat ${s}`).toBe(end.winner === s);
    expect(r[s]!.reason).toBe(end.reason);
    expect(r[s]!.rated).toBe(end.winner !== undefined);
    // An abort says on the profile whose first decision was missing.
    if (end.aborted) expect(r[s]!.unratedReason).toBe(end.aborted === '0' ? 'aborted-editor' : 'aborted-nixon');
  }
  const stored = (await t.store.head(g.matchID))!.metadata.gameover;
  expect(stored).toEqual(end);
  return r;
}

const stop = (g: Rated) => Object.values(g.ps).forEach((p) => p.stop());

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`a rated game's end and its records agree (${backend})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer(backend, { leaderboardMinGames: 1 });
    });
    afterAll(() => t.stop());

    it('resigning after both sides decided: the resigner loses', async () => {
      const g = await ratedGame(t, 'rs', 1);
      (g.ps['1'].client.moves as Record<string, () => void>).resign();
      await agree(t, g, { winner: '0', reason: 'resigned' });
      stop(g);
    });

    it('resigning before the opponent\'s first decision aborts the game: nobody wins, unrated, and it says whose decision was missing', async () => {
      const g = await ratedGame(t, 'ab', 0);
      expect(await decide(g)).toBe('0');
      while (g.ps['0'].state()!.G.prompt!.player === '0') await decide(g);
      (g.ps['0'].client.moves as Record<string, () => void>).resign();
      await agree(t, g, { reason: 'aborted', aborted: '1' });
      const view = g.ps['1'].state()!.G as unknown as { aborted?: Seat; winner: Seat | null; log: { key: string }[] };
      expect(view.winner).toBeNull();
      expect(view.aborted).toBe('1');
      expect(view.log.at(-1)!.key).toBe('game.aborted');
      // Nothing more can be played.
      const again = await t.server.move(g.matchID, '1', 'resign', undefined);
      expect(again).toMatch(/over/);
      const prof = (await api(t.url, `/players/${g.who['0'].username}`)).body;
      expect(prof.ratings.editor.games).toBe(0);
      stop(g);
    });

    it('leaving after both sides decided loses (and rejoining the empty seat as a guest changes nothing)', async () => {
      const g = await ratedGame(t, 'lv', 1);
      const left = await api(t.url, `/games/watergate/${g.matchID}/leave`, { playerID: '0', credentials: g.creds['0'] });
      expect(left.status).toBe(200);
      await agree(t, g, { winner: '1', reason: 'left' });
      const guest = await api(t.url, `/games/watergate/${g.matchID}/join`, { playerID: '0', playerName: 'Sneaky' });
      if (guest.status === 200) expect(await t.server.move(g.matchID, '1', 'resign', undefined)).toMatch(/over/);
      expect((await records(t, g))['0']!.won).toBe(false);
      stop(g);
    });

    it('a wrong leave changes nothing: the game goes on', async () => {
      const g = await ratedGame(t, 'wl', 1);
      const refused = await api(t.url, `/games/watergate/${g.matchID}/leave`, { playerID: '0', credentials: g.creds['1'] });
      expect(refused.status).toBe(403);
      expect(over(g)).toBeUndefined();
      expect((await t.store.head(g.matchID))!.metadata.gameover).toBeUndefined();
      stop(g);
    });

    it('leaving before the first decisions aborts', async () => {
      const g = await ratedGame(t, 'la', 0);
      expect((await api(t.url, `/games/watergate/${g.matchID}/leave`, { playerID: '1', credentials: g.creds['1'] })).status).toBe(200);
      await agree(t, g, { reason: 'aborted', aborted: '0' });
      stop(g);
    });

    it('the attack: the away opponent\'s seat handed over, then a resignation — the away seat loses at once, the computer never plays and the resignation is refused', async () => {
      const g = await ratedGame(t, 'fl', 1);
      g.ps['1'].stop();
      await until(async () => (await t.store.head(g.matchID))!.metadata.away?.['1'] !== undefined, 'Nixon shown away', 20_000);
      const tooSoon = await api(t.url, `/games/watergate/${g.matchID}/standIn`, { playerID: '0', credentials: g.creds['0'] });
      expect(tooSoon.status).toBe(409);
      expect(over(g)).toBeUndefined();
      // A day and a half later (the rated limit is a day).
      await t.store.updateMetadata(g.matchID, (m) => ({ ...m, away: { ...m.away, '1': Date.now() - 36 * 3600_000 } }));
      await t.server.service.metadataChanged(g.matchID);
      const handed = await api(t.url, `/games/watergate/${g.matchID}/standIn`, { playerID: '0', credentials: g.creds['0'] });
      expect(handed.status).toBe(200);
      await until(() => over(g) !== undefined, 'over');
      expect((await t.store.head(g.matchID))!.metadata.standIns?.['1']).toBeUndefined();
      (g.ps['0'].client.moves as Record<string, () => void>).resign();
      const r = await agree(t, g, { winner: '0', reason: 'abandoned' });
      expect(r['0']!.won).toBe(true);
      g.ps['0'].stop();
    });

    it('deleting the account after both sides decided loses the game; the opponent\'s record keeps the win', async () => {
      const g = await ratedGame(t, 'dl', 1);
      const nx = g.who['1'].username;
      expect((await g.who['1'].call('/auth/delete', { password: 'correct horse battery' })).status).toBe(200);
      await until(() => over(g) !== undefined, 'over');
      expect(over(g)).toMatchObject({ winner: '0', reason: 'left' });
      const ed = ((await api(t.url, `/players/${g.who['0'].username}`)).body.matches as { matchID: string; won: boolean; rated: boolean }[]).find((m) => m.matchID === g.matchID)!;
      expect(ed).toMatchObject({ won: true, rated: true });
      expect((await api(t.url, `/players/${nx}`)).status).toBe(404);
      expect((await api(t.url, `/players/${g.who['0'].username}`)).body.ratings.editor.rating).toBeGreaterThan(1500);
      stop(g);
    });

    it('the clock running out loses, even when the match said the computer should play on', async () => {
      const g = await ratedGame(t, 'tm', 1, { clock: { initialSeconds: 600, incrementSeconds: 10, onTimeout: 'bot' } });
      const decider = g.ps['0'].state()!.G.prompt!.player as Seat;
      await t.store.updateMetadata(g.matchID, (m) => ({ ...m, clock: { ...m.clock!, deadline: Date.now() - 1000, remaining: { ...m.clock!.remaining, [decider]: 0 }, since: Date.now() - 600_000 } }));
      await t.server.service.metadataChanged(g.matchID);
      const loser = decider;
      await agree(t, g, { winner: loser === '0' ? '1' : '0', reason: 'time' });
      expect((await t.store.head(g.matchID))!.metadata.standIns?.[loser]).toBeUndefined();
      stop(g);
    });

    it('a game played to its end by the rules: the records name its winner', async () => {
      const g = await ratedGame(t, 'nt', 1);
      for (let n = 0; over(g) === undefined && n < 2000; n++) await decide(g);
      const end = over(g)!;
      expect(['connected', 'momentum', 'supply']).toContain(end.reason);
      await agree(t, g, { winner: end.winner, reason: end.reason });
      stop(g);
    });
  });
}
