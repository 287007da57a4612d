/**
 * GET /games/watergate/:id/replay against a real server: refused while the game is on (403, the same words
 * before and during play, nothing of the state in them), 404 for an unknown match, and after the game the
 * initial state and moves that the replay page's reducer turns into exactly the states the server had —
 * every one of them, to the stored final state — with names and roles but no credentials or seat data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, secretsOf, type PlayerID, type WatergateState } from '../../game/index';
import { REPLAY_FORMAT, REPLAY_NOT_YET, replayPath, type ReplayData } from '../../protocol/replay';
import { replayStates } from '../../client/replay/steps';
import { randomChooser } from '../../tools/playout';
import { seeded } from '../helpers/rng';
import { api, createAndJoin, startTestServer, stored, type TestServer } from './helpers';

const WEBHOOK = 'https://hooks.example.org/secret-token-for-seat-1';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded');
});
afterAll(async () => {
  await t?.stop();
});

const stateOf = async (matchID: string) => (await t.server.service.current(matchID))!.state;

/** Plays seeded random legal moves through the server until the game ends (or `limit` moves); the states after each. */
async function play(matchID: string, seed: number, limit = Infinity) {
  const choose = randomChooser(seeded(seed));
  const after: { G: unknown; ctx: unknown }[] = [];
  for (let n = 0; n < limit; n++) {
    const s = await stateOf(matchID);
    if (s.ctx.gameover !== undefined) return after;
    const p = s.G.prompt!.player as PlayerID;
    const m = choose(legalMoves(s.G, p), p);
    expect(await t.server.move(matchID, p, m.move, m.args[0])).toBeNull();
    const now = await stateOf(matchID);
    after.push(structuredClone({ G: now.G, ctx: now.ctx }));
  }
  return after;
}

describe('the replay route', () => {
  it('refuses while the game is on with the same words before and during play, none of them secret; 404 for an unknown match', async () => {
    const { matchID } = await createAndJoin(t.url);
    const before = await api(t.url, replayPath(matchID));
    await play(matchID, 7, 12);
    const during = await api(t.url, replayPath(matchID));
    for (const r of [before, during]) {
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: REPLAY_NOT_YET });
    }
    // Nothing hidden from a spectator (hands, decks, bag, face-down tokens) appears in the refusal.
    const G = (await stored(t.store, matchID)).state.G as WatergateState;
    const secrets = [...secretsOf(G, null)];
    expect(secrets.length).toBeGreaterThan(20);
    for (const id of secrets) expect(JSON.stringify(during.body)).not.toContain(id);

    const unknown = await api(t.url, replayPath('no-such-match'));
    expect(unknown.status).toBe(404);
    expect((await api(t.url, '/games/chess/' + matchID + '/replay')).status).toBe(404);
  });

  it('after a whole game: every decision replays to the state the server had, ending on the stored final state; no credentials or seat data', { timeout: 120_000 }, async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    expect((await api(t.url, `/games/watergate/${matchID}/update`, { playerID: '1', credentials: creds['1'], data: { notify: { webhook: WEBHOOK } } })).status).toBe(200);
    const after = await play(matchID, 2026);
    const final = await stored(t.store, matchID);
    expect(final.state.ctx.gameover).toBeDefined();

    const r = await api(t.url, replayPath(matchID));
    expect(r.status).toBe(200);
    const data = r.body as ReplayData;
    expect(data).toMatchObject({ format: REPLAY_FORMAT, matchID, gameover: final.state.ctx.gameover });
    expect(data.players).toEqual([
      { id: '0', role: 'editor', name: 'Woodward' },
      { id: '1', role: 'nixon', name: 'Nixon' },
    ]);
    const text = JSON.stringify(data);
    for (const secret of [creds['0'], creds['1'], WEBHOOK, 'credentials', 'notify']) expect(text).not.toContain(secret);

    expect(data.initialState).toEqual(final.initialState);
    expect(data.moves.map((m) => m.stateID)).toEqual(after.map((_, i) => i + 1));
    const states = replayStates(data);
    expect(states).toHaveLength(after.length + 1);
    after.forEach((s, i) => expect({ G: states[i + 1].G, ctx: states[i + 1].ctx }, `state ${i + 1}`).toEqual(s));
    const last = states.at(-1)!;
    expect(last.G).toEqual(final.state.G);
    expect(last.ctx).toEqual(final.state.ctx);
    expect(last._stateID).toBe(final.state._stateID);
  });

  it("a game ended by a resignation made while the other player decides replays too (the engine's anytime move)", async () => {
    const { matchID } = await createAndJoin(t.url);
    await play(matchID, 11, 9);
    const waiting = (await stateOf(matchID)).G.prompt!.player === '0' ? '1' : '0';
    expect(await t.server.move(matchID, waiting, 'resign', undefined)).toBeNull();
    const final = await stored(t.store, matchID);
    const data = (await api(t.url, replayPath(matchID))).body as ReplayData;
    expect(data.moves.at(-1)).toMatchObject({ playerID: waiting, move: 'resign' });
    const last = replayStates(data).at(-1)!;
    expect(last.ctx.gameover).toEqual({ winner: waiting === '0' ? '1' : '0', reason: 'resigned' });
    expect({ G: last.G, ctx: last.ctx }).toEqual({ G: final.state.G, ctx: final.state.ctx });
  });
});
