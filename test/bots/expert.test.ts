/**
 * The top level and root-parallel search. Expert is one search with four times hard's iterations and
 * time (a bigger tree won where merged trees of hard's size did not: docs/BOTS.md). Several searches of
 * one decision merged at the root (`searches`) are a pure function of (view, config, seed) under an
 * iteration budget however they are spread over threads; the merged statistics are the sum of the
 * searches'; the estimate is the chosen move's value; on the worker pool a decision takes no more places
 * than the pool has and a full pool refuses at once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { legalMoves, newGame, playerView, type WatergateView } from '../../game';
import { decide, keyOf } from '../../bots/ismcts';
import { mergeLanes, searchLane, splitLanes } from '../../bots/ensemble';
import { lanesFor, LEVELS, planSearches, think, type BotConfig } from '../../bots/levels';
import { BotPool, BotQueueFull } from '../../bots/pool';
import { botRng } from '../../bots/rng';
import { samplerFor } from '../../bots/determinize';
import { engineDriver, playout, randomChooser } from '../../tools/playout';

/** Decision points of a seeded random game, as the deciding seat sees them (copies: the game moves on). */
function positions(seed: number, every: number, count: number): WatergateView[] {
  const rng = botRng(seed);
  const out: WatergateView[] = [];
  for (const { state, player, moves, n } of playout(engineDriver(rng), newGame({}, rng), randomChooser(rng), { maxMoves: 200 }))
    if (n % every === 0 && moves.length > 1 && out.length < count) out.push(structuredClone(playerView(state, player)));
  return out;
}

/** Two searches merged at the root, scaled down. */
const small: BotConfig = { level: 'hard', searches: 2, deterministic: true, seed: 5, iterations: 300 };

describe('searches merged at the root', () => {
  const views = positions(71, 23, 3);

  it('is a pure function of view, config and seed, whether its searches run on 1, 2, 3 or 4 threads', () => {
    // The level's own searches, and four of them (a split into uneven lanes).
    for (const [view, config] of views.flatMap((v): [WatergateView, BotConfig][] => [[v, small], [v, { ...small, searches: 4 }]])) {
      const once = think(view, config);
      const again = think(structuredClone(view), config);
      expect(again.move).toEqual(once.move);
      expect(again.stats).toEqual(once.stats);
      for (const threads of [2, 3, 4]) {
        const split = mergeLanes(lanesFor(view, config, threads).map((lane) => searchLane(view, lane)));
        expect(split.move).toEqual(once.move);
        expect(split.stats).toEqual(once.stats);
        expect(split.iterations).toBe(once.iterations);
      }
      // Another seed samples other worlds: the statistics change.
      expect(think(view, { ...config, seed: 6 }).stats).not.toEqual(once.stats);
    }
  });

  it('merges its searches: each move has the sum of their visits and the visit-weighted mean of their values', () => {
    const view = views[0];
    const plan = planSearches(view, small);
    expect(plan).toHaveLength(2);
    expect(new Set(plan.map((o) => o.seed)).size).toBe(plan.length);
    const parts = plan.map((o) => decide(view, o));
    // Independent searches: not the same tree twice.
    expect(parts[1].stats).not.toEqual(parts[0].stats);
    const merged = think(view, small);
    expect(merged.iterations).toBe(2 * 300);
    const legal = new Set(legalMoves(samplerFor(view).sample(botRng(1)), view.viewer!).map(keyOf));
    for (const s of merged.stats) {
      expect(legal.has(keyOf(s.move))).toBe(true);
      const same = parts.flatMap((d) => d.stats.filter((x) => keyOf(x.move) === keyOf(s.move)));
      expect(s.visits).toBe(same.reduce((n, x) => n + x.visits, 0));
      expect(s.mean).toBeCloseTo(same.reduce((v, x) => v + x.mean * x.visits, 0) / s.visits, 10);
    }
    expect(merged.stats.reduce((n, s) => n + s.visits, 0)).toBe(merged.iterations);
    // The most visited move is played, and its value is the decider's estimated chance to win.
    expect(merged.move).toEqual(merged.stats[0].move);
    expect(merged.stats.every((s) => s.visits <= merged.stats[0].visits)).toBe(true);
    expect(merged.winChance).toBe(merged.stats[0].mean);
    expect(merged.winChance).toBeGreaterThan(0);
    expect(merged.winChance).toBeLessThan(1);
  });

  it('answers a forced move at once, and searches it anyway when asked for an estimate', () => {
    const forced = (() => {
      const rng = botRng(9);
      for (const { state, player, moves } of playout(engineDriver(rng), newGame({}, rng), randomChooser(rng), { maxMoves: 300 }))
        if (moves.length === 1) return structuredClone(playerView(state, player));
      throw new Error('no forced decision in the game');
    })();
    const quick = think(forced, small);
    expect(quick.iterations).toBe(0);
    expect(quick.winChance).toBeUndefined();
    const estimated = think(forced, { ...small, estimate: true });
    expect(estimated.move).toEqual(quick.move);
    expect(estimated.iterations).toBe(2 * 300);
    expect(estimated.stats).toHaveLength(1);
    expect(estimated.winChance).toBeGreaterThan(0);
  });

  it('shares its time cap among the searches that must wait for a thread', () => {
    const view = views[0];
    const cap = 2000;
    const four = { level: 'hard' as const, searches: 4, timeMs: cap };
    expect(planSearches(view, four, 1).map((o) => o.timeMs)).toEqual([cap / 4, cap / 4, cap / 4, cap / 4]);
    expect(planSearches(view, four, 2).map((o) => o.timeMs)).toEqual([cap / 2, cap / 2, cap / 2, cap / 2]);
    expect(planSearches(view, four, 8).map((o) => o.timeMs)).toEqual([cap, cap, cap, cap]);
    // Lanes of two searches on two threads: each lane's caps add up to the decision's.
    for (const lane of splitLanes(planSearches(view, four, 2), 2)) expect(lane.reduce((t, o) => t + o.timeMs!, 0)).toBe(cap);
    expect(planSearches(view, { ...four, deterministic: true }, 1).every((o) => o.timeMs === undefined)).toBe(true);
  });
});

describe('the expert level', () => {
  const view = positions(73, 19, 1)[0];

  it('is one search with four times hard\'s iterations and four times its time, on any number of threads', () => {
    for (const threads of [1, 2, 4]) {
      const plan = planSearches(view, { level: 'expert' }, threads);
      expect(plan).toHaveLength(1);
      expect(plan[0].iterations).toBe(4 * LEVELS.hard.iterations);
      expect(plan[0].timeMs).toBe(4 * LEVELS.hard.timeMs);
      // The same seed as any one-search level deciding here: the tree is the level's budget, nothing else.
      expect(plan[0].seed).toBe(planSearches(view, { level: 'hard' }, threads)[0].seed);
    }
    const d = think(view, { level: 'expert', deterministic: true, seed: 3, iterations: 500 });
    expect(d.iterations).toBe(500);
    expect(d.stats.reduce((n, s) => n + s.visits, 0)).toBe(500);
  });
});

describe('merged searches on the worker pool', () => {
  const pool = new BotPool({ threads: 2, maxQueue: 1 });
  afterAll(() => pool.close());
  const view = positions(72, 31, 1)[0];

  it('decides as one thread would, with a task per thread, and a full pool refuses the next decision at once', async () => {
    const here = think(view, small);
    const first = pool.think(view, small);
    expect(pool.queued).toBe(2); // two threads: a lane for each search
    // One place is left (2 threads + 1 waiting): a second merged decision needs two, so it is refused.
    await expect(pool.think(view, small)).rejects.toBeInstanceOf(BotQueueFull);
    // A decision of one search still fits.
    const hard = pool.think(view, { level: 'hard', deterministic: true, iterations: 200 });
    expect(pool.queued).toBe(3);
    await expect(pool.think(view, { level: 'easy' })).rejects.toBeInstanceOf(BotQueueFull);
    const inPool = await first;
    expect(inPool.move).toEqual(here.move);
    expect(inPool.stats).toEqual(here.stats);
    expect(inPool.iterations).toBe(here.iterations);
    await hard;
    expect(pool.queued).toBe(0);
    expect((await pool.think(view, small)).move).toEqual(here.move);
  });
});
