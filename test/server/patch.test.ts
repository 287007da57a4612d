/**
 * The patches the server sends instead of whole views: applied as boardgame.io's client applies them
 * (rfc6902 on a JSON copy of the view it holds, or our own applier that the browser build uses in its
 * place), they give exactly the next view, for both seats and a spectator, at every move of seeded games
 * through boardgame.io's reducer — and they are small.
 */
import { describe, expect, it } from 'vitest';
import { applyPatch, type Operation } from 'rfc6902';
import type { State } from 'boardgame.io';
import { getFilterPlayerView, ProcessGameConfig } from 'boardgame.io/internal';
import { Watergate } from '../../game/index';
import { initialState, playToEnd, randomChooser, reducerDriver } from '../../tools/playout';
import { applyPatch as ourApply, createPatch as jsonPatch } from '../../protocol/json-patch';
import { seeded } from '../helpers/rng';

const filter = getFilterPlayerView(ProcessGameConfig(Watergate as never));
const view = (seat: string | null, s: State) => (filter(seat, { type: 'update', args: ['m', s] } as never) as unknown as { args: [string, State] }).args[1];
const json = <T>(x: T): T => JSON.parse(JSON.stringify(x));

describe('view patches', () => {
  it('turn each seat\'s view of a state into its view of the next one, at every move of 6 seeded games', () => {
    let patchBytes = 0;
    let viewBytes = 0;
    let whole = 0;
    for (let g = 0; g < 6; g++) {
      const rng = seeded(900 + g);
      const start = initialState(Watergate as never, `patch-${g}`);
      const held = { '0': json(view('0', start)), '1': json(view('1', start)), spectator: json(view(null, start)) };
      let state = start;
      playToEnd(reducerDriver(Watergate as never), start, randomChooser(rng), {}, (next) => {
        expect(next._stateID).toBe(state._stateID + 1);
        for (const seat of ['0', '1', null] as const) {
          const key = seat ?? 'spectator';
          const after = view(seat, next);
          const ops = jsonPatch(view(seat, state), after, 64);
          if (ops === null) {
            whole++;
            held[key] = json(after);
            continue;
          }
          const copy = json(held[key]);
          expect(applyPatch(copy, json(ops) as Operation[]).every((e) => e === null)).toBe(true);
          expect(copy).toEqual(json(after));
          // The browser's own applier (protocol/json-patch.ts, in place of rfc6902) gives the same view.
          const mine = json(held[key]);
          expect(ourApply(mine, json(ops)).every((e) => e === null)).toBe(true);
          expect(mine).toEqual(copy);
          held[key] = copy;
          patchBytes += JSON.stringify(ops).length;
          viewBytes += JSON.stringify(after).length;
        }
        state = next;
      });
    }
    // Mostly patches, and far smaller than the views they replace.
    expect(whole).toBeLessThan(20);
    expect(patchBytes * 10).toBeLessThan(viewBytes);
  });

  it('handles removed and added keys, shrinking arrays, escaped keys and undefined values; gives up beyond its limit', () => {
    const a = { x: 1, gone: 2, list: [1, 2, 3], 'a/b~c': { v: 1 }, u: undefined, same: { deep: [1] } };
    const b = { x: 2, list: [1, 9], 'a/b~c': { v: 2 }, added: { y: [1] }, u2: undefined, same: a.same };
    const ops = jsonPatch(a, b)!;
    const copy = json(a);
    expect(applyPatch(copy, ops as Operation[]).every((e) => e === null)).toBe(true);
    expect(copy).toEqual(json(b));
    const mine = json(a);
    expect(ourApply(mine, ops).every((e) => e === null)).toBe(true);
    expect(mine).toEqual(json(b));
    expect(ops.some((o) => o.path.startsWith('/same'))).toBe(false);
    expect(jsonPatch({ list: [] }, { list: Array.from({ length: 100 }, (_, i) => i) }, 64)).toBeNull();
    // What the browser's applier refuses, it says (boardgame.io then asks for a full sync).
    const doc = { a: [1] };
    const errors = ourApply(doc, [{ op: 'replace', path: '/b', value: 1 }, { op: 'move', path: '/a/0' }, { op: 'add', path: '/a/5', value: 2 }, { op: 'add', path: '/a/-', value: 3 }]);
    expect(errors.map((e) => e === null)).toEqual([false, false, false, true]);
    expect(doc).toEqual({ a: [1, 3] });
  });
});
