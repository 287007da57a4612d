/**
 * Playing a card (R9–R16): a value play moves one token; an action play is announced, may be answered
 * by reactions (a stack: each reaction cancels the card directly below it), then resolves.
 */
import { CARDS } from './cards';
import { record, other } from './state';
import { dispose, pushSteps, requirementsHold } from './primitives';
import { faceDownOnTrack, matchesColour, moveEvidence, moveMarker, trackToken } from './track';
import {
  COLOURS,
  EDITOR,
  NIXON,
  type CardDef,
  type CardId,
  type ChainEntry,
  type Colour,
  type PlayArgs,
  type PlayerID,
  type ReactionEffect,
  type ReactionTrigger,
  type TokenId,
  type ValueTarget,
  type WatergateState,
} from './types';

const cardMatches = (c: CardDef, token: TokenId): boolean => c.colour === 'joker' || matchesColour(token, c.colour);

/** Every legal target of a value play of card `c` by p (R10–R12, K2, K12). */
export function valueTargets(G: WatergateState, p: PlayerID, c: CardDef): ValueTarget[] {
  const out: ValueTarget[] = [];
  if (G.track.initiative !== null) out.push({ kind: 'initiative' });
  if (G.track.momentum !== null) out.push({ kind: 'momentum' });
  for (const t of G.track.evidence)
    if ((t.up || p === NIXON) && cardMatches(c, t.id)) out.push({ kind: 'evidence', token: t.id });
  if (p === EDITOR && faceDownOnTrack(G).length > 0)
    for (const colour of c.colour === 'joker' ? COLOURS : [c.colour]) out.push({ kind: 'ask', colour });
  if (out.length === 0) out.push({ kind: 'none' });
  return out;
}

/** After an ask answered "none": initiative, momentum, or a face-up token of the named colour (any colour: null). */
export function fallbackTargets(G: WatergateState, colour: Colour | null): ValueTarget[] {
  const out: ValueTarget[] = [];
  if (G.track.initiative !== null) out.push({ kind: 'initiative' });
  if (G.track.momentum !== null) out.push({ kind: 'momentum' });
  for (const t of G.track.evidence) if (t.up && (colour === null || matchesColour(t.id, colour))) out.push({ kind: 'evidence', token: t.id });
  return out;
}

const sameTarget = (a: ValueTarget, b: unknown): boolean => {
  if (!b || typeof b !== 'object') return false;
  const o = b as Record<string, unknown>;
  if (o.kind !== a.kind) return false;
  if (a.kind === 'evidence') return o.token === a.token;
  if (a.kind === 'ask') return o.colour === a.colour;
  return true;
};

/** Why p may not use card c's action now, or null (R15, K4, K5, RESTRICT_OPPONENT_EVENTS). */
export function actionBlocked(G: WatergateState, p: PlayerID, c: CardDef): string | null {
  if (c.reaction) return `${c.name} is a reaction: its action answers a trigger, on your turn use its value`;
  if (p === EDITOR && c.type === 'EVENT' && G.eventsRestricted) return 'A brilliant mood: the Editor may use events only for their value this round';
  if (!requirementsHold(G, p, c.requires)) return `the requirements of ${c.name} do not hold`;
  return null;
}

/** The cards a `play`/`playDrawn` prompt lets p play: the hand, or the card Howard Hunt drew. */
export function playableCards(G: WatergateState, p: PlayerID): CardId[] {
  if (G.prompt?.kind === 'playDrawn') return G.drawnCard ? [G.drawnCard.card] : [];
  return G.hands[p];
}

/** Validates a play without changing anything. */
export function checkPlay(G: WatergateState, p: PlayerID, args: unknown): string | null {
  if (!args || typeof args !== 'object') return 'play takes { card, as, target }';
  const { card, as, target } = args as PlayArgs;
  if (typeof card !== 'string' || !CARDS[card]) return 'unknown card';
  if (!playableCards(G, p).includes(card)) return 'that card is not yours to play now';
  const c = CARDS[card];
  if (as === 'action') return target === undefined ? actionBlocked(G, p, c) : 'an action play takes no target';
  if (as !== 'value') return 'as must be "value" or "action"';
  return valueTargets(G, p, c).some((t) => sameTarget(t, target)) ? null : 'that is not a legal target for this value';
}

/** A value play on a token; the card is discarded (R14). */
function valueMove(G: WatergateState, p: PlayerID, card: CardId, target: ValueTarget): void {
  const value = CARDS[card].value;
  if (target.kind === 'initiative' || target.kind === 'momentum') {
    record(G, p, 'value.marker', { card, token: target.kind, steps: value, from: G.track[target.kind] ?? 0 });
    moveMarker(G, target.kind, value, p);
  } else if (target.kind === 'evidence') {
    record(G, p, 'value.evidence', { card, token: target.token, steps: value, from: trackToken(G, target.token)?.pos ?? 0 });
    moveEvidence(G, [{ id: target.token, steps: value }], p);
  } else record(G, p, 'value.none', { card });
  dispose(G, p, card, 'DISCARD');
}

/** Applies a checked play. The caller has taken the card out of hand (or the drawn slot). */
export function play(G: WatergateState, p: PlayerID, args: PlayArgs, drawn: boolean): void {
  const c = CARDS[args.card];
  G.resolving.push(args.card);
  if (args.as === 'action') {
    record(G, p, 'play.action', { card: args.card });
    G.chain.push({ player: p, card: args.card, kind: 'action', drawn });
    return openWindow(G);
  }
  const target = args.target!;
  if (target.kind === 'ask') return ask(G, args.card, target.colour);
  if (target.kind === 'evidence' && p === NIXON) {
    // K6: the named token is turned face up when named, before the Editor may answer.
    const t = trackToken(G, target.token)!;
    t.up = true;
    record(G, p, 'value.name', { card: args.card, token: t.id, steps: c.value, from: t.pos });
    G.chain.push({ player: p, card: args.card, kind: 'value', token: t.id, from: t.pos, drawn });
    return openWindow(G);
  }
  valueMove(G, p, args.card, target);
}

// ---- the Editor's ask (R12, K2) ---------------------------------------------------------------------

function ask(G: WatergateState, card: CardId, colour: Colour): void {
  record(G, EDITOR, 'ask', { card, colour });
  const matching = faceDownOnTrack(G).filter((t) => matchesColour(t.id, colour));
  if (matching.length === 1) return answerAsk(G, card, matching[0].id);
  if (matching.length > 1) {
    G.prompt = { kind: 'answer', player: NIXON, card, colour };
    return;
  }
  record(G, NIXON, 'ask.none', { colour });
  // G2: the named colour stays locked (2023 errata); the 2019 text frees a joker's colour.
  const locked = G.options.jokerFallback === 'rulebook2019' && CARDS[card].colour === 'joker' ? null : colour;
  const targets = fallbackTargets(G, locked);
  if (targets.length === 0) return valueMove(G, EDITOR, card, { kind: 'none' });
  if (targets.length === 1) return valueMove(G, EDITOR, card, targets[0]);
  G.prompt = { kind: 'target', player: EDITOR, card, colour: locked };
}

export function checkAnswer(G: WatergateState, token: unknown): string | null {
  const pr = G.prompt;
  if (pr?.kind !== 'answer') return 'no ask to answer';
  if (typeof token !== 'string') return 'answer with a token id';
  const t = trackToken(G, token);
  return t && !t.up && matchesColour(token, pr.colour) ? null : `choose a face-down ${pr.colour} token on the track`;
}

export function answerAsk(G: WatergateState, card: CardId, token: TokenId): void {
  record(G, NIXON, 'ask.answer', { token });
  valueMove(G, EDITOR, card, { kind: 'evidence', token });
}

export function checkTarget(G: WatergateState, target: unknown): string | null {
  const pr = G.prompt;
  if (pr?.kind !== 'target') return 'no value to place';
  return fallbackTargets(G, pr.colour).some((t) => sameTarget(t, target)) ? null : 'that is not a legal target after the ask';
}

export function placeValue(G: WatergateState, target: ValueTarget): void {
  const pr = G.prompt as Extract<WatergateState['prompt'], { kind: 'target' }>;
  G.prompt = null;
  valueMove(G, EDITOR, pr.card, target);
}

// ---- reactions (R16, K4) ------------------------------------------------------------------------------

/** The trigger a chain entry offers the opponent, if any. */
function triggerOf(e: ChainEntry): ReactionTrigger | null {
  if (e.kind === 'value') return 'OPPONENT_VALUE_MOVES_EVIDENCE';
  const type = CARDS[e.card].type;
  if (e.player === EDITOR && type === 'EVENT') return 'OPPONENT_EVENT_ACTION';
  if (e.player === NIXON && type === 'CONSPIRATOR') return 'OPPONENT_CONSPIRATOR_ACTION';
  return null;
}

/** Could any reaction answer this trigger, judged on public information only (so a window leaks nothing)? */
function windowPossible(G: WatergateState, reactor: PlayerID, trigger: ReactionTrigger): boolean {
  if (G.hands[reactor].length === 0) return false;
  // Only events answer a value move; A brilliant mood blocks the Editor's events.
  return !(trigger === 'OPPONENT_VALUE_MOVES_EVIDENCE' && G.eventsRestricted);
}

/** Reaction cards in the reactor's hand that may answer the chain's top entry. */
export function legalReactions(G: WatergateState, reactor: PlayerID): CardId[] {
  const pr = G.prompt;
  if (pr?.kind !== 'react' || pr.player !== reactor) return [];
  const top = G.chain[G.chain.length - 1];
  return G.hands[reactor].filter((id) => {
    const r = CARDS[id].reaction;
    if (!r || r.trigger !== pr.trigger || r.notAgainst?.includes(top.card)) return false;
    return !(reactor === EDITOR && CARDS[id].type === 'EVENT' && G.eventsRestricted);
  });
}

function openWindow(G: WatergateState): void {
  const top = G.chain[G.chain.length - 1];
  const trigger = triggerOf(top);
  const reactor = other(top.player);
  if (trigger && windowPossible(G, reactor, trigger)) {
    G.prompt = { kind: 'react', player: reactor, trigger };
    return;
  }
  resolveChain(G);
}

export function checkReact(G: WatergateState, p: PlayerID, card: unknown): string | null {
  if (G.prompt?.kind !== 'react') return 'no reaction window is open';
  if (card === null) return null;
  return typeof card === 'string' && legalReactions(G, p).includes(card) ? null : 'that card cannot answer this';
}

/** A reaction is an extra card from hand, not the turn's card (R16, K4); null passes. */
export function react(G: WatergateState, p: PlayerID, card: CardId | null): void {
  G.prompt = null;
  if (card === null) {
    record(G, p, 'react.pass');
    return resolveChain(G);
  }
  G.hands[p].splice(G.hands[p].indexOf(card), 1);
  G.resolving.push(card);
  record(G, p, 'react.play', { card });
  G.chain.push({ player: p, card, kind: 'reaction' });
  openWindow(G);
}

/** A cancelled entry: the effect of the reaction that cancelled it (docs/RULES.md R16, K4). */
function cancelled(G: WatergateState, e: ChainEntry, effect: ReactionEffect): void {
  record(G, e.player, 'cancelled', { card: e.card });
  if (effect === 'CANCEL_EVENT_TO_DISCARD') return dispose(G, e.player, e.card, 'DISCARD');
  if (effect === 'CANCEL_AND_REMOVE_CONSPIRATOR') return dispose(G, e.player, e.card, 'REMOVE');
  // REDIRECT_EVIDENCE_MOVE: the named token moves from where it stood toward the Editor instead.
  record(G, EDITOR, 'redirect', { token: e.token!, steps: CARDS[e.card].value, from: trackToken(G, e.token!)?.pos ?? 0 });
  moveEvidence(G, [{ id: e.token!, steps: CARDS[e.card].value }], EDITOR);
  dispose(G, e.player, e.card, 'DISCARD');
}

/** Resolves the chain from the top (the stack rule): each live reaction cancels the entry below it. */
function resolveChain(G: WatergateState): void {
  const chain = G.chain;
  G.chain = [];
  let cancel: ReactionEffect | null = null;
  for (let i = chain.length - 1; i >= 0; i--) {
    const e = chain[i];
    const c = CARDS[e.card];
    if (cancel) {
      cancelled(G, e, cancel);
      cancel = null;
    } else if (e.kind === 'reaction') {
      cancel = c.reaction!.effect;
      dispose(G, e.player, e.card, c.after);
    } else if (e.kind === 'value') {
      record(G, e.player, 'value.evidence', { card: e.card, token: e.token!, steps: c.value, from: trackToken(G, e.token!)?.pos ?? 0 });
      moveEvidence(G, [{ id: e.token!, steps: c.value }], e.player);
      dispose(G, e.player, e.card, 'DISCARD');
    } else {
      // An action: its steps run next, then the card leaves play (Gambit may recycle).
      G.tasks.push(
        c.recycle
          ? { t: 'step', actor: e.player, step: { op: 'GAMBIT_RECYCLE' }, card: e.card }
          : { t: 'dispose', player: e.player, card: e.card, to: c.after },
      );
      pushSteps(G, e.player, c.steps, e.card);
    }
  }
}
