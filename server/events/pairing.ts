/**
 * Swiss pairing with balanced sides (docs/EVENTS.md): pure functions over plain data, no storage, no
 * clock, no randomness — the same history always gives the same round, so any process may compute it and
 * the tests can replay thousands of events.
 *
 * Not a library: npm `tournament-pairings` (and `tournament-organizer`, built on it) is GPL-3.0 — this
 * project is MIT — shuffles with Math.random, and treats sides only as a weight, so it cannot promise
 * what an asymmetric game needs. Ours is Dutch-style: the hard rules (never the same opponent twice;
 * nobody's Editor and Nixon counts more than one apart) decide who may meet, and each choice, made in the
 * order of the soft ones (score, then the Dutch position in the score group), is kept only if the rest
 * can still be paired — an exact test (a maximum matching), so the pairing never dead-ends.
 */

import { hasPerfectMatching } from './matching';

export type Side = 'editor' | 'nixon';

export interface Player {
  id: string;
  rating: number;
}

/** One board of a round. Paired deals: the first game as named, the second with sides swapped, one deal. */
export interface Board {
  editor: string;
  nixon: string;
  /** Points of the editor and the nixon named here, once the board is over (single game or the pair). */
  points?: [number, number];
}

export interface Round {
  boards: Board[];
  bye: string | null;
}

/** A bye is a full point (FIDE's "pairing-allocated bye"), counts as no game for sides or tie-breaks. */
export const BYE_POINTS = 1;

/** A single game's points: the winner 1, the loser 0; a game nobody won (both forfeited) 0 for both. */
export function gamePoints(winner: Side | null): [number, number] {
  return winner === 'editor' ? [1, 0] : winner === 'nixon' ? [0, 1] : [0, 0];
}

/**
 * A paired deal's points from the games each won (a = the first game's Editor): more wins 1, fewer 0;
 * one each is a drawn pair, ½ each — whoever won on the same deal from the other side did as well.
 * No game won by either (both forfeited twice) is 0 for both, as a single double forfeit.
 */
export function pairPoints(winsA: number, winsB: number): [number, number] {
  if (winsA > winsB) return [1, 0];
  if (winsB > winsA) return [0, 1];
  return winsA === 0 ? [0, 0] : [0.5, 0.5];
}

export interface Standing {
  id: string;
  rating: number;
  score: number;
  /** Sum of the final scores of every opponent met (byes add nothing). */
  buchholz: number;
  /** Sonneborn–Berger: sum over boards of the points taken there times that opponent's final score. */
  sonnebornBerger: number;
  sides: { editor: number; nixon: number };
  byes: number;
  opponents: string[];
  /** Side of the last game played (the second of a pair), for alternating. */
  lastSide: Side | null;
}

/** Everyone's standing after the finished boards of `rounds`, best first (score, Buchholz, SB, rating, id). */
export function standings(players: Player[], rounds: Round[], paired: boolean): Standing[] {
  const s = new Map<string, Standing>();
  for (const p of players) s.set(p.id, { id: p.id, rating: p.rating, score: 0, buchholz: 0, sonnebornBerger: 0, sides: { editor: 0, nixon: 0 }, byes: 0, opponents: [], lastSide: null });
  const get = (id: string) => s.get(id) ?? (s.set(id, { id, rating: 0, score: 0, buchholz: 0, sonnebornBerger: 0, sides: { editor: 0, nixon: 0 }, byes: 0, opponents: [], lastSide: null }), s.get(id)!);
  for (const r of rounds) {
    if (r.bye) {
      get(r.bye).byes++;
      get(r.bye).score += BYE_POINTS;
    }
    for (const b of r.boards) {
      const e = get(b.editor), n = get(b.nixon);
      e.opponents.push(n.id);
      n.opponents.push(e.id);
      e.sides.editor++;
      n.sides.nixon++;
      if (paired) {
        e.sides.nixon++;
        n.sides.editor++;
      }
      e.lastSide = paired ? 'nixon' : 'editor';
      n.lastSide = paired ? 'editor' : 'nixon';
      if (b.points) {
        e.score += b.points[0];
        n.score += b.points[1];
      }
    }
  }
  for (const r of rounds)
    for (const b of r.boards) {
      const e = get(b.editor), n = get(b.nixon);
      e.buchholz += n.score;
      n.buchholz += e.score;
      if (b.points) {
        e.sonnebornBerger += b.points[0] * n.score;
        n.sonnebornBerger += b.points[1] * e.score;
      }
    }
  return [...s.values()].sort(
    (a, b) => b.score - a.score || b.buchholz - a.buchholz || b.sonnebornBerger - a.sonnebornBerger || b.rating - a.rating || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** Editor games minus Nixon games: the pairing keeps it within −1…1 for everyone at every round's end. */
const tilt = (st: Standing) => st.sides.editor - st.sides.nixon;

/**
 * The next round for the `active` players (withdrawn ones left out), or null when no pairing keeps the
 * rules (the players left have met everyone they may meet): the event then ends. Odd: one bye, to the
 * lowest-ranked player who has had none and without whom the others can still all be paired; only if
 * there is no such player, to the one with fewest byes, lowest first.
 */
export function pairRound(players: Player[], rounds: Round[], active: string[], paired: boolean): Round | null {
  const all = standings(players, rounds, paired);
  const live = new Set(active);
  const order = all.filter((st) => live.has(st.id)); // best first
  if (order.length < 2) return null;
  if (order.length % 2 === 0) {
    const boards = pairAll(order, paired);
    return boards && { boards, bye: null };
  }
  const byeOrder = [...order].reverse().sort((a, b) => a.byes - b.byes); // stable: lowest-ranked first within equal byes
  for (const bye of byeOrder) {
    const boards = pairAll(order.filter((x) => x !== bye), paired);
    if (boards) return { boards, bye: bye.id };
  }
  return null;
}

/** May a and b meet now: never met, and (single games) not both owing the same side. */
export function compatible(a: Standing, b: Standing, paired: boolean): boolean {
  if (a.opponents.includes(b.id)) return false;
  if (paired) return true;
  const ta = tilt(a), tb = tilt(b);
  return !((ta > 0 && tb > 0) || (ta < 0 && tb < 0));
}

/**
 * Pairs an even list (best first) or says it cannot. The best unpaired player takes the first candidate,
 * in the order nearest score, then the Dutch position (the top half of a score group meets the bottom
 * half in order: 1–5, 2–6, … of 8), then rank — among the candidates that leave the others a way to be
 * paired, which a maximum matching of the players left decides exactly (matching.ts). No dead end can be
 * reached, so no search budget: about n²/2 matchings of at most n players a round.
 */
function pairAll(order: Standing[], paired: boolean): Board[] | null {
  const n = order.length;
  const groupPos: { pos: number; size: number }[] = [];
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && order[j].score === order[i].score) j++;
    for (let k = i; k < j; k++) groupPos[k] = { pos: k - i, size: j - i };
    i = j;
  }
  const ok: boolean[][] = order.map((a) => order.map((b) => a !== b && compatible(a, b, paired)));
  const left = new Set(order.map((_, i) => i));
  if (!hasPerfectMatching([...left], ok)) return null;
  const pairs: [number, number][] = [];
  const preference = (i: number, j: number): [number, number, number] => {
    const target = groupPos[i].pos + Math.floor(groupPos[i].size / 2);
    const same = order[j].score === order[i].score;
    return [Math.abs(order[i].score - order[j].score), same ? Math.abs(groupPos[j].pos - target) : 0, j];
  };
  while (left.size > 0) {
    const i = Math.min(...left);
    left.delete(i);
    const candidates = [...left].filter((j) => ok[i][j]).sort((x, y) => {
      const a = preference(i, x), b = preference(i, y);
      return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    });
    const j = candidates.find((c) => {
      left.delete(c);
      const fits = hasPerfectMatching([...left], ok);
      left.add(c);
      return fits;
    });
    if (j === undefined) return null; // cannot happen: the matching before this step had a partner for i
    left.delete(j);
    pairs.push([i, j]);
  }
  return pairs.map(([i, j], board) => sides(order[i], order[j], board));
}

/**
 * Who plays the Editor (a ranks above b). The one with more Nixon games; else the one who played Nixon
 * last; else alternately by board (board 1: the higher-ranked player is the Editor, board 2 Nixon, …).
 * Paired deals play both sides anyway: this names the first game's Editor.
 */
function sides(a: Standing, b: Standing, board: number): Board {
  const ta = tilt(a), tb = tilt(b);
  let aEditor: boolean;
  if (ta !== tb) aEditor = ta < tb;
  else if (a.lastSide !== b.lastSide && a.lastSide !== null && b.lastSide !== null) aEditor = a.lastSide === 'nixon';
  else if (a.lastSide !== b.lastSide) aEditor = (a.lastSide ?? b.lastSide) === (a.lastSide ? 'nixon' : 'editor');
  else aEditor = board % 2 === 0;
  return aEditor ? { editor: a.id, nixon: b.id } : { editor: b.id, nixon: a.id };
}
