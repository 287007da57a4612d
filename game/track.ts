/** The research track: moving the initiative, momentum and evidence tokens, and gaining them (R10–R13, R24). */
import { MOMENTUM_CARDS, NIXON_WINS_AT } from './momentum';
import { TOKEN } from './tokens';
import { record, toward } from './state';
import { EDITOR, NIXON, type Colour, type PlayerID, type TokenId, type TrackMarker, type TrackToken, type WatergateState, type Where } from './types';

/** Position seen from p: 5 is p's gain space, −5 the opponent's. */
export const relative = (pos: number, p: PlayerID): number => pos * toward(p);

export const matchesColour = (token: TokenId, colour: Colour): boolean => TOKEN[token].colours.includes(colour);

export function inside(pos: number, where: Where, actor: PlayerID): boolean {
  const rel = relative(pos, actor);
  switch (where) {
    case 'ANY':
      return true;
    case 'NEUTRAL':
      return rel === 0;
    case 'OWN_SIDE':
      return rel > 0;
    case 'OPPONENT_SIDE':
      return rel < 0;
    case 'NOT_OWN_SIDE':
      return rel <= 0;
  }
}

export const faceDownOnTrack = (G: WatergateState): TrackToken[] => G.track.evidence.filter((t) => !t.up);
export const trackToken = (G: WatergateState, id: TokenId): TrackToken | undefined => G.track.evidence.find((t) => t.id === id);

export function win(G: WatergateState, winner: PlayerID, reason: Exclude<NonNullable<WatergateState['endReason']>, 'aborted'>): void {
  if (isOver(G)) return;
  G.winner = winner;
  G.endReason = reason;
  G.phase = 'gameover';
  G.prompt = null;
  record(G, winner, `win.${reason}`);
}

/** Whether the game has ended: won, or aborted by the server (no winner). */
export const isOver = (G: Pick<WatergateState, 'phase'>): boolean => G.phase === 'gameover';

/**
 * The game stops with no winner (the server's `abort`: a match left before both sides decided anything);
 * `undecided` is the side that had not made its first decision.
 */
export function abort(G: WatergateState, undecided: PlayerID): void {
  if (isOver(G)) return;
  G.endReason = 'aborted';
  G.aborted = undecided;
  G.phase = 'gameover';
  G.prompt = null;
  record(G, undecided, 'game.aborted');
}

/** The game's result as boardgame.io's `ctx.gameover` holds it (undefined while it goes on). */
export function gameoverOf(G: WatergateState): { winner?: PlayerID; reason: WatergateState['endReason']; aborted?: PlayerID } | undefined {
  if (!isOver(G)) return undefined;
  return G.winner !== null ? { winner: G.winner, reason: G.endReason } : { reason: G.endReason, aborted: G.aborted };
}

/** R24: a gained momentum token goes on the lowest empty space; the Editor resolves that space's ability at once (K10). */
export function gainMomentum(G: WatergateState, p: PlayerID): void {
  const cards = G.momentum.cards;
  if (p === NIXON) {
    cards[NIXON]++;
    record(G, p, 'momentum.gain', { count: cards[NIXON] });
    if (cards[NIXON] >= NIXON_WINS_AT) win(G, NIXON, 'momentum');
    return;
  }
  if (cards[EDITOR] >= MOMENTUM_CARDS[EDITOR].spaces) {
    G.momentum.removed++;
    record(G, p, 'momentum.full');
    return;
  }
  cards[EDITOR]++;
  record(G, p, 'momentum.gain', { count: cards[EDITOR] });
  G.tasks.push({ t: 'ability', space: cards[EDITOR] });
}

function gainMarker(G: WatergateState, marker: TrackMarker, p: PlayerID): void {
  G.track[marker] = null;
  if (marker === 'initiative') {
    G.initiative = p; // K11: the card turns at once; this round's turn order is unchanged
    record(G, p, 'initiative.gain');
  } else gainMomentum(G, p);
}

/** Moves the initiative or momentum token `steps` toward p (MOVE_TOKEN, value plays, red "1" pins). */
export function moveMarker(G: WatergateState, marker: TrackMarker, steps: number, p: PlayerID): void {
  const pos = G.track[marker];
  if (pos === null) return; // already gained this round (G3, G8)
  const next = pos + toward(p) * steps;
  if (relative(next, p) >= 5) gainMarker(G, marker, p);
  else G.track[marker] = next;
}

/** SET_TOKEN: put the marker on p's relative space. */
export function setMarker(G: WatergateState, marker: TrackMarker, space: number, p: PlayerID): void {
  if (G.track[marker] === null) return;
  if (space >= 5) gainMarker(G, marker, p);
  else G.track[marker] = space * toward(p);
}

/**
 * Moves evidence tokens toward p together (K8); each is turned face up (R11). Gained tokens leave the
 * track and wait in a pin task, pinned one by one in p's order.
 */
export function moveEvidence(G: WatergateState, moves: readonly { id: TokenId; steps: number }[], p: PlayerID): void {
  const gained: TokenId[] = [];
  for (const { id, steps } of moves) {
    const t = trackToken(G, id);
    if (!t || steps <= 0) continue;
    t.up = true;
    t.pos += toward(p) * steps;
    if (relative(t.pos, p) >= 5) gained.push(id);
  }
  if (gained.length === 0) return;
  G.track.evidence = G.track.evidence.filter((t) => !gained.includes(t.id));
  record(G, p, 'evidence.gain', { tokens: gained.join(',') });
  G.tasks.push({ t: 'pin', player: p, tokens: gained });
}

/** Puts track tokens back in the bag. */
export function returnToBag(G: WatergateState, ids: readonly TokenId[]): void {
  G.track.evidence = G.track.evidence.filter((t) => !ids.includes(t.id));
  G.bag.push(...ids);
}

