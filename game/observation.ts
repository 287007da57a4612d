/**
 * A seat's information state as OpenSpiel gives it (InformationStateString / InformationStateTensor): a
 * text and a fixed-length array of numbers, both made from the seat's view alone (game/infostate.ts
 * `hide`), so neither can carry anything the seat may not see.
 *
 * - The text is the whole view as JSON with sorted keys, the public record included: two views give the
 *   same text exactly when they are the same view (perfect recall: the record is the history).
 * - The tensor encodes the present — everything in the view but the record — in the segments of
 *   TENSOR_LAYOUT, in that order (docs/BOT-API.md prints it). Seats are absolute (index 0 the Editor,
 *   1 Nixon); flags are 0/1; counts and positions are plain numbers (positions −5…5 on the track).
 */
import { INFORMANT_IDS, SPACE_IDS } from './board';
import { CARD_ORDER, TOKEN_ORDER } from './actions';
import { COLOURS, type WatergateView } from './types';

const PHASES = ['setup', 'cards', 'assessment', 'gameover'] as const;
const PROMPTS = ['play', 'playDrawn', 'answer', 'target', 'react', 'choose', 'pin'] as const;
const TRIGGERS = ['OPPONENT_EVENT_ACTION', 'OPPONENT_CONSPIRATOR_ACTION', 'OPPONENT_VALUE_MOVES_EVIDENCE'] as const;
const OPS = [
  'MOVE_TOKEN', 'SET_TOKEN', 'MOVE_EVIDENCE', 'REVEAL_TRACK_EVIDENCE', 'RETURN_TRACK_EVIDENCE', 'PIN_FROM_BAG', 'PIN_INFORMANT',
  'FLIP_INFORMANT', 'FLIP_BOARD_EVIDENCE', 'REMOVE_BOARD_EVIDENCE', 'DRAW_AND_PLAY_TOP', 'RESTRICT_OPPONENT_EVENTS', 'REPLAY_REMOVED_EVENT', 'GAMBIT_RECYCLE',
] as const;
const TASKS = ['turn', 'step', 'dispose', 'pin', 'ability', 'assess', 'assessPins', 'round'] as const;
const END_REASONS = ['connected', 'momentum', 'supply', 'resigned', 'time', 'left', 'abandoned', 'aborted'] as const;
const INFORMANT_STATES = ['supply', 'up', 'down'] as const;
const TOKEN_FEATURES = ['on the track, named', 'its track position', 'face up on the track', 'pinned on the board', 'pinned face up', 'removed from the game', 'named in a pin still to make, or drawn by the viewer'] as const;
const CARD_FEATURES = ["in the viewer's hand", "in the Editor's discards", "in Nixon's discards", 'removed (Editor)', 'removed (Nixon)', 'in the reaction chain', 'resolving', 'drawn by the viewer (Hunt)', 'waiting to be discarded or removed', 'named by the prompt'] as const;
const CHAIN_KINDS = ['action', 'value', 'reaction'] as const;

/** The tensor's segments, in order: name, length, what each index holds. */
export const TENSOR_LAYOUT: readonly { name: string; size: number; holds: string }[] = [
  { name: 'viewer', size: 2, holds: 'one-hot: the seat whose view this is' },
  { name: 'round', size: 1, holds: 'the round number' },
  { name: 'phase', size: PHASES.length, holds: `one-hot: ${PHASES.join(', ')}` },
  { name: 'initiative', size: 2, holds: 'one-hot: the seat the initiative card points at' },
  { name: 'leader', size: 2, holds: 'one-hot: the seat that held the initiative when the round began' },
  { name: 'turnPlayer', size: 2, holds: 'one-hot: whose turn it is' },
  { name: 'turns', size: 3, holds: 'the turn counter (turnSeq), turns begun this round by the Editor, by Nixon' },
  { name: 'eventsRestricted', size: 1, holds: "1 while the Editor's events are value-only (A brilliant mood)" },
  { name: 'markers', size: 4, holds: 'initiative token on the track (flag), its position; momentum token on the track (flag), its position' },
  { name: 'tokens', size: TOKEN_ORDER.length * TOKEN_FEATURES.length, holds: `per token T01…T36, ${TOKEN_FEATURES.length} numbers: ${TOKEN_FEATURES.join('; ')}` },
  { name: 'faceDown', size: 11, holds: 'face-down track tokens the viewer cannot name, counted per position −5…5' },
  { name: 'spaces', size: SPACE_IDS.length * 2, holds: 'per evidence space (board order): occupied, face up' },
  { name: 'informants', size: INFORMANT_IDS.length * 3, holds: `per informant (board order), one-hot: ${INFORMANT_STATES.join(', ')}` },
  { name: 'momentum', size: 4, holds: 'momentum tokens in the supply, removed from the game, on the Editor’s card, on Nixon’s card' },
  { name: 'cards', size: CARD_ORDER.length * CARD_FEATURES.length, holds: `per card (id order), ${CARD_FEATURES.length} flags: ${CARD_FEATURES.join('; ')}` },
  { name: 'sizes', size: 5, holds: "hand sizes (Editor, Nixon), deck sizes (Editor, Nixon), the bag's size" },
  { name: 'privateDraws', size: 6, holds: 'tokens drawn privately: by the Editor (flag), by Nixon (flag), how many; a card drawn by Hunt: by the Editor, by Nixon (flags); tokens kept by the opponent that the viewer cannot name' },
  { name: 'prompt', size: PROMPTS.length + 1, holds: `one-hot: what the game waits for: nothing, ${PROMPTS.join(', ')}` },
  { name: 'promptPlayer', size: 2, holds: 'one-hot: whom it waits for' },
  { name: 'promptDetail', size: 3 + TRIGGERS.length + OPS.length + 1, holds: `the prompt's colour (one-hot ${COLOURS.join(', ')}), reaction trigger (one-hot ${TRIGGERS.join(', ')}), step (one-hot ${OPS.join(', ')}), tokens it lists` },
  { name: 'chain', size: CHAIN_KINDS.length + 1, holds: `reaction chain entries by kind (${CHAIN_KINDS.join(', ')}), entries cancelled` },
  { name: 'tasks', size: TASKS.length * 2, holds: `the engine's pending work: count per task type (${TASKS.join(', ')}), then one-hot the type of the next task` },
  { name: 'outcome', size: 2 + END_REASONS.length, holds: `one-hot winner (Editor, Nixon); one-hot end reason (${END_REASONS.join(', ')})` },
];

/** The tensor's length, for every view. */
export const TENSOR_SIZE = TENSOR_LAYOUT.reduce((n, s) => n + s.size, 0);
const OFFSET: Record<string, number> = {};
TENSOR_LAYOUT.reduce((n, s) => ((OFFSET[s.name] = n), n + s.size), 0);

const seatIndex = (p: string | null | undefined) => (p === '0' ? 0 : p === '1' ? 1 : -1);
const TOKEN_INDEX = new Map(TOKEN_ORDER.map((t, i) => [t, i]));
const CARD_INDEX = new Map(CARD_ORDER.map((c, i) => [c, i]));

/** Text with sorted keys: the same view always gives the same text, whatever order its fields were made in. */
function stableText(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableText).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableText((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

function tensorOf(view: WatergateView): number[] {
  const t = new Array<number>(TENSOR_SIZE).fill(0);
  const set = (seg: string, i: number, v = 1) => {
    if (i >= 0) t[OFFSET[seg] + i] = v;
  };
  const add = (seg: string, i: number) => i >= 0 && (t[OFFSET[seg] + i] += 1);
  const me = view.viewer;
  set('viewer', seatIndex(me));
  set('round', 0, view.round);
  set('phase', PHASES.indexOf(view.phase));
  set('initiative', seatIndex(view.initiative));
  set('leader', seatIndex(view.leader));
  set('turnPlayer', seatIndex(view.turnPlayer));
  set('turns', 0, view.turnSeq);
  set('turns', 1, view.turnsBegun['0']);
  set('turns', 2, view.turnsBegun['1']);
  set('eventsRestricted', 0, view.eventsRestricted ? 1 : 0);
  const { initiative, momentum, evidence } = view.track;
  if (initiative !== null) set('markers', 0), set('markers', 1, initiative);
  if (momentum !== null) set('markers', 2), set('markers', 3, momentum);

  const F = TOKEN_FEATURES.length;
  const token = (id: string, f: number, v = 1) => TOKEN_INDEX.has(id) && set('tokens', TOKEN_INDEX.get(id)! * F + f, v);
  for (const e of evidence) {
    if (e.id === null) add('faceDown', e.pos + 5);
    else token(e.id, 0), token(e.id, 1, e.pos), token(e.id, 2, e.up ? 1 : 0);
  }
  SPACE_IDS.forEach((s, i) => {
    const p = view.board[s];
    if (!p) return;
    set('spaces', 2 * i), set('spaces', 2 * i + 1, p.up ? 1 : 0);
    token(p.token, 3), token(p.token, 4, p.up ? 1 : 0);
  });
  for (const id of view.removedTokens) token(id, 5);
  const pins = [view.prompt, ...view.tasks].flatMap((x) => (x && 'tokens' in x ? x.tokens : []));
  for (const id of [...pins, ...(view.peek?.tokens ?? [])]) if (id) token(id, 6);
  INFORMANT_IDS.forEach((id, i) => set('informants', 3 * i + INFORMANT_STATES.indexOf(view.informants[id])));
  set('momentum', 0, view.momentum.supply);
  set('momentum', 1, view.momentum.removed);
  set('momentum', 2, view.momentum.cards['0']);
  set('momentum', 3, view.momentum.cards['1']);

  const C = CARD_FEATURES.length;
  const card = (id: string | null | undefined, f: number) => id && CARD_INDEX.has(id) && set('cards', CARD_INDEX.get(id)! * C + f);
  if (me !== null) for (const c of view.hands[me] ?? []) card(c, 0);
  for (const c of view.discards['0']) card(c, 1);
  for (const c of view.discards['1']) card(c, 2);
  for (const c of view.removed['0']) card(c, 3);
  for (const c of view.removed['1']) card(c, 4);
  for (const e of view.chain) card(e.card, 5);
  for (const c of view.resolving) card(c, 6);
  if (view.drawnCard && view.drawnCard.player === me) card(view.drawnCard.card, 7);
  for (const task of view.tasks) if (task.t === 'dispose') card(task.card, 8);
  const pr = view.prompt;
  if (pr && 'card' in pr) card(pr.card, 9);

  ['0', '1'].forEach((p, i) => set('sizes', i, view.handSizes[p as '0' | '1']));
  ['0', '1'].forEach((p, i) => set('sizes', 2 + i, view.deckSizes[p as '0' | '1']));
  set('sizes', 4, view.bagSize);
  if (view.peek) set('privateDraws', seatIndex(view.peek.player)), set('privateDraws', 2, view.peek.count);
  if (view.drawnCard) set('privateDraws', 3 + seatIndex(view.drawnCard.player));
  set('privateDraws', 5, pins.filter((id) => !id).length);

  set('prompt', pr ? 1 + PROMPTS.indexOf(pr.kind) : 0);
  if (pr) {
    set('promptPlayer', seatIndex(pr.player));
    if ('colour' in pr && pr.colour) set('promptDetail', COLOURS.indexOf(pr.colour));
    if (pr.kind === 'react') set('promptDetail', 3 + TRIGGERS.indexOf(pr.trigger));
    if (pr.kind === 'choose') set('promptDetail', 3 + TRIGGERS.length + OPS.indexOf(pr.step.op));
    if (pr.kind === 'pin') set('promptDetail', 3 + TRIGGERS.length + OPS.length, pr.tokens.length);
  }
  for (const e of view.chain) add('chain', CHAIN_KINDS.indexOf(e.kind)), e.cancelledBy && add('chain', CHAIN_KINDS.length);
  for (const task of view.tasks) add('tasks', TASKS.indexOf(task.t));
  const top = view.tasks[view.tasks.length - 1];
  if (top) set('tasks', TASKS.length + TASKS.indexOf(top.t));
  set('outcome', seatIndex(view.winner));
  if (view.endReason) set('outcome', 2 + END_REASONS.indexOf(view.endReason));
  return t;
}

/** The information state of a view: its text and its tensor (TENSOR_SIZE numbers, laid out as TENSOR_LAYOUT says). */
export function informationState(view: WatergateView): { text: string; tensor: number[] } {
  return { text: stableText(view), tensor: tensorOf(view) };
}
