/**
 * Engines by name, each a function from a seat's view (and its legal action ids) to an action id —
 * the one interface the arena (tools/arena/) and the bot kit (tools/bot/) drive, so an engine never
 * holds more than its seat may see:
 * - `watergate:<level>`: our bot (bots/levels.ts) at a level of protocol/ LEVEL_NAMES, iteration budget
 *   only (`deterministic`), so a result does not depend on the machine's load;
 * - `mcts[:iterations[:depth]]`: boardgame.io's MCTSBot made fair (fair-mcts.ts);
 * - `random`: a legal action at random;
 * - anything else: a module path exporting `decide(view, legal) → action id` (may return a promise).
 * Also `playDeal`: one game between two engines on a seeded deal, through the game interface (game/api.ts).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EndReason, PlayerID, WatergateView } from '../game';
import { apply, currentPlayer, idOf, legalActionsOfView, newState, seededRandom, view } from '../game/api';
import { isLevel, LEVEL_NAMES } from '../protocol/index';
import { fairMCTS, FAIR_MCTS_DEFAULTS } from './fair-mcts';
import { think } from './levels';
import { seedFrom } from './rng';

export type Decide = (view: WatergateView, legal: number[]) => number | Promise<number>;

/** A name the arena and the kit accept, or why not (checked before any worker starts). */
export function engineError(name: string): string | null {
  if (name === 'random') return null;
  const w = /^watergate:(.*)$/.exec(name);
  if (w) return isLevel(w[1]) ? null : `unknown level "${w[1]}" (levels: ${LEVEL_NAMES.join(', ')})`;
  const m = /^mcts(?::(\d+))?(?::(\d+))?$/.exec(name);
  if (m) return Number(m[1] ?? 1) >= 1 && Number(m[2] ?? 1) >= 1 ? null : 'mcts:<iterations>:<depth> takes positive whole numbers';
  if (name.startsWith('mcts')) return 'mcts[:iterations[:depth]]: e.g. mcts, mcts:400, mcts:400:30';
  return null; // a module path: its import says whether it exists
}

/** The engine called `name`; `seed` makes its own randomness reproducible (the arena gives each game its own). */
export async function engine(name: string, seed: string | number = 0): Promise<Decide> {
  const error = engineError(name);
  if (error) throw new Error(`engine "${name}": ${error}`);
  if (name === 'random') {
    const random = seededRandom(`${seed}/random`);
    return (_v, legal) => legal[Math.floor(random() * legal.length)];
  }
  const w = /^watergate:(.*)$/.exec(name);
  if (w && isLevel(w[1])) {
    const level = w[1];
    return (v) => idOrThrow(think(v, { level, deterministic: true, seed: seedFrom(String(seed)) }).move);
  }
  const m = /^mcts(?::(\d+))?(?::(\d+))?$/.exec(name);
  if (m) {
    const iterations = Number(m[1] ?? FAIR_MCTS_DEFAULTS.iterations);
    const playoutDepth = Number(m[2] ?? FAIR_MCTS_DEFAULTS.playoutDepth);
    return async (v) => idOrThrow((await fairMCTS(v, { iterations, playoutDepth, seed })).move);
  }
  const mod = (await import(pathToFileURL(resolve(name)).href)) as { decide?: Decide; default?: { decide?: Decide } };
  const decide = mod.decide ?? mod.default?.decide;
  if (typeof decide !== 'function') throw new Error(`engine module ${name} exports no decide(view, legal)`);
  return decide;
}

function idOrThrow(m: Parameters<typeof idOf>[0]): number {
  const id = idOf(m);
  if (id === null) throw new Error(`no action id for ${JSON.stringify(m)}`);
  return id;
}

export interface DealResult {
  winner: PlayerID | null;
  reason: EndReason | null;
  moves: number;
  rounds: number;
}

/**
 * One game on the deal `seed` (`newState(seed)`: what a server match with that seed deals), each seat's
 * engine shown only its view. An illegal answer throws, naming the seat. Past `maxRounds` the game is
 * reported without a winner (the rules' round limit would abort it too).
 */
export async function playDeal(seed: string, seats: Record<PlayerID, Decide>, maxRounds = 60): Promise<DealResult> {
  let s = newState(seed);
  let moves = 0;
  for (let p = currentPlayer(s); p !== null && s.G.round <= maxRounds; p = currentPlayer(s)) {
    const v = view(s, p);
    const legal = legalActionsOfView(v);
    const id = await seats[p](v, legal);
    if (!legal.includes(id)) throw new Error(`the ${p === '0' ? 'Editor' : 'Nixon'} engine answered ${String(id)}, not a legal action`);
    s = apply(s, id, p);
    moves++;
  }
  return { winner: s.G.winner ?? null, reason: s.G.endReason ?? null, moves, rounds: s.G.round };
}
