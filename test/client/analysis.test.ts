/**
 * The analysis's parts, without a browser: each decision of a replay is judged from the decider's own view
 * (no secret of the other side in what goes to the search, and a search that gives the same answer
 * whatever the hidden cards are), the review reads "before" and "after" from one search, forced decisions
 * cost nothing, and the curve and the swings are what the reviews say.
 */
import { describe, expect, it } from 'vitest';
import type { State } from 'boardgame.io';
import { InitializeGame } from 'boardgame.io/internal';
import { advance, legalMoves, playerView, secretsOf, Watergate, type MoveChoice, type PlayerID, type WatergateState } from '../../game';
import { analyse, review, sameMove, ANALYSIS, type Review } from '../../bots/index';
import { botRng } from '../../bots/rng';
import { replayStates } from '../../client/replay/steps';
import { decisionsToJudge, editorCurve, pickSwings, servedAnalysis, type Judged } from '../../client/replay/analysis/judge';
import { ANALYSIS_BUDGET, ANALYSIS_FORMAT } from '../../protocol/analysis';
import { REPLAY_FORMAT, type ReplayData } from '../../protocol/replay';

/** A finished game as the replay route gives it: random legal moves as the server applies them, then a resignation. */
function randomReplay(seed: number, decisions: number): ReplayData {
  const game = { ...Watergate, seed: `analysis-${seed}` };
  const initialState = InitializeGame({ game: game as never, numPlayers: 2 }) as State<WatergateState>;
  const rng = botRng(seed);
  const moves: ReplayData['moves'] = [];
  let state = initialState;
  const step = (playerID: PlayerID, m: { move: string; args: unknown[] }) => {
    const payload = { type: m.move, args: m.args, playerID };
    state = advance(state, { type: 'MAKE_MOVE', payload }).state;
    moves.push({ stateID: state._stateID, playerID, move: m.move, args: m.args });
  };
  for (let n = 0; n < decisions && state.ctx.gameover === undefined; n++) {
    const p = state.G.prompt!.player;
    const legal = legalMoves(state.G, p);
    step(p, legal[rng.int(legal.length)]);
  }
  step('0', { move: 'resign', args: [] });
  const data = { format: REPLAY_FORMAT, matchID: `m${seed}`, setupData: null, players: [], initialState: structuredClone(initialState), moves, gameover: state.ctx.gameover };
  return data as ReplayData;
}

const fake = (r: Partial<Review>): Review => ({ forced: false, before: null, after: null, best: { move: 'play', args: [] }, playedVisits: 0, iterations: 0, elapsedMs: 0, ...r });

describe('what the analysis judges a decision from', () => {
  const data = randomReplay(5, 60);
  const states = replayStates(data);
  const items = decisionsToJudge(data, states);

  it("is the decider's own view of the position before the decision, with the move played; the resignation is no decision to judge", () => {
    expect(items.length).toBe(60);
    expect(items.map((i) => i.step)).toEqual(data.moves.slice(0, 60).map((m) => m.stateID - data.moves[0].stateID + 1));
    for (const { step, decider, task } of items) {
      const m = data.moves[step - 1];
      expect(decider).toBe(m.playerID);
      expect(task.view).toEqual(playerView(states[step - 1].G, decider));
      expect(task.played).toEqual({ move: m.move, args: m.args });
    }
    expect(items.some((i) => i.decider === '0') && items.some((i) => i.decider === '1')).toBe(true);
  });

  it("carries nothing the decider could not see besides the public record: no card of the other hand, no deck, no bag, no secret token (a leak would fail this)", () => {
    let scanned = 0;
    for (const { step, decider, task } of items) {
      const G = states[step - 1].G;
      // The public record names tokens that went back to the bag since: it is the same for both seats (log).
      expect(task.view.log).toEqual(G.log);
      const text = JSON.stringify({ ...task, view: { ...task.view, log: [] } });
      const secrets = [...secretsOf(G, decider)];
      expect(secrets.length).toBeGreaterThan(10);
      for (const id of secrets) expect(text, `decision ${step}: ${id}`).not.toContain(`"${id}"`);
      expect(task.view.hands[decider === '0' ? '1' : '0']).toBeNull();
      scanned += secrets.length;
    }
    expect(scanned).toBeGreaterThan(1000);
    // The scan sees a leak when there is one: the full state holds the other hand.
    const G = states[items[0].step - 1].G;
    const other = items[0].decider === '0' ? '1' : '0';
    expect(JSON.stringify({ ...items[0].task, view: { ...items[0].task.view, log: [], hands: G.hands } })).toContain(`"${G.hands[other][0]}"`);
  });

  it('gives the same review whatever the hidden cards are, and refuses a full state', () => {
    const it0 = items.find((i) => i.decider === '0' && legalMoves(states[i.step - 1].G, '0').length > 1)!;
    const G = states[it0.step - 1].G;
    // Another world with the same view for the Editor: Nixon's hand and deck swapped, the bag reversed.
    const G2 = structuredClone(G);
    const n = G2.hands['1'].length;
    [G2.hands['1'], G2.decks['1']] = [G2.decks['1'].slice(0, n), [...G2.hands['1'], ...G2.decks['1'].slice(n)]];
    G2.bag.reverse();
    expect(G2.hands['1']).not.toEqual(G.hands['1']);
    const config = { iterations: 300, deterministic: true, seed: 3 };
    expect(review(playerView(G2, '0'), it0.task.played, config)).toEqual({ ...review(it0.task.view, it0.task.played, config), elapsedMs: expect.any(Number) });
    expect(() => analyse(G as never, config)).toThrow(/player view/);
  });
});

describe('a review', () => {
  const data = randomReplay(8, 40);
  const states = replayStates(data);
  const items = decisionsToJudge(data, states);
  const config = { iterations: 400, deterministic: true, seed: 1 };

  it('reads "before" (the best move) and "after" (the move played) from one search from the same view', () => {
    const chosen = items.filter((i) => legalMoves(states[i.step - 1].G, i.decider).length > 3).slice(0, 3);
    expect(chosen.length).toBe(3);
    for (const { task } of chosen) {
      const a = analyse(task.view, config);
      const r = review(task.view, task.played, config);
      expect(a.moves.length).toBeGreaterThan(1);
      expect(a.best.move).toEqual(a.moves[0].move);
      expect(a.moves[0].visits).toBe(Math.max(...a.moves.map((m) => m.visits)));
      const mine = a.moves.find((m) => sameMove(m.move, task.played))!;
      expect(r).toEqual({ forced: false, before: a.moves[0].value, after: mine.value, best: a.best.move, playedVisits: mine.visits, iterations: 400, elapsedMs: expect.any(Number) });
      for (const m of a.moves) expect(m.value).toBeGreaterThanOrEqual(0), expect(m.value).toBeLessThanOrEqual(1);
    }
  });

  it('finds the move played whatever the order of its arguments\' keys', () => {
    const { task } = items.find((i) => i.task.played.move === 'play' && legalMoves(states[i.step - 1].G, i.decider).length > 3)!;
    const arg = task.played.args[0] as Record<string, unknown>;
    const reordered = { move: task.played.move, args: [Object.fromEntries(Object.entries(arg).reverse())] } as MoveChoice;
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(task.played));
    expect(review(task.view, reordered, config)).toEqual({ ...review(task.view, task.played, config), elapsedMs: expect.any(Number) });
  });

  it('costs nothing for a decision with one legal move: no search, nothing lost', () => {
    const forced = items.find((i) => legalMoves(states[i.step - 1].G, i.decider).length === 1)!;
    expect(forced).toBeDefined();
    const r = review(forced.task.view, forced.task.played);
    expect(r).toMatchObject({ forced: true, before: null, after: null, iterations: 0 });
    expect(r.elapsedMs).toBeLessThan(1000);
    expect(pickSwings([{ step: forced.step, decider: forced.decider, review: r }])).toEqual([]);
  });

  it('uses the documented budget unless told otherwise', () => {
    expect(ANALYSIS).toEqual(ANALYSIS_BUDGET);
    const { task } = items.find((i) => legalMoves(states[i.step - 1].G, i.decider).length > 1)!;
    expect(review(task.view, task.played, { deterministic: true }).iterations).toBe(ANALYSIS_BUDGET.iterations);
  });
});

describe('the curve and the swings', () => {
  const j = (step: number, decider: PlayerID, r: Partial<Review>): Judged => ({ step, decider, review: fake(r) });

  it('are the three biggest losses, biggest first, an earlier one first on a tie; nothing lost, forced or untried is no swing', () => {
    const judged = [
      j(1, '0', { before: 0.5, after: 0.45 }), // 0.05
      j(2, '1', { before: 0.6, after: 0.3 }), // 0.30
      j(3, '0', { forced: true }),
      j(4, '1', { before: 0.7, after: null }), // never tried: unknown
      j(5, '0', { before: 0.4, after: 0.4 }), // the bot's own move
      j(6, '1', { before: 0.5, after: 0.55 }), // better than the bot's estimate of its own
      j(7, '0', { before: 0.8, after: 0.7, best: { move: 'pin', args: [{ space: 'X' }] } }), // 0.10
      j(8, '1', { before: 0.65, after: 0.55 }), // 0.10, later
      j(9, '0', { before: 0.3, after: 0.28 }), // 0.02
    ];
    expect(pickSwings(judged).map((s) => [s.rank, s.step])).toEqual([
      [1, 2],
      [2, 7],
      [3, 8],
    ]);
    const [, second] = pickSwings(judged);
    expect(second).toMatchObject({ decider: '0', before: 0.8, after: 0.7, best: { move: 'pin', args: [{ space: 'X' }] } });
    expect(second.loss).toBeCloseTo(0.1);
    expect(pickSwings(judged.slice(0, 3)).map((s) => s.step)).toEqual([2, 1]);
  });

  it("is the Editor's chance at every step: Nixon's estimates turned round, gaps filled from the next decision or the last point", () => {
    const judged = [
      j(1, '1', { forced: true }),
      j(2, '0', { before: 0.6, after: 0.4 }),
      j(3, '1', { before: 0.7, after: 0.75 }),
      j(4, '0', { forced: true }),
      j(5, '1', { before: 0.9, after: null }),
    ];
    // step 0: before decision 1 (forced: none), so the first estimate; 1: decision 2's "before"; 2: 0.4;
    // 3: Nixon's 0.75 → 0.25; 4: forced, decision 5's "before" 0.9 → 0.1; 5: untried, carried; 6: carried.
    expect(editorCurve(judged, 6).map((v) => Math.round(v * 100))).toEqual([60, 60, 40, 25, 10, 10, 10]);
    expect(editorCurve([], 3)).toEqual([0.5, 0.5, 0.5, 0.5]);
  });

  it('agrees with every swing: one estimate per decision, the graph\'s point at a swing is its "after" (turned round for Nixon)', () => {
    const judged = [j(1, '0', { before: 0.56, after: 0.3 }), j(2, '1', { before: 0.8, after: 0.35 }), j(3, '0', { before: 0.5, after: 0.45 }), j(4, '1', { before: 0.6, after: 0.6 })];
    const curve = editorCurve(judged, 4);
    const swings = pickSwings(judged);
    expect(swings.map((s) => s.step)).toEqual([2, 1, 3]);
    for (const s of swings) expect(curve[s.step]).toBeCloseTo(s.decider === '0' ? s.after : 1 - s.after);
  });
});

describe("the server's analysis, as the page takes it", () => {
  const decision = (step: number, r: Partial<Review> = {}) => ({ step, decider: '0', review: fake({ before: 0.6, after: 0.4, ...r }) });
  const analysis = (decisions: unknown[], more: object = {}) => ({ format: ANALYSIS_FORMAT, matchID: 'm1', budget: { iterations: 2000, seed: 0 }, decisions, ...more });

  it('is shown when it is this match\'s and every decision is sound', () => {
    const a = analysis([decision(1), decision(2, { forced: true, before: null, after: null })]);
    expect(servedAnalysis(a, 'm1', 5)).toEqual(a.decisions);
    expect(servedAnalysis(analysis([]), 'm1', 5)).toEqual([]);
  });

  it.each([
    ['another match', analysis([decision(1)], { matchID: 'm2' })],
    ['another format', analysis([decision(1)], { format: 'watergate-analysis/0' })],
    ['no decisions', analysis([], { decisions: 'all' })],
    ['a step past the game', analysis([decision(6)])],
    ['a step before it', analysis([decision(0)])],
    ['a fractional step', analysis([decision(1.5)])],
    ['a chance above 1', analysis([decision(1, { before: 1.2 })])],
    ['a chance as text', analysis([decision(1, { after: '0.4' as never })])],
    ['no move for the bot', analysis([decision(1, { best: { move: 3, args: [] } as never })])],
    ['a seat that is none', analysis([{ ...decision(1), decider: '2' }])],
    ['no review', analysis([{ step: 1, decider: '0' }])],
    ['not an object', 'null'],
  ])('is not shown with %s', (_, a) => {
    expect(servedAnalysis(a, 'm1', 5)).toBeNull();
  });
});

describe('the swing marks on the graph', () => {
  it('never overlap: a mark whose point is taken moves up (or down near the top) and keeps its decision’s x', async () => {
    const { spread, MARK_GAP } = await import('../../client/replay/analysis/marks');
    // Three swings of adjacent decisions, 4 px apart on a long game, at nearly the same chance; one near the top.
    const points = [
      { x: 100, y: 80 },
      { x: 104, y: 82 },
      { x: 108, y: 79 },
      { x: 300, y: 5 },
      { x: 303, y: 6 },
    ];
    const at = spread(points, 170);
    expect(at.map((p) => p.x)).toEqual(points.map((p) => p.x));
    expect(at[0]).toEqual(points[0]);
    for (let i = 0; i < at.length; i++)
      for (let j = i + 1; j < at.length; j++) expect(Math.abs(at[i].x - at[j].x) >= MARK_GAP || Math.abs(at[i].y - at[j].y) >= MARK_GAP).toBe(true);
    for (const p of at) expect(p.y >= 0 && p.y <= 170).toBe(true);
  });
});
