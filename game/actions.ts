/**
 * Integer action ids (OpenSpiel's `Action`): one fixed table of every (move, argument) the rules can ever
 * offer, built from the components (game/cards.ts, game/tokens.ts, game/board.ts) — never from a state, so
 * an id means the same move in every game and every state. docs/BOT-API.md "The game interface" prints the
 * table; test/game/api.test.ts pins a few ids so that a change to it is a deliberate one.
 *
 * Each section starts at a fixed base, with room to spare, so a section that grows (a new card) moves no id
 * of another section. Inside a section the order is the components' order: cards by id, tokens T01…T36,
 * evidence spaces and informants as game/board.ts lists them. Choices of several things (tokens, spaces,
 * informants) are sets: one id whatever order the things are written in.
 */
import { CARDS } from './cards';
import { INFORMANT_IDS, SPACE_IDS } from './board';
import { TOKENS } from './tokens';
import { COLOURS, type MoveChoice, type ValueTarget } from './types';

/** Cards in id order (E01…, N01…): the card part of every id. */
export const CARD_ORDER: readonly string[] = Object.keys(CARDS).sort();
export const TOKEN_ORDER: readonly string[] = TOKENS.map((t) => t.id);
/**
 * The Editor names face-down track tokens blind, as `{ hidden: k }` (game/primitives.ts): at most 3 lie
 * face down (R7 draws 3 a round; the assessment empties the track), so k < 3.
 */
export const HIDDEN_REFS = 3;
/** Most things one choice picks (MOVE_EVIDENCE picks up to 2 tokens; every other step 1): checked against the cards by the tests. */
export const MAX_PICKED = 2;
/** Most steps a MOVE_EVIDENCE TOTAL choice splits among its tokens (the cards': 2, 3, 4). */
export const MAX_SPLIT_STEPS = 4;

/** Value targets (`play` as value, `target`), in this order. */
export const VALUE_TARGETS: readonly ValueTarget[] = [
  { kind: 'initiative' },
  { kind: 'momentum' },
  { kind: 'none' },
  ...COLOURS.map((colour) => ({ kind: 'ask' as const, colour })),
  ...TOKEN_ORDER.map((token) => ({ kind: 'evidence' as const, token })),
];

/** Where each section begins (its ids are base + index), and what it holds. */
export const SECTIONS = {
  resign: { base: 0, holds: 'resign (never listed by legalActions: any seat may resign at any time)' },
  play: { base: 1000, holds: `play: for each card (CARD_ORDER) ${1 + VALUE_TARGETS.length} ids: as action, then as value on each VALUE_TARGETS entry` },
  answer: { base: 3000, holds: 'answer: the face-down token that answers an ask, per token (TOKEN_ORDER)' },
  target: { base: 3100, holds: 'target: the value of an ask answered "none", per VALUE_TARGETS entry' },
  react: { base: 3200, holds: 'react: no reaction (null), then each card (CARD_ORDER)' },
  pin: { base: 4000, holds: `pin: token × space, id = base + token index × ${SPACE_IDS.length} + space index` },
  chooseTokens: { base: 6000, holds: `choose { tokens }: every set of at most ${MAX_PICKED} token references (TOKEN_ORDER, then { hidden: 0…${HIDDEN_REFS - 1} })` },
  chooseSplit: { base: 8000, holds: `choose { split }: every set of 1–${MAX_PICKED} (reference, steps ≥ 1) with steps adding up to at most ${MAX_SPLIT_STEPS}` },
  chooseInformants: { base: 13000, holds: `choose { informants }: every set of at most ${MAX_PICKED} informants (board order)` },
  chooseSpaces: { base: 13100, holds: `choose { spaces }: every set of at most ${MAX_PICKED} evidence spaces (board order)` },
  chooseCard: { base: 14000, holds: 'choose { card }: none (null), then each card (CARD_ORDER)' },
} as const;

type Ref = string | { hidden: number };
const REFS: readonly Ref[] = [...TOKEN_ORDER, ...Array.from({ length: HIDDEN_REFS }, (_, hidden) => ({ hidden }))];
const refKey = (r: unknown): string | null =>
  typeof r === 'string' ? (TOKEN_ORDER.includes(r) ? r : null) : r && typeof r === 'object' && Number.isInteger((r as { hidden: unknown }).hidden) ? `h${(r as { hidden: number }).hidden}` : null;
const REF_INDEX = new Map(REFS.map((r, i) => [refKey(r)!, i]));

function targetKey(t: unknown): string | null {
  if (!t || typeof t !== 'object') return null;
  const v = t as Record<string, unknown>;
  if (v.kind === 'ask') return `ask:${String(v.colour)}`;
  if (v.kind === 'evidence') return `ev:${String(v.token)}`;
  return typeof v.kind === 'string' ? v.kind : null;
}

/** A set written in the table's order, or null when an element is unknown or repeated. */
function setKey(items: unknown, key: (x: unknown) => string | null, order: (k: string) => number | undefined): string | null {
  if (!Array.isArray(items)) return null;
  const keys = items.map(key);
  if (keys.some((k) => k === null || order(k) === undefined) || new Set(keys).size !== keys.length) return null;
  return (keys as string[]).sort((a, b) => order(a)! - order(b)!).join(',');
}

/** One text per (move, argument), the same whatever order a set's elements or an object's fields come in. */
function keyOf(move: string, arg: unknown): string | null {
  const a = (arg ?? {}) as Record<string, unknown>;
  switch (move) {
    case 'resign':
      return arg === undefined || arg === null ? 'resign' : null;
    case 'play':
      return a.as === 'action' && a.target === undefined ? `play ${String(a.card)} action` : a.as === 'value' ? `play ${String(a.card)} value ${targetKey(a.target)}` : null;
    case 'answer':
      return `answer ${String(arg)}`;
    case 'target':
      return `target ${targetKey(arg)}`;
    case 'react':
      return `react ${arg === null ? '-' : String(arg)}`;
    case 'pin':
      return `pin ${String(a.token)} ${String(a.space)}`;
    case 'choose': {
      const fields = Object.keys(a).filter((k) => a[k] !== undefined);
      if (fields.length !== 1) return null;
      const [f] = fields;
      if (f === 'tokens') return `choose tokens ${setKey(a.tokens, refKey, (k) => REF_INDEX.get(k))}`;
      if (f === 'informants') return `choose informants ${setKey(a.informants, (x) => (typeof x === 'string' ? x : null), (k) => (INFORMANT_IDS.includes(k) ? INFORMANT_IDS.indexOf(k) : undefined))}`;
      if (f === 'spaces') return `choose spaces ${setKey(a.spaces, (x) => (typeof x === 'string' ? x : null), (k) => (SPACE_IDS.includes(k) ? SPACE_IDS.indexOf(k) : undefined))}`;
      if (f === 'card') return `choose card ${a.card === null ? '-' : String(a.card)}`;
      if (f === 'split') {
        const split = a.split as { token?: unknown; steps?: unknown }[];
        if (!Array.isArray(split) || !split.every((s) => s && typeof s === 'object' && Number.isInteger(s.steps))) return null;
        const parts = setKey(split, (s) => (refKey((s as { token: unknown }).token) ? `${refKey((s as { token: unknown }).token)}*${(s as { steps: number }).steps}` : null), (k) => REF_INDEX.get(k.split('*')[0]));
        return parts === null ? null : `choose split ${parts}`;
      }
      return null;
    }
    default:
      return null;
  }
}

const BY_ID = new Map<number, MoveChoice>();
const BY_KEY = new Map<string, number>();
let next = 0;
function at(base: number): void {
  if (next > base) throw new Error(`action table: a section runs into the one at ${base}`);
  next = base;
}
function add(move: MoveChoice['move'], ...args: unknown[]): void {
  const key = keyOf(move, args[0])!;
  if (BY_KEY.has(key) || BY_ID.has(next)) throw new Error(`action table: ${key} twice`);
  BY_ID.set(next, Object.freeze({ move, args }) as MoveChoice);
  BY_KEY.set(key, next++);
}
/** Every subset of `items` with at most `max` elements, smallest first, each in `items`' order. */
function subsets<T>(items: readonly T[], max: number): T[][] {
  let out: T[][] = [[]];
  let last: { set: T[]; from: number }[] = [{ set: [], from: 0 }];
  for (let size = 1; size <= max; size++) {
    last = last.flatMap(({ set, from }) => items.slice(from).map((x, i) => ({ set: [...set, x], from: from + i + 1 })));
    out = out.concat(last.map((l) => l.set));
  }
  return out;
}
/** Ordered ways to give each of `n` tokens at least 1 step, at most `max` steps in all. */
const stepSplits = (n: number, max: number): number[][] =>
  n === 0 ? [[]] : Array.from({ length: max }, (_, i) => i + 1).flatMap((first) => (max - first >= n - 1 ? stepSplits(n - 1, max - first).map((rest) => [first, ...rest]) : []));

add('resign');
at(SECTIONS.play.base);
for (const card of CARD_ORDER) {
  add('play', { card, as: 'action' });
  for (const target of VALUE_TARGETS) add('play', { card, as: 'value', target });
}
at(SECTIONS.answer.base);
for (const t of TOKEN_ORDER) add('answer', t);
at(SECTIONS.target.base);
for (const t of VALUE_TARGETS) add('target', t);
at(SECTIONS.react.base);
for (const c of [null, ...CARD_ORDER]) add('react', c);
at(SECTIONS.pin.base);
for (const token of TOKEN_ORDER) for (const space of SPACE_IDS) add('pin', { token, space });
at(SECTIONS.chooseTokens.base);
for (const tokens of subsets(REFS, MAX_PICKED)) add('choose', { tokens });
at(SECTIONS.chooseSplit.base);
for (const refs of subsets(REFS, MAX_PICKED))
  if (refs.length > 0) for (const steps of stepSplits(refs.length, MAX_SPLIT_STEPS)) add('choose', { split: refs.map((token, i) => ({ token, steps: steps[i] })) });
at(SECTIONS.chooseInformants.base);
for (const informants of subsets(INFORMANT_IDS, MAX_PICKED)) add('choose', { informants });
at(SECTIONS.chooseSpaces.base);
for (const spaces of subsets(SPACE_IDS, MAX_PICKED)) add('choose', { spaces });
at(SECTIONS.chooseCard.base);
for (const card of [null, ...CARD_ORDER]) add('choose', { card });

/** One past the highest id (OpenSpiel's NumDistinctActions; ids in between that no section uses mean nothing). */
export const NUM_ACTIONS = next;

/** Every id of the table, ascending. */
export const ACTION_IDS: readonly number[] = [...BY_ID.keys()];

/** The move an id stands for (a fresh copy, safe to change), or null for an id the table does not hold. */
export function actionOf(id: number): MoveChoice | null {
  const m = BY_ID.get(id);
  return m ? (JSON.parse(JSON.stringify(m)) as MoveChoice) : null;
}

/** The id of a move (`{ move, args: [arg] }`, as legalMoves and ai.enumerate give them), or null if no id stands for it. */
export function idOf(m: { move: string; args?: unknown[] }): number | null {
  if (!m || typeof m !== 'object' || typeof m.move !== 'string') return null;
  const args = Array.isArray(m.args) ? m.args : [];
  if (args.length > 1) return null;
  const key = keyOf(m.move, args[0]);
  return key === null ? null : (BY_KEY.get(key) ?? null);
}
