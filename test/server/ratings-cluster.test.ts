/**
 * Two server processes on one PostgreSQL and one Redis end the same rated match at the same moment (each
 * seat's socket on its own process resigns on the same state): one write wins, and both side ratings
 * move exactly once, as both processes report. A session made on one process opens the other.
 */
import { describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import { api, player, postgresAvailable, until } from './helpers';
import { as, signUp, twoProcesses } from './account-helpers';

const hasPg = await postgresAvailable();
const start = twoProcesses({ LOG_LEVEL: 'info', LEADERBOARD_MIN_GAMES: '1' });

describe.skipIf(!hasPg)('a rated result with two processes', () => {
  it('is written exactly once when both processes end the same match', async () => {
    const [a, b] = await start();
    const ed = await signUp(a.url, 'EditorOne');
    const nxOnA = await signUp(a.url, 'NixonTwo');
    // The session is stored, not kept in one process's memory: the other process knows it.
    const nx = as(b.url, nxOnA.username, nxOnA.cookie);
    expect((await nx.call('/auth/me')).body.username).toBe('NixonTwo');
    const matchID = (await ed.call('/games/watergate/create', {})).body.matchID;
    const c0 = (await ed.call(`/games/watergate/${matchID}/join`, { playerID: '0' })).body.playerCredentials;
    const c1 = (await nx.call(`/games/watergate/${matchID}/join`, { playerID: '1' })).body.playerCredentials;
    const ps = { '0': player(a.url, matchID, '0', c0), '1': player(b.url, matchID, '1', c1) };
    try {
      await until(() => ps['0'].state() !== null && ps['1'].state() !== null, 'both synced');
      const made = { '0': 0, '1': 0 };
      while (made['0'] < 3 || made['1'] < 3) {
        const s = ps['0'].state()!;
        const seat = s.G.prompt!.player as '0' | '1';
        await until(() => ps[seat].state()!._stateID === s._stateID, 'the mover is current');
        const m = legalMoves(ps[seat].state()!.G as unknown as WatergateState, seat).find((x) => x.move !== 'resign')!;
        (ps[seat].client.moves as Record<string, (x: unknown) => void>)[m.move](m.args[0]);
        await until(() => ps['0'].state()!._stateID > s._stateID && ps['1'].state()!._stateID > s._stateID, 'both saw the move');
        made[seat]++;
      }
      // Both resign on the same state, each on its own process.
      for (const seat of ['0', '1'] as const) (ps[seat].client.moves as Record<string, () => void>).resign();
      await until(() => ps['0'].state()!.ctx.gameover !== undefined && ps['1'].state()!.ctx.gameover !== undefined, 'over on both');
    } finally {
      ps['0'].stop();
      ps['1'].stop();
    }
    for (const p of [a, b]) {
      const e = (await api(p.url, '/players/EditorOne')).body;
      const n = (await api(p.url, '/players/NixonTwo')).body;
      expect([e.ratings.editor.games, n.ratings.nixon.games]).toEqual([1, 1]);
      expect([e.matches.length, n.matches.length]).toEqual([1, 1]);
      // Whoever resigned first lost; the other's rating rose by what this one lost.
      expect(e.ratings.editor.rating + n.ratings.nixon.rating).toBeCloseTo(3000, 6);
    }
  }, 180_000);
});
