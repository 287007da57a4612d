/**
 * The server's cached analysis of a finished game, against a real server (embedded SQLite and PostgreSQL):
 * refused while the game is on (same words before and during play, nothing secret in them); the first
 * request after the end starts it (202) and later ones see it under way; once computed by the bot pool it
 * is served as stored, the same for everyone, each decision judged from its decider's own view exactly as
 * bots/analyse.ts judges it in this process; starting analyses is limited per address; the analysis goes
 * with its match. The storage's claim lets one process compute it, and another take over a dead one's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, secretsOf, type PlayerID, type WatergateState } from '../../game/index';
import { decisionSeen } from '../../game/review';
import { review } from '../../bots/analyse';
import { ANALYSIS_FORMAT, ANALYSIS_NOT_YET, analysisPath, type GameAnalysis } from '../../protocol/analysis';
import { replayPath, type ReplayData } from '../../protocol/replay';
import { replayStates } from '../../client/replay/steps';
import { GameAnalyser, SERVER_BUDGET } from '../../server/analysis/analyser';
import { BotPool } from '../../bots/pool';
import { configFromEnv } from '../../server/config';
import { Watergate, playerView } from '../../game/index';
import { randomChooser } from '../../tools/playout';
import { seeded } from '../helpers/rng';
import { api, createAndJoin, postgresAvailable, startTestServer, stored, until, type Backend, type TestServer } from './helpers';

const pg = await postgresAvailable();

/** Seeded random legal moves through the server, `count` of them, then the Editor resigns (unless told not to). */
async function play(t: TestServer, matchID: string, seed: number, count: number, resign = true): Promise<void> {
  const choose = randomChooser(seeded(seed));
  for (let n = 0; n < count; n++) {
    const s = (await t.server.service.current(matchID))!.state;
    if (s.ctx.gameover !== undefined) return;
    const p = s.G.prompt!.player as PlayerID;
    const m = choose(legalMoves(s.G, p), p);
    expect(await t.server.move(matchID, p, m.move, m.args[0])).toBeNull();
  }
  if (resign) expect(await t.server.move(matchID, '0', 'resign', undefined)).toBeNull();
}

/** A smaller search than the servers' (SERVER_BUDGET) where the budget is not what is tested: seconds of CPU instead of a minute. */
const SMALL_BUDGET = { iterations: 200, seed: 0 };

describe.each(['embedded', 'postgres'] as Backend[])('the cached analysis (%s)', (backend) => {
  let t: TestServer;
  // The shipped budget on the embedded store; PostgreSQL tests the same route and storage with a smaller one.
  const budget = backend === 'embedded' ? SERVER_BUDGET : SMALL_BUDGET;
  beforeAll(async () => {
    if (backend === 'postgres' && !pg) return;
    t = await startTestServer(backend, { bots: { threads: 1 }, limits: { analyse: { points: 3, seconds: 600 } }, ...(budget === SERVER_BUDGET ? {} : { analysis: { budget } }) });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  it.skipIf(backend === 'postgres' && !pg)('is refused while the game is on, computed once after it by the bot pool from each decider\'s view, then served as stored', { timeout: 240_000 }, async () => {
    const { matchID } = await createAndJoin(t.url);
    const before = await api(t.url, analysisPath(matchID));
    await play(t, matchID, 3, 24, false);
    const during = await api(t.url, analysisPath(matchID));
    for (const r of [before, during]) expect(r).toMatchObject({ status: 403, body: { error: ANALYSIS_NOT_YET } });
    const G = (await stored(t.store, matchID)).state.G as WatergateState;
    for (const id of secretsOf(G, null)) expect(JSON.stringify(during.body)).not.toContain(id);
    expect(await t.store.analyses.get(matchID)).toBeUndefined(); // nothing was started

    await play(t, matchID, 3, 0);
    const first = await api(t.url, analysisPath(matchID));
    expect(first).toMatchObject({ status: 202, body: { pending: true, done: 0 } });
    const again = await api(t.url, analysisPath(matchID));
    expect(again.status).toBe(202);
    let served: { status: number; body: GameAnalysis } = again;
    await until(async () => (served = await api(t.url, analysisPath(matchID))).status === 200, 'the analysis', 200_000);

    // Served as stored, to anyone, at once.
    const text = async () => (await fetch(t.url + analysisPath(matchID))).text();
    const [one, two] = [await text(), await text()];
    expect(one).toBe(two);
    expect(JSON.parse(one)).toEqual(served.body);
    expect((await t.store.analyses.get(matchID))?.body).toBe(one);

    // What the replay page would judge: every decision at a prompt, from its decider's own view.
    const data = (await api(t.url, replayPath(matchID))).body as ReplayData;
    const states = replayStates(data);
    const seen = data.moves.flatMap((m, i) => {
      const s = decisionSeen(states[i].G, m);
      return s ? [{ step: i + 1, ...s }] : [];
    });
    const a = served.body;
    expect(a).toMatchObject({ format: ANALYSIS_FORMAT, matchID, budget });
    expect(a.decisions.map((d) => [d.step, d.decider])).toEqual(seen.map((s) => [s.step, s.decider]));
    expect(a.decisions.length).toBe(24);
    const judged = a.decisions.filter((d) => !d.review.forced);
    expect(judged.length).toBeGreaterThan(10);
    for (const d of judged) expect(d.review.iterations).toBe(budget.iterations);

    // Kept with the match and gone with it.
    await t.store.wipe(matchID);
    expect(await t.store.analyses.get(matchID)).toBeUndefined();
    expect((await api(t.url, analysisPath(matchID))).status).toBe(404);

    // The same reviews this process makes from the same views (the budget counts iterations only). Last:
    // the server closes a connection left idle meanwhile, and a request on it could meet the close.
    for (const s of seen.filter((x) => !a.decisions.find((d) => d.step === x.step)!.review.forced).slice(0, 4)) {
      const here = review(s.view, s.played, { ...budget, deterministic: true });
      expect({ ...a.decisions.find((d) => d.step === s.step)!.review, elapsedMs: 0 }).toEqual({ ...here, elapsedMs: 0 });
    }
  });

  it.skipIf(backend === 'postgres' && !pg)('on a server that computes none (ANALYSIS_CACHE=0): 204, nothing started, a stored one still served', async () => {
    const off = await startTestServer(backend, { bots: { threads: 1 }, analysis: false });
    try {
      const { matchID } = await createAndJoin(off.url);
      expect((await api(off.url, analysisPath(matchID))).status).toBe(403);
      await play(off, matchID, 5, 2);
      expect((await api(off.url, analysisPath(matchID))).status).toBe(204);
      expect(await off.store.analyses.get(matchID)).toBeUndefined();
      await off.store.analyses.claim(matchID, Date.now(), 0);
      await off.store.analyses.save(matchID, '{"format":"watergate-analysis/1"}');
      expect(await (await fetch(off.url + analysisPath(matchID))).text()).toBe('{"format":"watergate-analysis/1"}');
    } finally {
      await off.stop();
    }
  });

  it.skipIf(backend === 'postgres' && !pg)('limits the analyses one address may start, with Retry-After; asking about one under way or done costs nothing', { timeout: 120_000 }, async () => {
    // Two more finished games (resigned at once: nothing to judge) use up this address's 3 (one above).
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { matchID } = await createAndJoin(t.url);
      await play(t, matchID, 10 + i, 1);
      ids.push(matchID);
    }
    for (const id of ids.slice(0, 2)) {
      expect((await api(t.url, analysisPath(id))).status).toBe(202);
      await until(async () => (await api(t.url, analysisPath(id))).status === 200, 'a short analysis');
    }
    const refused = await api(t.url, analysisPath(ids[2]));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^too many game analyses started from your address: try again in \d+ seconds?$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await t.store.analyses.get(ids[2])).toBeUndefined();
    expect((await api(t.url, analysisPath(ids[0]))).status).toBe(200); // a finished one is still served
  });

  it.skipIf(backend === 'postgres' && !pg)('answers 404 to another game, an unknown or odd match id, and starts nothing', async () => {
    const { matchID } = await createAndJoin(t.url);
    await play(t, matchID, 31, 0);
    for (const path of [`/games/chess/${matchID}/analysis`, '/games/watergate/nope/analysis', `/games/watergate/${'x'.repeat(2000)}/analysis`, '/games/watergate/..%2F..%2Fetc%2Fpasswd/analysis', "/games/watergate/'%20OR%201=1--/analysis"]) {
      const r = await api(t.url, path);
      expect(r.status, path).toBe(404);
    }
    expect(await t.store.analyses.get(matchID)).toBeUndefined();
  });

  it.skipIf(backend === 'postgres' && !pg)('storage: one claim at a time; a stale claim is taken over; a failed one given back; a finished one stays', async () => {
    const { matchID } = await createAndJoin(t.url);
    const rows = t.store.analyses;
    expect(await rows.claim(matchID, 1000, 0)).toBe(true);
    expect(await rows.claim(matchID, 2000, 500)).toBe(false); // another process, while the first is alive
    expect(await rows.get(matchID)).toEqual({ claimedAt: 1000, body: null });
    expect(await rows.claim(matchID, 9000, 1500)).toBe(true); // the first died: taken over
    await rows.release(matchID);
    expect(await rows.get(matchID)).toBeUndefined();
    expect(await rows.claim(matchID, 10_000, 0)).toBe(true);
    await rows.save(matchID, '{"x":1}');
    expect(await rows.claim(matchID, 99_000, 98_000)).toBe(false);
    await rows.release(matchID);
    expect(await rows.get(matchID)).toEqual({ claimedAt: 10_000, body: '{"x":1}' });
  });
});

describe('the analysis gives way to the computer seats', () => {
  it('judges no decision while a seat\'s decision runs in the worker pool, and goes on once it is done; a bounded number wait', { timeout: 120_000 }, async () => {
    const t = await startTestServer('embedded', { analysis: false });
    const pool = new BotPool({ threads: 1 });
    const analyser = new GameAnalyser({ store: t.store, game: Watergate, pool, log: t.server.log, idleCheckMs: 20, maxWaiting: 1, budget: SMALL_BUDGET });
    try {
      const { matchID } = await createAndJoin(t.url);
      await play(t, matchID, 21, 6);
      const G = (await stored(t.store, matchID)).state.G as WatergateState;
      // A computer seat's long decision holds the only thread.
      const seat = pool.think(playerView({ ...G, prompt: { kind: 'play', player: '0' }, winner: null, endReason: null, phase: 'cards' } as WatergateState, '0'), { iterations: 1e9, timeMs: 3000 });
      await until(() => pool.queued === 1, 'the seat\'s decision');
      expect(await analyser.get(matchID, 'a')).toEqual({ pending: true, done: 0, total: null });
      await new Promise((r) => setTimeout(r, 1500));
      expect(await analyser.get(matchID, 'a')).toMatchObject({ pending: true, done: 0, total: 7 });
      expect(pool.queued).toBe(1); // nothing of the analysis waits in the pool: a seat's next decision would go first
      // One more may wait behind it (maxWaiting 1); the next is refused with a time to come back, and not claimed.
      const more: string[] = [];
      for (const seed of [22, 23]) {
        const { matchID: id } = await createAndJoin(t.url);
        await play(t, id, seed, 1);
        more.push(id);
      }
      expect(await analyser.get(more[0], 'a')).toMatchObject({ pending: true });
      await expect(analyser.get(more[1], 'a')).rejects.toMatchObject({ status: 503, retryAfterSeconds: 60 });
      expect(await t.store.analyses.get(more[1])).toBeUndefined();
      await seat;
      await until(async () => 'body' in (await analyser.get(matchID, 'a')), 'the analysis', 60_000);
      const a = JSON.parse(((await analyser.get(matchID, 'a')) as { body: string }).body) as GameAnalysis;
      expect(a.decisions.length).toBe(6);
      await until(async () => 'body' in (await analyser.get(more[0], 'a')), 'the second analysis');
    } finally {
      await analyser.close();
      await pool.close();
      await t.stop();
    }
  });
});

describe('ANALYSIS_CACHE', () => {
  it('is on unless set to 0; anything but 1 or 0 is refused, naming the variable', () => {
    expect(configFromEnv({}).analysisCache).toBe(true);
    expect(configFromEnv({ ANALYSIS_CACHE: '1' }).analysisCache).toBe(true);
    expect(configFromEnv({ ANALYSIS_CACHE: '0' }).analysisCache).toBe(false);
    expect(() => configFromEnv({ ANALYSIS_CACHE: 'yes' })).toThrow(/ANALYSIS_CACHE/);
    expect(configFromEnv({ LIMITS: 'analyse=2/60' }).limits).toEqual({ analyse: { points: 2, seconds: 60 } });
  });
});
