/**
 * The expert level in a lobby match: the vs-computer route takes it, the seat is marked with it, and the
 * server's bot plays it through the worker pool (its one big search in a worker thread), within the
 * level's time cap: its first move reaches the human's board over the socket.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { api, player, startTestServer, stored, until, type TestServer } from '../server/helpers';

describe('a vs-computer match at level expert', () => {
  let t: TestServer;
  afterAll(async () => t?.stop());

  it('seats the expert, which moves first as the Editor through the worker threads', async () => {
    t = await startTestServer('embedded', { bots: { threads: 2 } });
    const made = await api(t.url, '/games/watergate/vs-computer', { botSeat: '0', level: 'expert' });
    expect(made.status).toBe(200);
    const { matchID, humanSeat } = made.body;
    const seats = (await api(t.url, `/games/watergate/${matchID}`)).body.players;
    expect(seats[0]).toMatchObject({ name: 'Computer', data: { bot: 'expert' } });
    const start = (await stored(t.store, matchID)).state._stateID as number;
    const join = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: humanSeat, playerName: 'Ann' });
    expect(join.status).toBe(200);
    const human = player(t.url, matchID, humanSeat, join.body.playerCredentials);
    try {
      await until(() => (human.state()?._stateID ?? 0) > start, "the expert's move reaching the human", 60_000);
    } finally {
      human.stop();
    }
    const log = (await stored(t.store, matchID)).state.G.log as { player?: string }[];
    expect(log.some((e) => e.player === '0')).toBe(true);
    expect(Number(/wg_bot_think_seconds_count (\d+)/.exec(await t.server.metrics.registry.metrics())![1])).toBeGreaterThan(0);
    expect(t.logs.filter((l) => /bot seat failed|refused/.test(l))).toEqual([]);
  }, 120_000);
});
