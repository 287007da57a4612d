/**
 * The round (R6–R8, R18–R22) as a stack of tasks: the engine pops and runs tasks until one needs a
 * decision (G.prompt) or someone has won (K1: whatever is still pending is dropped).
 */
import { MOMENTUM_CARDS } from './momentum';
import { drawCard, drawTokens, other, record } from './state';
import { canPin, pin, pinSpaces, unpinnable } from './pinning';
import { dispose, pushSteps, startStep } from './primitives';
import { gainMomentum, relative, win } from './track';
import { EDITOR, NIXON, type PlayerID, type Rng, type Task, type TokenId, type WatergateState } from './types';

export function run(G: WatergateState, rng: Rng): void {
  while (G.prompt === null && G.winner === null) {
    const task = G.tasks.pop();
    if (!task) throw new Error('the engine ran out of work');
    exec(G, task, rng);
  }
}

function exec(G: WatergateState, task: Task, rng: Rng): void {
  switch (task.t) {
    case 'round':
      return startRound(G, rng);
    case 'turn':
      return startTurn(G, task.player);
    case 'step':
      return startStep(G, task.actor, task.step, task.card, rng);
    case 'dispose':
      return dispose(G, task.player, task.card, task.to);
    case 'pin':
      return pinNext(G, task.player, task.tokens, task.secret);
    case 'ability':
      record(G, EDITOR, 'ability', { space: task.space });
      return pushSteps(G, EDITOR, MOMENTUM_CARDS[EDITOR].abilities[task.space - 1], null);
    case 'assess':
      return assess(G, task.step);
    case 'assessPins':
      return assessPins(G, task.player);
  }
}

/** The setup phase (the rulebook's initial phase): R6 card draws, R7 Nixon's 3 face-down tokens. */
function startRound(G: WatergateState, rng: Rng): void {
  G.round++;
  G.phase = 'setup';
  G.leader = G.initiative;
  G.turnsBegun = { [EDITOR]: 0, [NIXON]: 0 };
  G.eventsRestricted = false;
  record(G, null, 'round', { round: G.round });
  for (const [p, n] of [[G.initiative, 5], [other(G.initiative), 4]] as const) {
    let drawn = 0;
    for (let i = 0; i < n; i++) {
      const c = drawCard(G, p, rng);
      if (c === undefined) break; // Decided (R6): too few cards, draw what there is
      G.hands[p].push(c);
      drawn++;
    }
    record(G, p, 'draw.cards', { count: drawn });
  }
  const tokens = drawTokens(G, 3, rng);
  for (const id of tokens) G.track.evidence.push({ id, pos: 0, up: false });
  record(G, NIXON, 'draw.tokens', { count: tokens.length });
  G.phase = 'cards';
  G.tasks.push({ t: 'turn', player: G.leader });
}

/** R8: players alternate one card a turn; one with an empty hand is skipped; K13: both empty ends the phase. */
function startTurn(G: WatergateState, next: PlayerID): void {
  if (G.hands[EDITOR].length === 0 && G.hands[NIXON].length === 0) return startAssessment(G);
  const p = G.hands[next].length > 0 ? next : other(next);
  G.turnPlayer = p;
  G.turnSeq++;
  G.turnsBegun[p]++;
  G.prompt = { kind: 'play', player: p };
}

function startAssessment(G: WatergateState): void {
  G.phase = 'assessment';
  G.eventsRestricted = false;
  record(G, null, 'assessment');
  for (const step of [5, 4, 3, 2, 1] as const) G.tasks.push({ t: 'assess', step });
}

/** The assessment phase, strictly in order (R18–R22). */
function assess(G: WatergateState, step: 1 | 2 | 3 | 4 | 5): void {
  const track = G.track;
  switch (step) {
    case 1: {
      // R18: tokens on space 0 go back to the bag, face up or down.
      const back = track.evidence.filter((t) => t.pos === 0);
      track.evidence = track.evidence.filter((t) => t.pos !== 0);
      G.bag.push(...back.map((t) => t.id));
      record(G, null, 'assess.bag', { count: back.length });
      return;
    }
    case 2: {
      // R19, G7: on 0 the initiative goes to the player who did not hold it this round.
      if (track.initiative === null) return;
      const to = track.initiative > 0 ? EDITOR : track.initiative < 0 ? NIXON : other(G.leader);
      track.initiative = null;
      G.initiative = to;
      record(G, to, 'assess.initiative');
      return;
    }
    case 3: {
      // R20: momentum goes to the side it lies on; on 0 it returns to the supply.
      if (track.momentum === null) return;
      const pos = track.momentum;
      track.momentum = null;
      if (pos === 0) {
        G.momentum.supply++;
        record(G, null, 'assess.momentumSupply');
      } else gainMomentum(G, pos > 0 ? EDITOR : NIXON);
      return;
    }
    case 4: {
      // R21, G5: no momentum token left in the supply: Nixon wins before anyone pins.
      track.initiative = 0;
      if (G.momentum.supply === 0) return win(G, NIXON, 'supply');
      G.momentum.supply--;
      track.momentum = 0;
      record(G, null, 'assess.reset');
      return;
    }
    case 5: {
      // R22: the initiative holder (after step 2) pins first, then the other; then a new round.
      const first = G.initiative;
      G.tasks.push({ t: 'round' }, { t: 'assessPins', player: other(first) }, { t: 'assessPins', player: first });
      return;
    }
  }
}

function assessPins(G: WatergateState, p: PlayerID): void {
  const mine = G.track.evidence.filter((t) => relative(t.pos, p) > 0).map((t) => t.id);
  G.track.evidence = G.track.evidence.filter((t) => relative(t.pos, p) <= 0);
  G.turnPlayer = p;
  G.turnSeq++;
  if (mine.length > 0) {
    record(G, p, 'evidence.gain', { tokens: mine.join(',') });
    G.tasks.push({ t: 'pin', player: p, tokens: mine });
  }
}

/** K8: gained tokens are pinned one at a time in the player's order; unpinnable ones go back (R23 Decided). */
function pinNext(G: WatergateState, p: PlayerID, tokens: TokenId[], secret?: true): void {
  if (tokens.length === 0) return;
  const pinnable = tokens.filter((id) => pinSpaces(G, id).length > 0);
  if (pinnable.length === 0) return unpinnable(G, p, tokens);
  if (tokens.length === 1) {
    const spaces = pinSpaces(G, tokens[0]);
    if (spaces.length === 1) return pin(G, p, tokens[0], spaces[0]);
  }
  G.prompt = secret ? { kind: 'pin', player: p, tokens, secret } : { kind: 'pin', player: p, tokens };
}

export function checkPin(G: WatergateState, args: unknown): string | null {
  const pr = G.prompt;
  if (pr?.kind !== 'pin') return 'nothing to pin';
  if (!args || typeof args !== 'object') return 'pin takes { token, space }';
  const { token, space } = args as { token: unknown; space: unknown };
  if (typeof token !== 'string' || !pr.tokens.includes(token)) return 'that token is not waiting to be pinned';
  if (typeof space !== 'string' || !canPin(G, token, space)) return 'that space is not empty or does not match the token';
  return null;
}

export function pinChosen(G: WatergateState, p: PlayerID, token: TokenId, space: string): void {
  const pr = G.prompt as Extract<WatergateState['prompt'], { kind: 'pin' }>;
  G.prompt = null;
  const rest = pr.tokens.filter((t) => t !== token);
  G.tasks.push(pr.secret ? { t: 'pin', player: p, tokens: rest, secret: true } : { t: 'pin', player: p, tokens: rest });
  pin(G, p, token, space);
}
