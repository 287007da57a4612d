/**
 * The primitive vocabulary (docs/COMPONENTS.md "How effects are written"): every card action and Editor momentum ability is a
 * list of these steps. Each primitive either resolves at once or asks its actor to choose; a choice
 * with no alternative is resolved automatically, one with no eligible target is skipped (R15).
 */
import { CARDS } from './cards';
import { INFORMANT_IDS, SPACE_IDS } from './board';
import { TOKEN } from './tokens';
import { drawCard, drawTokens, other, record } from './state';
import { checkConnection, pinInformant, pinSpaces } from './pinning';
import { faceDownOnTrack, inside, matchesColour, moveEvidence, moveMarker, returnToBag, setMarker, trackToken } from './track';
import {
  EDITOR,
  type CardId,
  type ChoiceArgs,
  type Colour,
  type InformantId,
  type PlayerID,
  type Requirement,
  type Rng,
  type SpaceId,
  type Step,
  type TokenId,
  type TokenRef,
  type WatergateState,
  type Where,
} from './types';

type StepOf<O extends Step['op']> = Extract<Step, { op: O }>;
interface Primitive<S extends Step> {
  /** Starts the step: resolves it, or returns the choices the actor must pick from. */
  start(G: WatergateState, actor: PlayerID, step: S, card: CardId | null, rng: Rng): ChoiceArgs[] | void;
  /** Legal answers while the step's prompt is open (for ai.enumerate and the board). */
  options?(G: WatergateState, actor: PlayerID, step: S): ChoiceArgs[];
  /** null when `args` is a legal answer, else why not. */
  check?(G: WatergateState, actor: PlayerID, step: S, args: ChoiceArgs, card: CardId | null): string | null;
  apply?(G: WatergateState, actor: PlayerID, step: S, args: ChoiceArgs, card: CardId | null, rng: Rng): void;
}

// ---- helpers ------------------------------------------------------------------------------------

/** All combinations of `items` with between min and max elements. */
function subsets<T>(items: readonly T[], max: number, min = 0): T[][] {
  const out: T[][] = [];
  const walk = (from: number, acc: T[]) => {
    if (acc.length >= min) out.push(acc);
    if (acc.length === max) return;
    for (let i = from; i < items.length; i++) walk(i + 1, [...acc, items[i]]);
  };
  walk(0, []);
  return out;
}

/** Ordered ways to write `total` as `parts` positive integers. */
function compositions(total: number, parts: number): number[][] {
  if (parts === 1) return [[total]];
  const out: number[][] = [];
  for (let first = 1; first <= total - parts + 1; first++)
    for (const rest of compositions(total - first, parts - 1)) out.push([first, ...rest]);
  return out;
}

const isInt = (n: unknown, min: number, max: number): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

function uniqueStrings(list: unknown, max: number): string[] | null {
  if (!Array.isArray(list) || list.length > max) return null;
  if (!list.every((x) => typeof x === 'string')) return null;
  return new Set(list).size === list.length ? (list as string[]) : null;
}

/** Track tokens an effect of `actor` may pick (measured before any movement). */
function eligibleTokens(G: WatergateState, actor: PlayerID, where: Where, colour?: Colour): TokenId[] {
  return G.track.evidence
    .filter((t) => inside(t.pos, where, actor) && (!colour || ((t.up || actor !== EDITOR) && matchesColour(t.id, colour))))
    .map((t) => t.id);
}

/**
 * The refs by which `actor` names the eligible tokens: ids, except that the Editor names face-down tokens
 * blind as the k-th face-down token (K3). Face-down tokens are interchangeable to him, so k runs 0..n-1.
 */
function refsFor(G: WatergateState, actor: PlayerID, ids: readonly TokenId[]): { named: TokenRef[]; hidden: number } {
  if (actor !== EDITOR) return { named: [...ids], hidden: 0 };
  const down = new Set(faceDownOnTrack(G).map((t) => t.id));
  return { named: ids.filter((id) => !down.has(id)), hidden: ids.filter((id) => down.has(id)).length };
}

/** Subsets of refs up to max (min..max): face-up ids freely, face-down ones as the first j hidden slots. */
function refSubsets(G: WatergateState, actor: PlayerID, ids: readonly TokenId[], max: number, min = 0): TokenRef[][] {
  const { named, hidden } = refsFor(G, actor, ids);
  const hiddenRefs: TokenRef[] = Array.from({ length: hidden }, (_, k) => ({ hidden: k }));
  const out: TokenRef[][] = [];
  for (let j = 0; j <= Math.min(hidden, max); j++)
    for (const s of subsets(named, max - j)) if (s.length + j >= min) out.push([...s, ...hiddenRefs.slice(0, j)]);
  return out;
}

/** Resolves refs to distinct eligible token ids, or an error. */
function resolveRefs(G: WatergateState, actor: PlayerID, refs: unknown, eligible: readonly TokenId[], max: number): TokenId[] | string {
  if (!Array.isArray(refs) || refs.length > max) return `choose at most ${max} token(s)`;
  const down = faceDownOnTrack(G);
  const ids: TokenId[] = [];
  for (const ref of refs) {
    let id: TokenId | undefined;
    if (typeof ref === 'string') {
      const t = G.track.evidence.find((x) => x.id === ref);
      // One answer for the Editor whether the id is face down here or elsewhere: the text must not tell her which.
      if (actor === EDITOR && !t?.up) return 'the Editor names face-up track tokens by id, face-down ones blind as { hidden: k }';
      if (!t) return `token ${ref} is not on the track`;
      id = ref;
    } else if (ref && typeof ref === 'object' && isInt((ref as { hidden: unknown }).hidden, 0, down.length - 1) && actor === EDITOR) {
      id = down[(ref as { hidden: number }).hidden].id;
    } else return 'malformed token reference';
    if (!eligible.includes(id)) return `token ${typeof ref === 'string' ? ref : 'chosen'} is not eligible`;
    if (ids.includes(id)) return 'the same token was chosen twice';
    ids.push(id);
  }
  return ids;
}

function argField<K extends string>(args: unknown, key: K): unknown {
  return args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<K, unknown>)[key] : undefined;
}

export function requirementsHold(G: WatergateState, actor: PlayerID, requires: readonly Requirement[]): boolean {
  return requires.every((r) => {
    switch (r.req) {
      case 'NOT_FIRST_TURN':
        return G.turnsBegun[actor] >= 2 && G.turnPlayer === actor;
      case 'OPPONENT_MOMENTUM_AT_LEAST':
        return G.momentum.cards[other(actor)] >= r.n;
      case 'HAS_INITIATIVE':
        return G.initiative === actor;
    }
  });
}

/** Moves a card from the in-play area to its owner's discard pile or out of the game. */
export function dispose(G: WatergateState, player: PlayerID, card: CardId, to: 'DISCARD' | 'REMOVE'): void {
  const i = G.resolving.indexOf(card);
  if (i >= 0) G.resolving.splice(i, 1);
  (to === 'DISCARD' ? G.discards : G.removed)[player].push(card);
}

/** Pushes a card's (or ability's) steps so the first step runs next. */
export function pushSteps(G: WatergateState, actor: PlayerID, steps: readonly Step[], card: CardId | null): void {
  for (let i = steps.length - 1; i >= 0; i--) G.tasks.push({ t: 'step', actor, step: steps[i], card });
}

const opponentFace = (actor: PlayerID): boolean => actor !== EDITOR; // the orientation a flip turns away from

// ---- the primitives ---------------------------------------------------------------------------------

const moveToken: Primitive<StepOf<'MOVE_TOKEN'>> = {
  start(G, actor, step) {
    // `from` (public): where the marker stood, so the board can show the opponent's last move.
    record(G, actor, 'step.moveToken', { token: step.token, steps: step.steps, from: G.track[step.token] ?? 0 });
    moveMarker(G, step.token, step.steps, actor);
  },
};

const setToken: Primitive<StepOf<'SET_TOKEN'>> = {
  start(G, actor, step) {
    record(G, actor, 'step.setToken', { token: step.token, space: step.space, from: G.track[step.token] ?? 0 });
    setMarker(G, step.token, step.space, actor);
  },
};

/**
 * A card's MOVE_EVIDENCE: one record line per token (each is turned face up by the move, so its name and
 * where it stood are public), then the move itself.
 */
function moveEvidenceStepped(G: WatergateState, moves: { id: TokenId; steps: number }[], actor: PlayerID): void {
  for (const { id, steps } of moves) {
    const t = trackToken(G, id);
    if (t && steps > 0) record(G, actor, 'step.moveEvidence', { token: id, steps, from: t.pos });
  }
  moveEvidence(G, moves, actor);
}

const moveEvidenceStep: Primitive<StepOf<'MOVE_EVIDENCE'>> = {
  start(G, actor, step) {
    const ids = eligibleTokens(G, actor, step.where, step.colour);
    if (ids.length === 0) return record(G, actor, 'step.nothing', { op: step.op });
    if (step.mode === 'EACH' && step.maxTokens === null) return moveEvidenceStepped(G, ids.map((id) => ({ id, steps: step.steps })), actor);
    return this.options!(G, actor, step);
  },
  options(G, actor, step) {
    const ids = eligibleTokens(G, actor, step.where, step.colour);
    const max = step.maxTokens ?? ids.length;
    if (step.mode === 'EACH') return refSubsets(G, actor, ids, max).map((tokens) => ({ tokens }));
    const out: ChoiceArgs[] = [];
    for (const refs of refSubsets(G, actor, ids, Math.min(max, step.steps), 1))
      for (const parts of compositions(step.steps, refs.length)) out.push({ split: refs.map((token, i) => ({ token, steps: parts[i] })) });
    return out;
  },
  check(G, actor, step, args) {
    const ids = eligibleTokens(G, actor, step.where, step.colour);
    const max = step.maxTokens ?? ids.length;
    if (step.mode === 'EACH') {
      const got = resolveRefs(G, actor, argField(args, 'tokens'), ids, max);
      return typeof got === 'string' ? got : null;
    }
    const split = argField(args, 'split');
    if (!Array.isArray(split) || split.length === 0) return 'split the steps among at least one token';
    if (!split.every((s) => s && typeof s === 'object' && isInt(s.steps, 1, step.steps))) return 'each chosen token takes at least 1 step';
    if (split.reduce((n, s) => n + s.steps, 0) !== step.steps) return `the steps must add up to exactly ${step.steps}`;
    const got = resolveRefs(G, actor, split.map((s) => s.token), ids, Math.min(max, step.steps));
    return typeof got === 'string' ? got : null;
  },
  apply(G, actor, step, args) {
    const ids = eligibleTokens(G, actor, step.where, step.colour);
    const max = step.maxTokens ?? ids.length;
    if ('tokens' in args) {
      const chosen = resolveRefs(G, actor, args.tokens, ids, max) as TokenId[];
      if (chosen.length === 0) return record(G, actor, 'step.declined');
      moveEvidenceStepped(G, chosen.map((id) => ({ id, steps: step.steps })), actor);
    } else if ('split' in args) {
      const chosen = resolveRefs(G, actor, args.split.map((s) => s.token), ids, max) as TokenId[];
      moveEvidenceStepped(G, chosen.map((id, i) => ({ id, steps: args.split[i].steps })), actor);
    }
  },
};

const reveal: Primitive<StepOf<'REVEAL_TRACK_EVIDENCE'>> = {
  start(G, actor) {
    const down = faceDownOnTrack(G);
    for (const t of down) t.up = true;
    record(G, actor, 'step.reveal', { tokens: down.map((t) => t.id).join(',') });
  },
};

const returnTrack: Primitive<StepOf<'RETURN_TRACK_EVIDENCE'>> = {
  start(G, actor, step) {
    if (eligibleTokens(G, actor, step.where).length === 0) return record(G, actor, 'step.nothing', { op: step.op });
    return this.options!(G, actor, step);
  },
  options(G, actor, step) {
    return refSubsets(G, actor, eligibleTokens(G, actor, step.where), step.count).map((tokens) => ({ tokens }));
  },
  check(G, actor, step, args) {
    const got = resolveRefs(G, actor, argField(args, 'tokens'), eligibleTokens(G, actor, step.where), step.count);
    return typeof got === 'string' ? got : null;
  },
  apply(G, actor, step, args) {
    const ids = resolveRefs(G, actor, (args as { tokens: TokenRef[] }).tokens, eligibleTokens(G, actor, step.where), step.count) as TokenId[];
    if (ids.length === 0) return record(G, actor, 'step.declined');
    // Face-down tokens go back unseen: the record names only face-up ones.
    const shown = ids.filter((id) => G.track.evidence.find((t) => t.id === id)!.up);
    returnToBag(G, ids);
    record(G, actor, 'step.return', { tokens: shown.join(','), hidden: ids.length - shown.length });
  },
};

/** Drawn tokens the actor may keep: matching the colour filter and with an empty space to go to (K9). */
const keepable = (G: WatergateState, tokens: readonly TokenId[], colour?: Colour) =>
  tokens.filter((id) => (!colour || matchesColour(id, colour)) && pinSpaces(G, id).length > 0);

const pinFromBag: Primitive<StepOf<'PIN_FROM_BAG'>> = {
  start(G, actor, step, _card, rng) {
    const drawn = drawTokens(G, step.draw, rng);
    record(G, actor, 'step.drawTokens', { count: drawn.length });
    if (drawn.length === 0) return;
    G.peek = { player: actor, tokens: drawn };
    if (keepable(G, drawn, step.colour).length === 0) {
      G.bag.push(...drawn);
      G.peek = null;
      return record(G, actor, 'step.keepNone');
    }
    return this.options!(G, actor, step);
  },
  options(G, _actor, step) {
    return subsets(keepable(G, G.peek?.tokens ?? [], step.colour), step.pin).map((tokens) => ({ tokens }));
  },
  check(G, _actor, step, args) {
    const ids = uniqueStrings(argField(args, 'tokens'), step.pin);
    if (!ids) return `keep at most ${step.pin} distinct drawn token(s)`;
    const ok = keepable(G, G.peek?.tokens ?? [], step.colour);
    return ids.every((id) => ok.includes(id)) ? null : 'that token was not drawn, or cannot be pinned';
  },
  apply(G, actor, _step, args) {
    const kept = (args as { tokens: TokenId[] }).tokens;
    // K9: the unchosen tokens go back before the pin.
    G.bag.push(...G.peek!.tokens.filter((id) => !kept.includes(id)));
    G.peek = null;
    if (kept.length === 0) return record(G, actor, 'step.keepNone');
    // K3: still the drawer's secret until pinned.
    G.tasks.push({ t: 'pin', player: actor, tokens: kept, secret: true });
  },
};

const pinInformantStep: Primitive<StepOf<'PIN_INFORMANT'>> = {
  start(G, actor, step) {
    if (step.informant !== 'CHOICE') return pinInformant(G, actor, step.informant);
    const opts = this.options!(G, actor, step);
    if (opts.length === 0) return record(G, actor, 'step.nothing', { op: step.op });
    return opts;
  },
  options(G) {
    return INFORMANT_IDS.filter((i) => G.informants[i] === 'supply').map((i) => ({ informants: [i] }));
  },
  check(G, _actor, _step, args) {
    const ids = uniqueStrings(argField(args, 'informants'), 1);
    return ids && ids.length === 1 && G.informants[ids[0]] === 'supply' ? null : 'choose one picture from the supply';
  },
  apply(G, actor, _step, args) {
    pinInformant(G, actor, (args as { informants: InformantId[] }).informants[0]);
  },
};

const flippable = (G: WatergateState, actor: PlayerID): InformantId[] =>
  INFORMANT_IDS.filter((i) => G.informants[i] === (opponentFace(actor) ? 'up' : 'down'));

const flipInformant: Primitive<StepOf<'FLIP_INFORMANT'>> = {
  start(G, actor, step) {
    if (flippable(G, actor).length === 0) return record(G, actor, 'step.nothing', { op: step.op });
    return this.options!(G, actor, step);
  },
  options(G, actor, step) {
    return subsets(flippable(G, actor), step.count).map((informants) => ({ informants }));
  },
  check(G, actor, step, args) {
    const ids = uniqueStrings(argField(args, 'informants'), step.count);
    const ok = flippable(G, actor);
    return ids && ids.every((i) => ok.includes(i)) ? null : `choose up to ${step.count} picture(s) to turn`;
  },
  apply(G, actor, _step, args) {
    const ids = (args as { informants: InformantId[] }).informants;
    if (ids.length === 0) return record(G, actor, 'step.declined');
    for (const i of ids) {
      G.informants[i] = actor === EDITOR ? 'up' : 'down';
      record(G, actor, 'informant.flip', { informant: i });
    }
    checkConnection(G);
  },
};

function boardSpaces(G: WatergateState, face: 'UP' | 'DOWN' | 'ANY', colour?: Colour): SpaceId[] {
  return SPACE_IDS.filter((s) => {
    const p = G.board[s];
    return p !== null && (face === 'ANY' || p.up === (face === 'UP')) && (!colour || TOKEN[p.token].colours.includes(colour));
  });
}

function spaceChoice<S extends StepOf<'FLIP_BOARD_EVIDENCE' | 'REMOVE_BOARD_EVIDENCE'>>(
  eligible: (G: WatergateState, actor: PlayerID, step: S) => SpaceId[],
  act: (G: WatergateState, actor: PlayerID, spaces: SpaceId[]) => void,
): Primitive<S> {
  return {
    start(G, actor, step) {
      if (eligible(G, actor, step).length === 0) return record(G, actor, 'step.nothing', { op: step.op });
      return this.options!(G, actor, step);
    },
    options(G, actor, step) {
      return subsets(eligible(G, actor, step), step.count).map((spaces) => ({ spaces }));
    },
    check(G, actor, step, args) {
      const ids = uniqueStrings(argField(args, 'spaces'), step.count);
      const ok = eligible(G, actor, step);
      return ids && ids.every((s) => ok.includes(s)) ? null : `choose up to ${step.count} eligible evidence space(s)`;
    },
    apply(G, actor, _step, args) {
      const spaces = (args as { spaces: SpaceId[] }).spaces;
      if (spaces.length === 0) return record(G, actor, 'step.declined');
      act(G, actor, spaces);
    },
  };
}

const flipBoard = spaceChoice<StepOf<'FLIP_BOARD_EVIDENCE'>>(
  (G, actor, step) => boardSpaces(G, opponentFace(actor) ? 'UP' : 'DOWN', step.colour),
  (G, actor, spaces) => {
    for (const s of spaces) {
      G.board[s]!.up = actor === EDITOR; // not a pin: a red "1" does not trigger again
      record(G, actor, 'board.flip', { space: s, token: G.board[s]!.token });
    }
    checkConnection(G);
  },
);

const removeBoard = spaceChoice<StepOf<'REMOVE_BOARD_EVIDENCE'>>(
  (G, _actor, step) => boardSpaces(G, step.face, step.colour),
  (G, actor, spaces) => {
    for (const s of spaces) {
      record(G, actor, 'board.remove', { space: s, token: G.board[s]!.token });
      G.bag.push(G.board[s]!.token);
      G.board[s] = null;
    }
  },
);

const drawAndPlay: Primitive<StepOf<'DRAW_AND_PLAY_TOP'>> = {
  start(G, actor, _step, _card, rng) {
    const drawn = drawCard(G, actor, rng);
    if (drawn === undefined) return record(G, actor, 'step.noCard');
    G.drawnCard = { player: actor, card: drawn };
    G.prompt = { kind: 'playDrawn', player: actor };
  },
};

const restrict: Primitive<StepOf<'RESTRICT_OPPONENT_EVENTS'>> = {
  start(G, actor) {
    G.eventsRestricted = true;
    record(G, actor, 'step.restrict');
  },
};

/** The system works (K18): own removed, non-reaction events whose requirements hold now, never itself. */
const replayable = (G: WatergateState, actor: PlayerID): CardId[] =>
  G.removed[actor].filter((id) => {
    const c = CARDS[id];
    return (
      c.type === 'EVENT' && !c.reaction && !c.steps.some((s) => s.op === 'REPLAY_REMOVED_EVENT') && requirementsHold(G, actor, c.requires)
    );
  });

const replay: Primitive<StepOf<'REPLAY_REMOVED_EVENT'>> = {
  start(G, actor, step) {
    const opts = this.options!(G, actor, step);
    if (opts.length === 0) return record(G, actor, 'step.nothing', { op: step.op });
    return opts;
  },
  options(G, actor) {
    return replayable(G, actor).map((card) => ({ card }));
  },
  check(G, actor, _step, args) {
    const c = argField(args, 'card');
    return typeof c === 'string' && replayable(G, actor).includes(c) ? null : 'choose one of your removed events whose requirements hold';
  },
  apply(G, actor, _step, args) {
    const c = (args as { card: CardId }).card;
    record(G, actor, 'step.replay', { card: c });
    pushSteps(G, actor, CARDS[c].steps, c); // replayed: opens no second window (K18)
  },
};

const conspiratorsInHand = (G: WatergateState, actor: PlayerID): CardId[] => G.hands[actor].filter((id) => CARDS[id].type === 'CONSPIRATOR');

const gambit: Primitive<StepOf<'GAMBIT_RECYCLE'>> = {
  start(G, actor, step, card) {
    if (conspiratorsInHand(G, actor).length === 0) return void dispose(G, actor, card!, 'REMOVE');
    return this.options!(G, actor, step);
  },
  options(G, actor) {
    return [{ card: null }, ...conspiratorsInHand(G, actor).map((card) => ({ card }))];
  },
  check(G, actor, _step, args) {
    const c = argField(args, 'card');
    return c === null || (typeof c === 'string' && conspiratorsInHand(G, actor).includes(c)) ? null : 'choose a conspirator in your hand, or none';
  },
  apply(G, actor, _step, args, card) {
    const c = (args as { card: CardId | null }).card;
    if (c === null) {
      record(G, actor, 'gambit.keep');
      return dispose(G, actor, card!, 'REMOVE');
    }
    G.hands[actor].splice(G.hands[actor].indexOf(c), 1);
    G.removed[actor].push(c);
    record(G, actor, 'gambit.recycle', { card: c });
    dispose(G, actor, card!, 'DISCARD');
  },
};

const PRIMITIVES: { [O in Step['op']]: Primitive<StepOf<O>> } = {
  MOVE_TOKEN: moveToken,
  SET_TOKEN: setToken,
  MOVE_EVIDENCE: moveEvidenceStep,
  REVEAL_TRACK_EVIDENCE: reveal,
  RETURN_TRACK_EVIDENCE: returnTrack,
  PIN_FROM_BAG: pinFromBag,
  PIN_INFORMANT: pinInformantStep,
  FLIP_INFORMANT: flipInformant,
  FLIP_BOARD_EVIDENCE: flipBoard,
  REMOVE_BOARD_EVIDENCE: removeBoard,
  DRAW_AND_PLAY_TOP: drawAndPlay,
  RESTRICT_OPPONENT_EVENTS: restrict,
  REPLAY_REMOVED_EVENT: replay,
  GAMBIT_RECYCLE: gambit,
};

const prim = (step: Step) => PRIMITIVES[step.op] as Primitive<Step>;

/** Runs a step task: resolves it, auto-answers a choice with one option, or opens the actor's prompt. */
export function startStep(G: WatergateState, actor: PlayerID, step: Step, card: CardId | null, rng: Rng): void {
  const opts = prim(step).start(G, actor, step, card, rng);
  if (!opts || G.winner !== null) return;
  if (opts.length === 1) return prim(step).apply!(G, actor, step, opts[0], card, rng);
  G.prompt = { kind: 'choose', player: actor, step, card };
}

export const stepOptions = (G: WatergateState, actor: PlayerID, step: Step): ChoiceArgs[] => prim(step).options?.(G, actor, step) ?? [];

export function checkChoice(G: WatergateState, actor: PlayerID, step: Step, args: unknown, card: CardId | null): string | null {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return 'a choice must be an object';
  const check = prim(step).check;
  return check ? check(G, actor, step, args as ChoiceArgs, card) : 'nothing to choose';
}

export function applyChoice(G: WatergateState, actor: PlayerID, step: Step, args: ChoiceArgs, card: CardId | null, rng: Rng): void {
  prim(step).apply!(G, actor, step, args, card, rng);
}
