/**
 * The bot's work is bounded: the worker pool takes at most threads + maxQueue decisions at once and
 * refuses the next at once (BotQueueFull) instead of queueing without end; a computer seat whose decision
 * was refused so thinks later, and its move comes — nothing is lost, nothing logged as a failure.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { legalMoves, newGame, playerView } from '../../game';
import { BotPool, BotQueueFull } from '../../bots/pool';
import { samplerFor } from '../../bots/determinize';
import { botRng } from '../../bots/rng';
import type { Thinker } from '../../bots/bgio';
import { api, player, startTestServer, stored, until, type TestServer } from '../server/helpers';

describe('the bot queue', () => {
  const pool = new BotPool({ threads: 1, maxQueue: 2 });
  afterAll(() => pool.close());

  it('takes threads + maxQueue decisions, refuses the next at once, and takes more once they are done', async () => {
    const view = playerView(newGame({}, botRng(41)), '0');
    const config = { level: 'easy' as const, deterministic: true };
    const taken = [pool.think(view, config), pool.think(view, config), pool.think(view, config)];
    expect(pool.queued).toBe(3);
    const refused = pool.think(view, config);
    await expect(refused).rejects.toBeInstanceOf(BotQueueFull);
    await expect(refused).rejects.toThrow(/bot queue is full \(3 decisions waiting\)/);
    const done = await Promise.all(taken);
    for (const d of done) expect(d.move.move).toBe('play');
    expect(pool.queued).toBe(0);
    expect((await pool.think(view, config)).move.move).toBe('play');
  });
});

describe('a computer seat whose decision found the queue full', () => {
  let calls = 0;
  const rng = botRng(12);
  // Refuses twice as a full pool would, then answers with a legal move of a world sampled from the view.
  const thinker: Thinker = (view) => {
    calls++;
    if (calls <= 2) throw new BotQueueFull(9);
    return { move: legalMoves(samplerFor(view).sample(rng), view.viewer!)[0], iterations: 0, elapsedMs: 0, stats: [] };
  };
  let t: TestServer;
  afterAll(async () => t?.stop());

  it('thinks later and moves', async () => {
    t = await startTestServer('embedded', { bots: { thinker, retryMs: 20 } });
    const { matchID, humanSeat } = (await api(t.url, '/games/watergate/vs-computer', { botSeat: '0' })).body;
    const start = (await stored(t.store, matchID)).state._stateID as number;
    const join = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: humanSeat, playerName: 'Ann' });
    expect(join.status).toBe(200);
    // The human's board brings the match into the server's memory, where its computer seat plays.
    const human = player(t.url, matchID, humanSeat, join.body.playerCredentials);
    try {
      await until(() => (human.state()?._stateID ?? 0) > start, "the computer's move reaching the human");
    } finally {
      human.stop();
    }
    expect(calls).toBe(3);
    expect(t.logs.filter((l) => /bot seat failed|refused/.test(l))).toEqual([]);
    expect(t.logs.filter((l) => /bot queue full/.test(l))).toHaveLength(2);
  });
});
