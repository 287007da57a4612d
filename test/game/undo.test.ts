/**
 * Take-backs (game/undo.ts), judged by the engine from its own information state: every kind of
 * decision classified, and tried on real decisions of seeded games through the server's transition
 * (game/advance.ts); then a property over seeded random games — a take-back the engine allows never
 * gives the taker a view other than the one they had before the decision, with the PRNG as it was, and
 * the decision taken back showed the taker nothing: made in any other world the taker could not tell
 * from the real one, it leaves the taker's view exactly as it did.
 */
import { isDeepStrictEqual } from 'node:util';
import type { State } from 'boardgame.io';
import { describe, expect, it } from 'vitest';
import { samplerFor } from '../../bots/determinize';
import { botRng } from '../../bots/index';
import { DECISIONS } from '../../game/decisions';
import { advance, hide, legalOption, Watergate, type MoveAction, type PlayerID, type Prompt, type WatergateState } from '../../game/index';
import { restoredAs, sealedBy, TAKE_BACK_KINDS, undoPlan, type Decider, type Line } from '../../game/undo';
import { advanceDriver, initialState, randomChooser } from '../../tools/playout';

type S = State<WatergateState>;
interface Played {
  before: S;
  after: S;
  by: Decider;
  kind: Prompt['kind'];
}

const other = (p: PlayerID): PlayerID => (p === '0' ? '1' : '0');
const actionOf = (by: Decider): MoveAction => ({ type: 'MAKE_MOVE', payload: { type: by.move, args: [by.arg], playerID: by.playerID } });
const random = (s: S) => JSON.stringify(s.plugins.random.data);

/** Every decision of one seeded random game, as the server makes it (the engine's own option, then advance). */
function* decisions(seed: number): Generator<Played> {
  const rng = botRng(seed);
  const choose = randomChooser(rng);
  const driver = advanceDriver();
  let s = initialState(Watergate, `undo-${seed}`);
  for (let n = 0; n < 600; n++) {
    const p = driver.decider(s);
    if (p === null) return;
    const m = choose(driver.moves(s, p), p);
    const legal = legalOption(s.G, p, m.move, m.args[0]);
    if ('error' in legal) throw new Error(legal.error);
    const by: Decider = { playerID: p, move: m.move, arg: legal.arg, auto: false };
    const after = advance(s, actionOf(by)).state;
    yield { before: s, after, by, kind: s.G.prompt!.kind };
    s = after;
  }
}

/** The first decision of seeded random games that `pred` accepts. */
function find(pred: (d: Played) => boolean, games = 300): Played {
  for (let seed = 0; seed < games; seed++) for (const d of decisions(seed)) if (pred(d)) return d;
  throw new Error('no such decision in the seeded games');
}

/** The line made of one decision: the position before it, then after it. */
const lineOf = (d: Played): Line => ({ origin: false, steps: [{ state: d.before, by: null }, { state: d.after, by: d.by }] });
const arg = <T>(d: Played) => d.by.arg as T;
const nothingSealed = (d: Played) => sealedBy(d.before, d.after, d.by.playerID) === null;

describe('which decisions may be taken back, kind by kind', () => {
  it('every kind of decision the game can wait for is classified', () => {
    expect(Object.keys(TAKE_BACK_KINDS).sort()).toEqual(Object.keys(DECISIONS).sort());
  });

  it('play: a value play that draws nothing is taken back to the position before it', () => {
    const d = find((x) => x.kind === 'play' && arg<{ as: string; target?: { kind: string } }>(x).as === 'value' && arg<{ target: { kind: string } }>(x).target.kind !== 'ask' && nothingSealed(x));
    expect(undoPlan(lineOf(d), d.by.playerID, null)).toEqual({ to: 0 });
  });

  it('play: an ask is never taken back, even answered "none" with no id shown (the Editor learned about the face-down tokens)', () => {
    const d = find((x) => x.kind === 'play' && arg<{ target?: { kind: string } }>(x).target?.kind === 'ask' && nothingSealed(x) && x.after.G.log.some((l) => l.key === 'ask.none'));
    expect(TAKE_BACK_KINDS.play(d.by.arg)).toBe('ask');
    expect(undoPlan(lineOf(d), '0', null)).toEqual({ why: 'ask' });
  });

  it('play: a card whose action draws (Howard Hunt) is not taken back; the drawn card\'s own play (playDrawn) is', () => {
    const d = find((x) => x.kind === 'playDrawn' && nothingSealed(x));
    expect(TAKE_BACK_KINDS.playDrawn(d.by.arg)).toBe(null);
    expect(undoPlan(lineOf(d), d.by.playerID, null)).toEqual({ to: 0 });
    const draw = find((x) => x.after.G.prompt?.kind === 'playDrawn' && x.by.playerID === x.after.G.prompt.player);
    expect(sealedBy(draw.before, draw.after, draw.by.playerID)).toBe('revealed');
    expect(undoPlan(lineOf(draw), draw.by.playerID, null)).toEqual({ why: 'hidden' });
  });

  it('answer: Nixon knew the face-down token, so the answer may be taken back although it shows the Editor the token', () => {
    const d = find((x) => x.kind === 'answer' && nothingSealed(x));
    expect(sealedBy(d.before, d.after, '0')).toBe('revealed');
    expect(undoPlan(lineOf(d), '1', null)).toEqual({ to: 0 });
  });

  it('target: placing the value after an ask answered "none" may be taken back (the ask itself may not)', () => {
    const d = find((x) => x.kind === 'target' && nothingSealed(x));
    expect(undoPlan(lineOf(d), '0', null)).toEqual({ to: 0 });
  });

  it('react: a pass or a reaction that draws nothing may be taken back', () => {
    const pass = find((x) => x.kind === 'react' && x.by.arg === null && nothingSealed(x));
    expect(undoPlan(lineOf(pass), pass.by.playerID, null)).toEqual({ to: 0 });
    const card = find((x) => x.kind === 'react' && x.by.arg !== null && nothingSealed(x));
    expect(undoPlan(lineOf(card), card.by.playerID, null)).toEqual({ to: 0 });
  });

  it('choose: the Editor moving a face-down token blind turns it up, so that choice is not taken back; a choice that shows nothing is', () => {
    const blind = find((x) => x.kind === 'choose' && x.by.playerID === '0' && JSON.stringify(x.by.arg).includes('"hidden"') && (x.before.G.prompt as { step: { op: string } }).step.op === 'MOVE_EVIDENCE');
    expect(sealedBy(blind.before, blind.after, '0')).toBe('revealed');
    expect(undoPlan(lineOf(blind), '0', null)).toEqual({ why: 'hidden' });
    const open = find((x) => x.kind === 'choose' && nothingSealed(x));
    expect(undoPlan(lineOf(open), open.by.playerID, null)).toEqual({ to: 0 });
  });

  it('choose: the tokens kept from a private draw may be taken back (the draw came before); the card that drew them may not', () => {
    const keep = find((x) => x.kind === 'choose' && (x.before.G.prompt as { step: { op: string } }).step.op === 'PIN_FROM_BAG' && nothingSealed(x));
    expect(undoPlan(lineOf(keep), keep.by.playerID, null)).toEqual({ to: 0 });
    const draw = find((x) => x.after.G.peek !== null && x.before.G.peek === null);
    expect(sealedBy(draw.before, draw.after, draw.after.G.peek!.player)).toBe('shuffled');
  });

  it('pin: pinning a gained token may be taken back', () => {
    const d = find((x) => x.kind === 'pin' && nothingSealed(x));
    expect(undoPlan(lineOf(d), d.by.playerID, null)).toEqual({ to: 0 });
  });

  it('any decision after which a new round deals the cards is not taken back (the taker saw new cards)', () => {
    const d = find((x) => x.after.G.round > x.before.G.round && x.before.G.round > 0);
    expect(undoPlan(lineOf(d), d.by.playerID, null)).toEqual({ why: 'hidden' });
  });
});

describe('the line of play', () => {
  const two = () => {
    for (let seed = 0; seed < 50; seed++) {
      const ds = [...decisions(seed)];
      for (let i = 0; i + 1 < ds.length; i++) if (ds[i].by.playerID !== ds[i + 1].by.playerID && nothingSealed(ds[i]) && nothingSealed(ds[i + 1]) && ds[i].kind === 'play' && ds[i + 1].kind === 'play') return [ds[i], ds[i + 1]] as const;
    }
    throw new Error('no two plays in a row');
  };
  const [mine, theirs] = two();
  const line: Line = { origin: true, steps: [{ state: mine.before, by: null }, { state: mine.after, by: mine.by }, { state: theirs.after, by: theirs.by }] };

  it('the opponent decided since: refused; against the computer, its reply goes with the taker\'s decision', () => {
    expect(undoPlan(line, mine.by.playerID, null)).toEqual({ why: 'opponent' });
    expect(undoPlan(line, mine.by.playerID, theirs.by.playerID)).toEqual({ to: 0 });
    // The opponent may take back their own play, which is the latest.
    expect(undoPlan(line, theirs.by.playerID, null)).toEqual({ to: 1 });
  });

  it('a decision the server made for the seat (a stand-in) is not the player\'s to take back', () => {
    const auto: Line = { origin: true, steps: [line.steps[0], { ...line.steps[1], by: { ...mine.by, auto: true } }] };
    expect(undoPlan(auto, mine.by.playerID, null)).toEqual({ why: 'auto' });
  });

  it('nothing of the taker\'s before the start: "none" from the game\'s first position, "unknown" where the history held begins', () => {
    expect(undoPlan({ origin: true, steps: [line.steps[0]] }, '0', null)).toEqual({ why: 'none' });
    expect(undoPlan({ origin: false, steps: [line.steps[0]] }, '0', null)).toEqual({ why: 'unknown' });
  });

  it('a computer reply that drew is never taken back (nobody re-rolls chance)', () => {
    const draw = find((x) => x.after.G.round > x.before.G.round && x.before.G.round > 0);
    const taker = other(draw.by.playerID);
    const l: Line = { origin: true, steps: [{ state: draw.before, by: null }, { state: draw.before, by: { playerID: taker, move: 'play', arg: null, auto: false } }, { state: draw.after, by: draw.by }] };
    expect(undoPlan(l, taker, draw.by.playerID)).toEqual({ why: 'chance' });
  });
});

describe('property: over seeded random games, no take-back the engine allows lets the taker learn anything', () => {
  const GAMES = Number(process.env.UNDO_GAMES ?? 12);

  it(`${GAMES} games: views and PRNG restored, and the decisions taken back show the taker the same in every world they cannot tell apart`, { timeout: 240_000 }, () => {
    let allowed = 0;
    let worlds = 0;
    let takenBack = 0;
    let askDiffers = 0;
    for (let seed = 0; seed < GAMES; seed++) {
      const rng = botRng(1000 + seed);
      const choose = randomChooser(rng);
      const driver = advanceDriver();
      let s = initialState(Watergate, `undo-property-${seed}`);
      const line: Line = { origin: true, steps: [{ state: s, by: null }] };
      for (let n = 0; n < 500 && driver.decider(s) !== null; n++) {
        const head = line.steps.length - 1;
        let doUndo: { taker: PlayerID; to: number } | null = null;
        for (const taker of ['0', '1'] as const)
          for (const computer of [null, other(taker)]) {
            const plan = undoPlan(line, taker, computer);
            if (!('to' in plan)) {
              if (plan.why === 'ask' && computer === null) askDiffers += worldsDiffer(line.steps[head - 1].state, line.steps[head].state, line.steps[head].by, taker, rng) ? 1 : 0;
              continue;
            }
            allowed++;
            const undone = line.steps.slice(plan.to + 1);
            // (a) only the taker's one decision, then the computer's replies; the taker's comes first.
            expect(undone[0].by!.playerID).toBe(taker);
            expect(undone[0].by!.auto).toBe(false);
            for (const u of undone.slice(1)) expect(u.by!.playerID).toBe(computer);
            // The taker's view after the take-back is the one before the decision; the PRNG is the earlier one,
            // and nothing on the way drew from it.
            const target = line.steps[plan.to].state;
            const back = restoredAs(target, s._stateID + 1);
            expect(hide(back.G, taker)).toEqual(hide(target.G, taker));
            expect(random(back)).toBe(random(target));
            expect(random(s)).toBe(random(target));
            expect(back._stateID).toBeGreaterThan(s._stateID);
            // (b) the decision showed nothing: in other worlds the taker could not tell from this one, the
            // same decision leaves the taker's view as it left it here.
            const before = line.steps[plan.to].state;
            const after = line.steps[plan.to + 1].state;
            for (let w = 0; w < 2; w++, worlds++) expect(viewInWorld(before, undone[0].by!, taker, rng)).toEqual(hide(after.G, taker));
            if (computer === null && rng.next() < 0.2) doUndo = { taker, to: plan.to };
          }
        if (doUndo) {
          // Take it back for real and play on from the earlier position (later take-backs then walk a line
          // that has one in it).
          const target = line.steps[doUndo.to];
          s = restoredAs(target.state, s._stateID + 1);
          line.steps.splice(doUndo.to);
          line.steps.push({ state: s, by: target.by });
          takenBack++;
          continue;
        }
        const p = driver.decider(s)!;
        const m = choose(driver.moves(s, p), p);
        const legal = legalOption(s.G, p, m.move, m.args[0]);
        if ('error' in legal) throw new Error(legal.error);
        const by: Decider = { playerID: p, move: m.move, arg: legal.arg, auto: false };
        s = advance(s, actionOf(by)).state;
        line.steps.push({ state: s, by });
      }
    }
    expect(allowed).toBeGreaterThan(500);
    expect(worlds).toBeGreaterThan(1000);
    expect(takenBack).toBeGreaterThan(20);
    // The check has teeth: the asks the engine refuses do show the Editor different things in different worlds.
    expect(askDiffers).toBeGreaterThan(0);
  });
});

/** The taker's view after `by`'s decision made in a world sampled from the taker's view of `before`. */
function viewInWorld(before: S, by: Decider, taker: PlayerID, rng: ReturnType<typeof botRng>) {
  const world = { ...before, G: samplerFor(hide(before.G, taker)).sample(rng) };
  const legal = legalOption(world.G, by.playerID, by.move, by.arg);
  if ('error' in legal) throw new Error(`the taker's decision is not legal in a world they cannot tell apart: ${legal.error}`);
  return hide(advance(world, actionOf(by)).state.G, taker);
}

/** Whether `by`'s decision shows the taker something different in some of a few sampled worlds. */
function worldsDiffer(before: S, after: S, by: Decider | null, taker: PlayerID, rng: ReturnType<typeof botRng>): boolean {
  if (!by || by.playerID !== taker) return false;
  const seen = hide(after.G, taker);
  for (let w = 0; w < 6; w++) {
    const world = { ...before, G: samplerFor(hide(before.G, taker)).sample(rng) };
    if (!isDeepStrictEqual(hide(advance(world, actionOf(by)).state.G, taker), seen)) return true;
  }
  return false;
}
