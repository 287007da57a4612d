/**
 * legalOption (game/engine.ts): the server stores, sends and replays the engine's own option, never the
 * sender's object. At every decision of seeded random games, for every kind of prompt: each option comes
 * back as an equal copy (also with its fields in another order, and its token sets reversed), each option
 * with an extra field, a padded string or a token of its set written twice is refused with a reason, and
 * so is junk.
 */
import { describe, expect, it } from 'vitest';
import { legalOption } from '../../game/engine';
import type { Prompt, WatergateState } from '../../game/types';
import { randomDecisions } from '../helpers/rng';

const PAD = 'x'.repeat(50_000);
const JUNK: unknown[] = [42, 'E99', [], {}, { card: 'E01', as: 'action', extra: PAD }, { tokens: [PAD] }, [null], { kind: 'none', pad: PAD }];

/** The same option written differently: fields in reverse order, token sets reversed. */
function reordered(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(reordered);
  if (!x || typeof x !== 'object') return x;
  return Object.fromEntries(
    Object.entries(x)
      .reverse()
      .map(([k, v]) => [k, (k === 'tokens' || k === 'split') && Array.isArray(v) ? [...v].reverse().map(reordered) : reordered(v)]),
  );
}

/** The option with one token of a set written twice in place of another (a set of the same size, not the same set). */
function repeated(x: unknown): unknown | null {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return null;
  for (const [k, v] of Object.entries(x))
    if ((k === 'tokens' || k === 'split') && Array.isArray(v) && v.length >= 2 && JSON.stringify(v[0]) !== JSON.stringify(v[1])) return { ...x, [k]: [v[0], v[0], ...v.slice(2)] };
  return null;
}

/** Ways to carry more than the option: an extra field (at the top and one level down), or a longer string. */
function padded(x: unknown): unknown[] {
  if (typeof x === 'string') return [x + PAD];
  if (!x || typeof x !== 'object' || Array.isArray(x)) return [];
  const out: unknown[] = [{ ...x, junk: PAD }];
  for (const [k, v] of Object.entries(x)) if (v && typeof v === 'object' && !Array.isArray(v)) out.push({ ...x, [k]: { ...v, junk: PAD } });
  return out;
}

describe('legalOption', () => {
  it('returns a copy of the engine option for each option, refuses padded ones and junk, for every kind of prompt', () => {
    const kinds = new Set<Prompt['kind']>();
    const paddedRefused = new Set<Prompt['kind']>();
    let checked = 0;
    let repeatedRefused = 0;
    for (let seed = 0; seed < 12; seed++)
      for (const d of randomDecisions(9100 + seed)) {
        const pr = d.G.prompt!;
        kinds.add(pr.kind);
        for (const { move, args } of d.moves) {
          const option = args[0];
          for (const sent of [option, reordered(option)]) {
            const out = legalOption(d.G, d.player, move, sent);
            expect(out, `${pr.kind} ${JSON.stringify(sent)}`).toEqual({ arg: option });
            if (option && typeof option === 'object') expect((out as { arg: unknown }).arg).not.toBe(sent);
          }
          const twice = repeated(option);
          if (twice) {
            expect('error' in legalOption(d.G, d.player, move, twice), `${pr.kind} ${JSON.stringify(twice)}`).toBe(true);
            repeatedRefused++;
          }
          for (const p of padded(option)) {
            const out = legalOption(d.G, d.player, move, p);
            expect('error' in out, `${pr.kind} padded ${JSON.stringify(option)}`).toBe(true);
            paddedRefused.add(pr.kind);
          }
          checked++;
        }
        for (const j of JUNK) expect('error' in legalOption(d.G, d.player, d.moves[0].move, j)).toBe(true);
        // Someone else's decision, whatever the argument.
        expect(legalOption(d.G, d.player === '0' ? '1' : '0', d.moves[0].move, d.moves[0].args[0])).toEqual({ error: 'it is not your decision' });
      }
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['answer', 'choose', 'pin', 'play', 'react', 'target']));
    expect([...paddedRefused]).toEqual(expect.arrayContaining(['answer', 'choose', 'pin', 'play', 'react']));
    expect(checked).toBeGreaterThan(1000);
    expect(repeatedRefused).toBeGreaterThan(0);
  });

  it('resign takes nothing: its argument is dropped only when it is none, else refused', () => {
    const d = randomDecisions(9200).next().value as { G: WatergateState };
    expect(legalOption(d.G, '1', 'resign', undefined)).toEqual({ arg: undefined });
    expect(legalOption(d.G, '1', 'resign', null)).toEqual({ arg: undefined });
    expect('error' in legalOption(d.G, '1', 'resign', { pad: PAD })).toBe(true);
  });
});
