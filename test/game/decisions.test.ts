/**
 * The decision table (game/decisions.ts): at every decision of seeded random games, `check` accepts an
 * argument exactly when it is one of `options` — tried with every argument of the same kind of decision
 * met anywhere in those games (other cards, tokens, spaces, targets, choices of other steps), plus
 * malformed ones. What the board offers and what the server accepts can never disagree.
 */
import { describe, expect, it } from 'vitest';
import { DECISIONS, decisionFor } from '../../game/decisions';
import type { Prompt } from '../../game/types';
import { randomDecisions } from '../helpers/rng';

/**
 * JSON with sorted keys, so equal arguments compare equal whatever order their fields were written in.
 * Tokens chosen together (`tokens`, `split`) are a set: the engine accepts them in any order and offers
 * each set once, so they compare as sets.
 */
const canon = (x: unknown): string =>
  JSON.stringify(x, (k, v: unknown) => {
    if ((k === 'tokens' || k === 'split') && Array.isArray(v)) return [...v].map((e) => JSON.stringify(e)).sort();
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v;
  });

const MALFORMED: unknown[] = [undefined, 42, 'E99', [], {}, { card: 'E01' }, { token: 'T01' }, { tokens: ['T01', 'T01'] }, { kind: 'nowhere' }];

describe('the decision table', () => {
  it('check passes exactly for the options, for every kind of prompt, at every decision of 30 games', { timeout: 240_000 }, () => {
    // Arguments met per kind of prompt, gathered over the games (each kept once).
    const pools = new Map<Prompt['kind'], Map<string, unknown>>();
    const games = Array.from({ length: 30 }, (_, i) => Array.from(randomDecisions(7000 + i), (d) => structuredClone(d.G)));
    for (const states of games)
      for (const G of states) {
        const pr = G.prompt!;
        const pool = pools.get(pr.kind) ?? new Map<string, unknown>();
        pools.set(pr.kind, pool);
        for (const arg of decisionFor(pr).options(G, pr.player, pr)) if (pool.size < 400) pool.set(canon(arg), arg);
      }
    expect([...pools.keys()].sort()).toEqual(Object.keys(DECISIONS).filter((k) => k !== 'playDrawn' || pools.has('playDrawn')).sort());

    let checked = 0;
    for (const states of games)
      for (const [n, G] of states.entries()) {
        if (n % 3 !== 0) continue; // every third decision: the pools are large
        const pr = G.prompt!;
        const d = decisionFor(pr);
        const options = new Set(d.options(G, pr.player, pr).map(canon));
        for (const arg of [...pools.get(pr.kind)!.values(), ...MALFORMED]) {
          const refusal = d.check(G, pr.player, pr, arg);
          const offered = arg !== undefined && options.has(canon(arg));
          // The message (every option listed) is written only for a disagreement: built for each of the
          // checks it took most of the file's time.
          if ((refusal === null) !== offered)
            expect(refusal === null, `${pr.kind}${pr.kind === "choose" ? ` ${JSON.stringify(pr.step)} options ${[...options].join(" ")}` : ""} ${canon(arg)}: ${refusal ?? 'accepted'}, ${offered ? 'offered' : 'not offered'}`).toBe(offered);
          checked++;
        }
      }
    expect(checked).toBeGreaterThan(10_000);
  });
});
