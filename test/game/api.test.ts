/**
 * The game interface a bot author uses (game/api.ts, docs/BOT-API.md "The game interface"), held to its
 * promises over seeded random games played through it alone: ids that mean one move for good, states
 * that a seed and the actions fix, resampled worlds that never contradict the view they came from, an
 * information state of fixed length that tells different views apart, and returns.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as api from '../../game/api';
import {
  ACTION_IDS, actionOf, apply, currentPlayer, IllegalAction, idOf, informationState, isTerminal, legalActions, legalActionsOfView, newState,
  NUM_ACTIONS, resample, returns, SECTIONS, seededRandom, TENSOR_LAYOUT, TENSOR_SIZE, view, type GameState,
} from '../../game/api';
import { CARDS, hide, legalMoves, MOMENTUM_CARDS, Watergate, type MoveChoice, type PlayerID, type WatergateView } from '../../game';
import { HIDDEN_REFS, MAX_PICKED, MAX_SPLIT_STEPS } from '../../game/actions';
import { advanceDriver, initialState, playout, randomChooser } from '../../tools/playout';
import { seeded } from '../helpers/rng';
import { seedFrom } from '../../bots/rng';

const SEATS = ['0', '1'] as const;

/** Every state of one game of random legal ids, played through the interface alone, and the ids chosen. */
function game(seed: string, maxMoves = 1000): { states: GameState[]; chosen: number[] } {
  const pick = seededRandom(`pick-${seed}`);
  let s = newState(seed);
  const states = [s];
  const chosen: number[] = [];
  for (let p = currentPlayer(s); p !== null && chosen.length < maxMoves; p = currentPlayer(s)) {
    const ids = legalActions(s, p);
    const id = ids[Math.floor(pick() * ids.length)];
    chosen.push(id);
    s = apply(s, id);
    states.push(s);
  }
  return { states, chosen };
}

const GAMES = Array.from({ length: 8 }, (_, i) => game(`api-${i}`));
const ALL = GAMES.flatMap((g) => g.states);

describe('the action table', () => {
  it('every id stands for one move and back, inside [0, NUM_ACTIONS), and a few ids are pinned for good', () => {
    for (const id of ACTION_IDS) {
      expect(id).toBeLessThan(NUM_ACTIONS);
      expect(idOf(actionOf(id)!)).toBe(id);
    }
    expect(new Set(ACTION_IDS).size).toBe(ACTION_IDS.length);
    expect(idOf({ move: 'resign', args: [] })).toBe(0);
    expect(actionOf(SECTIONS.play.base)).toEqual({ move: 'play', args: [{ card: 'E23', as: 'action' }] });
    expect(idOf({ move: 'play', args: [{ as: 'value', target: { kind: 'initiative' }, card: 'E23' }] })).toBe(1001);
    expect(idOf({ move: 'play', args: [{ card: 'N01', as: 'value', target: { kind: 'evidence', token: 'T36' } }] })).toBe(1000 + 21 * 43 - 1);
    expect(idOf({ move: 'react', args: [null] })).toBe(SECTIONS.react.base);
    expect(idOf({ move: 'pin', args: [{ token: 'T01', space: 'A1' }] })).toBe(SECTIONS.pin.base);
    expect(idOf({ move: 'choose', args: [{ tokens: [] }] })).toBe(SECTIONS.chooseTokens.base);
    // Sets: one id whatever order their elements come in.
    const split = [{ token: 'T02', steps: 1 }, { token: { hidden: 0 }, steps: 3 }];
    expect(idOf({ move: 'choose', args: [{ split }] })).toBe(idOf({ move: 'choose', args: [{ split: [...split].reverse() }] }));
    expect(idOf({ move: 'choose', args: [{ split }] })).not.toBeNull();
  });

  it('is the table docs/BOT-API.md prints: the same sections, ranges and counts, and a digest of every id pinned', () => {
    // A change to any id changes this digest: make it deliberately, with the docs' table and a note to bot authors.
    expect(seedFrom(JSON.stringify(ACTION_IDS.map((id) => [id, actionOf(id)]))).toString(16)).toBe('e9c13e94');
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/BOT-API.md'), 'utf8');
    const names = Object.keys(SECTIONS) as (keyof typeof SECTIONS)[];
    names.forEach((name, i) => {
      const end = i + 1 < names.length ? SECTIONS[names[i + 1]].base : NUM_ACTIONS;
      const ids = ACTION_IDS.filter((id) => id >= SECTIONS[name].base && id < end);
      const range = ids.length === 1 ? `${ids[0]}` : `${ids[0]}–${ids[ids.length - 1]}`;
      expect(doc).toContain(`| ${name} | ${range} | ${ids.length} |`);
    });
    expect(doc).toContain(`\`NUM_ACTIONS\` (${NUM_ACTIONS},`);
    let at = 0;
    for (const seg of TENSOR_LAYOUT) {
      expect(doc).toContain(`| ${seg.size === 1 ? at : `${at}–${at + seg.size - 1}`} | ${seg.name} |`);
      at += seg.size;
    }
    expect(doc).toContain(`\`TENSOR_SIZE\` (${TENSOR_SIZE})`);
  });

  it('refuses what is no move: unknown cards, repeated tokens, extra fields, several arguments', () => {
    expect(idOf({ move: 'play', args: [{ card: 'E99', as: 'action' }] })).toBeNull();
    expect(idOf({ move: 'choose', args: [{ tokens: ['T01', 'T01'] }] })).toBeNull();
    expect(idOf({ move: 'choose', args: [{ tokens: [], spaces: [] }] })).toBeNull();
    expect(idOf({ move: 'play', args: [{ card: 'E01', as: 'action', target: { kind: 'none' } }] })).toBeNull();
    expect(idOf({ move: 'answer', args: ['T01', 'T02'] })).toBeNull();
    expect(idOf({ move: 'timeout' })).toBeNull();
    expect(actionOf(999)).toBeNull();
    expect(actionOf(-1)).toBeNull();
  });

  it("covers every choice the cards and momentum abilities can ask for (the table's bounds hold for the components)", () => {
    const steps = [...Object.values(CARDS).flatMap((c) => c.steps), ...Object.values(MOMENTUM_CARDS).flatMap((m) => m.abilities.flat())];
    for (const s of steps) {
      if (s.op === 'MOVE_EVIDENCE') {
        expect(Math.min(s.maxTokens ?? s.steps, s.mode === 'TOTAL' ? s.steps : Infinity)).toBeLessThanOrEqual(MAX_PICKED);
        if (s.mode === 'TOTAL') expect(s.steps).toBeLessThanOrEqual(MAX_SPLIT_STEPS);
      }
      if (s.op === 'RETURN_TRACK_EVIDENCE' || s.op === 'FLIP_INFORMANT' || s.op === 'FLIP_BOARD_EVIDENCE' || s.op === 'REMOVE_BOARD_EVIDENCE') expect(s.count).toBeLessThanOrEqual(MAX_PICKED);
      if (s.op === 'PIN_FROM_BAG') expect(s.pin).toBeLessThanOrEqual(MAX_PICKED);
    }
    for (const s of ALL) expect(s.G.track.evidence.filter((t) => !t.up).length).toBeLessThanOrEqual(HIDDEN_REFS);
  });
});

describe('states, actions and returns', () => {
  it('at every decision, the legal ids are exactly the engine\'s legal moves, each round-trips and applies; the view alone lists the same ids', () => {
    let applied = 0;
    ALL.forEach((s, n) => {
      for (const seat of SEATS) {
        const ids = legalActions(s, seat);
        expect(ids.map((id) => actionOf(id)!).map(idOf)).toEqual(ids);
        expect(ids.length).toBe(legalMoves(s.G, seat).length);
        expect(legalActionsOfView(view(s, seat))).toEqual(ids);
        if (seat !== currentPlayer(s)) expect(ids).toEqual([]);
        // Every id of every 4th decision is applied (all of them everywhere would take a minute).
        if (n % 4 === 0) for (const id of ids) expect(apply(s, id).G).not.toBe(s.G), applied++;
      }
    });
    expect(ALL.length).toBeGreaterThan(400);
    expect(applied).toBeGreaterThan(500);
  });

  it('the same seed and actions give the same states; another seed deals another game', () => {
    GAMES.slice(0, 3).forEach((g, i) => {
      let s = newState(`api-${i}`);
      expect(s).toEqual(g.states[0]);
      g.chosen.forEach((id, k) => {
        s = apply(s, id);
        expect(s).toEqual(g.states[k + 1]);
      });
    });
    expect(newState('api-0').G.hands).not.toEqual(newState('api-1').G.hands);
  });

  it("deals and plays as a server match with the same seed: the states of game/advance.ts over boardgame.io's own state", () => {
    const start = initialState(Watergate, 'same-deal');
    const choose = randomChooser(seeded(7));
    let last: MoveChoice | null = null;
    let s = newState('same-deal');
    let n = 0;
    const it = playout(advanceDriver(), start, (moves, p) => (last = choose(moves, p)));
    for (let r = it.next(); ; r = it.next()) {
      // The chooser has just picked the move that led to this step: the interface makes it too.
      if (last) (s = apply(s, idOf(last)!)), n++, (last = null);
      const bgio = r.done ? r.value : r.value.state;
      expect(s.G).toEqual(bgio.G);
      expect(s.random).toEqual(bgio.plugins.random.data);
      if (r.done) break;
    }
    expect(n).toBeGreaterThan(50);
  });

  it('refuses an illegal action with the engine\'s reason, and leaves the state as it was', () => {
    const s = newState('refuse');
    const before = JSON.stringify(s);
    const legal = legalActions(s, '0');
    const notLegal = ACTION_IDS.find((id) => id !== 0 && !legal.includes(id) && actionOf(id)!.move === 'play')!;
    expect(() => apply(s, notLegal)).toThrow(IllegalAction);
    expect(() => apply(s, legal[0], '1')).toThrow('it is not your decision');
    expect(() => apply(s, { move: 'answer', args: ['T01'] })).toThrow('the game waits for "play", not "answer"');
    expect(() => apply(s, 999)).toThrow('no action has the id 999');
    expect(() => apply(s, { move: 'play', args: [{ card: legal.length ? 'E99' : '', as: 'action' }] })).toThrow(IllegalAction);
    expect(JSON.stringify(s)).toBe(before);
  });

  it('returns: a won game pays its winner 1, the loser 0; an unfinished or aborted game pays [0, 0]', () => {
    let won = 0;
    for (const g of GAMES) {
      const end = g.states[g.states.length - 1];
      expect(isTerminal(end)).toBe(true);
      expect(currentPlayer(end)).toBeNull();
      const r = returns(end);
      expect(r[0] + r[1]).toBe(1);
      expect(r[Number(end.G.winner)]).toBe(1);
      won++;
      expect(returns(g.states[1])).toEqual([0, 0]);
    }
    expect(won).toBe(GAMES.length);
    // The server's abort: the game ends with no winner.
    const aborted = apply(newState('abort'), { move: 'abort' }, '1');
    expect([aborted.G.winner, aborted.G.endReason, aborted.G.phase, isTerminal(aborted)]).toEqual([null, 'aborted', 'gameover', true]);
    expect(returns(aborted)).toEqual([0, 0]);
    expect(legalActions(aborted, '0')).toEqual([]);
    expect(() => apply(aborted, 0, '0')).toThrow('the game is over');
  });

  it('a whole game through the package entry alone: newState, legalActions, apply, view, informationState, resample, returns', () => {
    let s = api.newState('whole');
    const pick = api.seededRandom('whole');
    while (api.currentPlayer(s) !== null) {
      const me = api.currentPlayer(s)!;
      const v = api.view(s, me);
      expect(api.informationState(v).tensor).toHaveLength(api.TENSOR_SIZE);
      expect(api.legalActions(api.resample(v, pick), me)).toEqual(api.legalActions(s, me));
      const ids = api.legalActionsOfView(v);
      s = api.apply(s, ids[Math.floor(pick() * ids.length)]);
    }
    expect(api.returns(s).reduce((a, b) => a + b)).toBe(1);
  });
});

describe('views, information states and resampling', () => {
  it('resample never contradicts the view: its view for that seat is the view, and the seat has the same legal actions there', () => {
    const random = seededRandom('worlds');
    let n = 0;
    ALL.forEach((s, i) => {
      if (i % 2) return;
      for (const seat of SEATS) {
        const v = view(s, seat);
        const world = resample(v, random);
        expect(hide(world.G, seat)).toEqual(v);
        expect(legalActions(world, seat)).toEqual(legalActions(s, seat));
        n++;
      }
    });
    expect(n).toBeGreaterThan(400);
  });

  it('resampled worlds differ in what the seat cannot see, and a seeded source gives the same worlds', () => {
    const s = GAMES[0].states[10];
    const v = view(s, '0');
    const a = resample(v, seededRandom('same'));
    expect(resample(v, seededRandom('same'))).toEqual(a);
    const hands = new Set(Array.from({ length: 20 }, () => JSON.stringify(resample(v, seededRandom(Math.random())).G.hands['1'])));
    expect(hands.size).toBeGreaterThan(1);
    expect(() => resample(view(s, null), Math.random)).toThrow(/seat/);
  });

  it(`the tensor has ${TENSOR_SIZE} numbers for every view, spectators' too, laid out as TENSOR_LAYOUT says`, () => {
    expect(TENSOR_LAYOUT.reduce((n, seg) => n + seg.size, 0)).toBe(TENSOR_SIZE);
    ALL.forEach((s, i) => {
      for (const seat of [...SEATS, null]) {
        const { tensor, text } = informationState(view(s, seat));
        expect(tensor).toHaveLength(TENSOR_SIZE);
        expect(tensor.every(Number.isFinite)).toBe(true);
        // The text is the view itself (checked at every 10th state: the record makes it long).
        if (i % 10 === 0) expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(view(s, seat))));
      }
    });
  });

  it('views that differ (beyond their record) have tensors that differ; equal views, equal tensors and texts', () => {
    const seen = new Map<string, string>();
    let distinct = 0;
    for (const s of ALL)
      for (const seat of SEATS) {
        const v = view(s, seat);
        const { tensor } = informationState(v);
        const present = JSON.stringify(informationState({ ...v, log: [] } as WatergateView).text);
        const key = tensor.join(',');
        if (!seen.has(key)) distinct++, seen.set(key, present);
        expect(seen.get(key)).toBe(present);
      }
    expect(distinct).toBeGreaterThan(ALL.length);
    const v = view(ALL[5], '1');
    expect(informationState(structuredClone(v))).toEqual(informationState(v));
  });
});

describe('ai.enumerate', () => {
  it('answers [] on a view with no seat (a client without a player id) and on another seat\'s view; a seat\'s own view lists its moves', () => {
    const s = newState('enumerate');
    const enumerate = Watergate.ai!.enumerate as (G: unknown, ctx: unknown, playerID: string | null | undefined) => unknown[];
    expect(enumerate(view(s, null), {}, '0')).toEqual([]);
    expect(enumerate(view(s, null), {}, null)).toEqual([]);
    expect(enumerate(view(s, '1'), {}, '0')).toEqual([]);
    expect(enumerate(view(s, '0'), {}, '0')).toEqual(legalMoves(s.G, '0'));
    expect(enumerate(s.G, {}, '0')).toEqual(legalMoves(s.G, '0'));
    expect(enumerate(s.G, {}, undefined)).toEqual([]);
  });
});

export type { PlayerID };
