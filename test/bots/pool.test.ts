/**
 * Server-side bot decisions in worker threads: the pool runs the same bot on the same view as this
 * thread would (same seed, same move), refuses a full state, and keeps serving after an error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { legalMoves, newGame, playerView } from '../../game';
import { BotPool } from '../../bots/pool';
import { think } from '../../bots/levels';
import { review } from '../../bots/analyse';
import { botRng } from '../../bots/rng';

const pool = new BotPool({ threads: 1 });
afterAll(() => pool.close());

describe('BotPool (worker threads)', () => {
  it('returns the decision this thread would make for the same view and seed', async () => {
    const view = playerView(newGame({}, botRng(31)), '0');
    const config = { level: 'normal' as const, deterministic: true, seed: 8 };
    const [inWorker, here] = [await pool.think(view, config), think(view, config)];
    expect(inWorker.iterations).toBe(1000);
    expect(inWorker.move).toEqual(here.move);
    expect(inWorker.stats).toEqual(here.stats);
  });

  it('rejects a full state with a clear error, then still serves views', async () => {
    const G = newGame({}, botRng(32));
    await expect(pool.think(G as never, { level: 'easy' })).rejects.toThrow(/never the full state/);
    const d = await pool.think(playerView(G, '0'), { level: 'easy', deterministic: true });
    expect(d.move.move).toBe('play');
  });

  it("judges a finished game's decision as this thread would (the server's cached analysis)", async () => {
    const G = newGame({}, botRng(33));
    const played = legalMoves(G, '0').at(-1)!;
    const config = { iterations: 300, deterministic: true, seed: 2 };
    const [inWorker, here] = [await pool.review(playerView(G, '0'), played, config), review(playerView(G, '0'), played, config)];
    expect({ ...inWorker, elapsedMs: 0 }).toEqual({ ...here, elapsedMs: 0 });
    expect(inWorker.after).not.toBeNull();
    await expect(pool.review(G as never, played, config)).rejects.toThrow(/never the full state/);
  });
});
