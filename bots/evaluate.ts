/**
 * The evaluation that lets a search stop at the end of a round (or earlier) and still score: an estimate
 * of the Editor's chance to win from the race between her connection and Nixon's clock.
 * - Editor: how many more face-up evidence tokens and informants her cheapest two-informant connection
 *   to Nixon's picture still needs on the evidence board (R26).
 * - Nixon: momentum tokens still missing for his 5th (R25), or rounds until the supply runs dry (R21).
 * Both are turned into "rounds still needed"; the difference goes through a logistic curve.
 */
import { ADJACENT, INFORMANTS, NODE, type WatergateState } from '../game';

/** What each kind of board node costs the Editor before a path may use it. */
const COST = { upEvidence: 0, empty: 1, downEvidence: 2, upInformant: 0, supplyInformant: 1, downInformant: 2 };
/**
 * Rates measured in self-play (docs/BOTS.md): the Editor's connection cost falls about 0.65 per round,
 * Nixon gains about 0.55 momentum tokens per round; one round of lead is worth a logistic slope of 0.6.
 * With these, the opening position scores close to even, where the search discriminates best.
 */
const EVAL = { editorStepsPerRound: 0.65, nixonMomentumPerRound: 0.55, slope: 0.6 };

// The board as index arrays, built once: the evaluation runs at the end of every playout.
const IDS: readonly string[] = Object.keys(ADJACENT);
const INDEX = new Map(IDS.map((id, i) => [id, i]));
const NEIGHBOURS: readonly number[][] = IDS.map((id) => ADJACENT[id].map((n) => INDEX.get(n)!));
const IS_INFORMANT: readonly boolean[] = IDS.map((id) => NODE[id].kind === 'INFORMANT');
const ROOT = INDEX.get('NIXON')!;
const N = IDS.length;

function nodeCosts(G: WatergateState): Float64Array {
  const cost = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const id = IDS[i];
    if (i === ROOT) continue;
    if (IS_INFORMANT[i]) {
      const s = G.informants[id];
      cost[i] = s === 'up' ? COST.upInformant : s === 'supply' ? COST.supplyInformant : COST.downInformant;
    } else {
      const pinned = G.board[id];
      cost[i] = !pinned ? COST.empty : pinned.up ? COST.upEvidence : COST.downEvidence;
    }
  }
  return cost;
}

/** Dijkstra from Nixon's picture (O(V²) on 37 nodes); informants end a path (they join only to evidence). */
function cheapestInformant(cost: Float64Array, skip: number): { cost: number; path: number[]; informant: number } {
  const dist = new Float64Array(N).fill(Infinity);
  const prev = new Int16Array(N).fill(-1);
  const done = new Uint8Array(N);
  dist[ROOT] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < N; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return { cost: Infinity, path: [], informant: -1 };
    done[u] = 1;
    if (IS_INFORMANT[u]) {
      if (u === skip) continue;
      const path: number[] = [];
      for (let x = u; x !== ROOT && x >= 0; x = prev[x]) path.push(x);
      return { cost: dist[u], path, informant: u };
    }
    for (const v of NEIGHBOURS[u]) {
      if (done[v] || (u === ROOT && IS_INFORMANT[v])) continue;
      const d = dist[u] + cost[v];
      if (d < dist[v]) (dist[v] = d), (prev[v] = u);
    }
  }
}

/** Board steps the Editor still needs: a greedy two-informant Steiner tree (paths may share tokens, G6). */
export function connectionCost(G: WatergateState): number {
  const cost = nodeCosts(G);
  const first = cheapestInformant(cost, -1);
  if (first.informant < 0) return 2 * INFORMANTS.length;
  for (const i of first.path) cost[i] = 0;
  const second = cheapestInformant(cost, first.informant);
  return first.cost + (second.informant >= 0 ? second.cost : INFORMANTS.length);
}

/** The Editor's estimated chance to win, in [0, 1]; exact (0 or 1) when the game is over. */
export function editorWinChance(G: WatergateState): number {
  if (G.winner !== null) return G.winner === '0' ? 1 : 0;
  let need = connectionCost(G);
  let nixonMomentum = G.momentum.cards['1'];
  // Mid-round: what lies on the track will probably be gained by the side it leans to.
  if (G.track.momentum !== null && G.track.momentum < 0) nixonMomentum += (-G.track.momentum / 5) * 0.8;
  for (const t of G.track.evidence) if (t.pos > 0) need -= (t.pos / 5) * 0.6;
  const editorRounds = Math.max(0, need) / EVAL.editorStepsPerRound;
  const nixonRounds = Math.min((5 - nixonMomentum) / EVAL.nixonMomentumPerRound, G.momentum.supply + 1);
  return 1 / (1 + Math.exp(-EVAL.slope * (nixonRounds - editorRounds)));
}
