/**
 * The Swiss pairing (server/events/pairing.ts) over 64 seeded random events, and its scoring and
 * tie-breaks on small hand-checked cases.
 */
import { describe, expect, it } from 'vitest';
import { botRng } from '../../bots/index';
import { hasPerfectMatching, maxMatching } from '../../server/events/matching';
import { gamePoints, pairPoints, pairRound, standings, type Player, type Round } from '../../server/events/pairing';

interface Event {
  players: Player[];
  rounds: Round[];
  paired: boolean;
  planned: number;
}

/** A seeded event played to its end with random results; `check` sees each round as it is paired. */
function randomEvent(seed: number, check: (e: Event, r: Round) => void): Event {
  const r0 = botRng(seed);
  const rng = () => r0.next();
  const planned = 3 + Math.floor(rng() * 5); // 3–7 rounds
  // From twice the rounds and one (docs/EVENTS.md: fewer players may run out of opponents) to 40, odd and even.
  const n = Math.max(2 * planned + 1, 4 + Math.floor(rng() * 37));
  const paired = rng() < 0.3;
  const players = Array.from({ length: n }, (_, i) => ({ id: `p${i}`, rating: Math.round(1200 + rng() * 800) }));
  const e: Event = { players, rounds: [], paired, planned };
  for (let k = 0; k < planned; k++) {
    const r = pairRound(players, e.rounds, players.map((p) => p.id), paired);
    expect(r, `seed ${seed}: ${n} players, round ${k + 1} of ${planned}`).not.toBeNull();
    check(e, r!);
    for (const b of r!.boards) {
      const x = rng();
      if (paired) {
        const wins = Math.floor(x * 3); // 0, 1 or 2 games won by the first Editor
        b.points = pairPoints(wins, 2 - wins);
      } else b.points = gamePoints(x < 0.02 ? null : x < 0.5 ? 'editor' : 'nixon');
    }
    e.rounds.push(r!);
  }
  return e;
}

describe('Swiss pairing: 64 seeded random events', () => {
  it('sides balanced, no repeated opponent, one bye per round exactly when odd, no second bye where avoidable', () => {
    const sizes = new Set<number>();
    let secondByes = 0;
    for (let seed = 1; seed <= 64; seed++) {
      randomEvent(seed, (e, r) => {
        const ids = e.players.map((p) => p.id);
        sizes.add(ids.length);
        const seen = [...r.boards.flatMap((b) => [b.editor, b.nixon]), ...(r.bye ? [r.bye] : [])];
        expect([...seen].sort()).toEqual([...ids].sort()); // everyone exactly once
        expect(r.bye !== null).toBe(ids.length % 2 === 1);
        const before = standings(e.players, e.rounds, e.paired);
        const met = new Map(before.map((s) => [s.id, s.opponents]));
        for (const b of r.boards) expect(met.get(b.editor), `seed ${seed}: ${b.editor} meets ${b.nixon} again`).not.toContain(b.nixon);
        if (r.bye && before.find((s) => s.id === r.bye)!.byes > 0) {
          secondByes++;
          // Avoidable would mean: some player without a bye could sit out while the rest are paired.
          for (const s of before.filter((x) => x.byes === 0))
            expect(pairRound(e.players, e.rounds, ids.filter((id) => id !== s.id), e.paired), `seed ${seed}: ${s.id} could have had the bye`).toBeNull();
        }
        const after = standings(e.players, [...e.rounds, r], e.paired);
        for (const s of after) expect(Math.abs(s.sides.editor - s.sides.nixon), `seed ${seed}: ${s.id} ${JSON.stringify(s.sides)}`).toBeLessThanOrEqual(1);
      });
    }
    expect([...sizes].some((n) => n % 2 === 1) && [...sizes].some((n) => n % 2 === 0)).toBe(true);
    expect(secondByes).toBe(0);
  });

  it('pairs by score first: after round 1 the winners meet winners where sides allow', () => {
    const players = Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, rating: 2000 - i * 100 }));
    const r1 = pairRound(players, [], players.map((p) => p.id), false)!;
    // Dutch: 1–5, 2–6, 3–7, 4–8, the top seed the Editor on board 1, Nixon on board 2, …
    expect(r1.boards).toEqual([
      { editor: 'p0', nixon: 'p4' },
      { editor: 'p5', nixon: 'p1' },
      { editor: 'p2', nixon: 'p6' },
      { editor: 'p7', nixon: 'p3' },
    ]);
    for (const b of r1.boards) b.points = gamePoints('editor');
    const r2 = pairRound(players, [r1], players.map((p) => p.id), false)!;
    const winners = new Set(['p0', 'p5', 'p2', 'p7']);
    // Every winner played the Editor: two winners cannot meet (both would owe Nixon), so winners meet losers.
    for (const b of r2.boards) expect(winners.has(b.nixon) && !winners.has(b.editor)).toBe(true);
  });

  it('a 4-player event has no fourth round: everyone met everyone', () => {
    const players = Array.from({ length: 4 }, (_, i) => ({ id: `p${i}`, rating: 1500 }));
    const rounds: Round[] = [];
    for (let k = 0; k < 3; k++) {
      const r = pairRound(players, rounds, players.map((p) => p.id), true)!;
      for (const b of r.boards) b.points = [1, 0];
      rounds.push(r);
    }
    expect(pairRound(players, rounds, players.map((p) => p.id), true)).toBeNull();
  });

  it('scores, paired deals and tie-breaks', () => {
    expect(pairPoints(2, 0)).toEqual([1, 0]);
    expect(pairPoints(1, 1)).toEqual([0.5, 0.5]);
    expect(pairPoints(0, 1)).toEqual([0, 1]);
    expect(pairPoints(0, 0)).toEqual([0, 0]);
    const players = ['a', 'b', 'c'].map((id) => ({ id, rating: 1500 }));
    const rounds: Round[] = [
      { boards: [{ editor: 'a', nixon: 'b', points: [1, 0] }], bye: 'c' },
      { boards: [{ editor: 'c', nixon: 'a', points: [0.5, 0.5] }], bye: 'b' },
    ];
    const s = standings(players, rounds, true);
    const by = Object.fromEntries(s.map((x) => [x.id, x]));
    expect(by.a.score).toBe(1.5);
    expect(by.b.score).toBe(1);
    expect(by.c.score).toBe(1.5);
    // Buchholz: a met b (1) and c (1.5); c met a (1.5). SB: a 1×1 + ½×1.5; c ½×1.5.
    expect(by.a.buchholz).toBe(2.5);
    expect(by.c.buchholz).toBe(1.5);
    expect(by.a.sonnebornBerger).toBe(1.75);
    expect(by.c.sonnebornBerger).toBe(0.75);
    expect(s.map((x) => x.id)).toEqual(['a', 'c', 'b']);
    expect(by.a.sides).toEqual({ editor: 2, nixon: 2 });
  });

  it('a 128-player, 7-round pairing takes little time', () => {
    const t = performance.now();
    const players = Array.from({ length: 128 }, (_, i) => ({ id: `p${i}`, rating: 1000 + ((i * 37) % 1000) }));
    const r7 = botRng(7);
    const rng = () => r7.next();
    const rounds: Round[] = [];
    for (let k = 0; k < 7; k++) {
      const r = pairRound(players, rounds, players.map((p) => p.id), false)!;
      expect(r).not.toBeNull();
      for (const b of r.boards) b.points = gamePoints(rng() < 0.5 ? 'editor' : 'nixon');
      rounds.push(r);
    }
    expect(performance.now() - t).toBeLessThan(10_000);
  });
});

describe('maximum matching (Edmonds)', () => {
  /** The largest matching by trying every pairing: small graphs only. */
  const brute = (n: number, ok: boolean[][], left = [...Array(n).keys()]): number => {
    if (left.length < 2) return 0;
    const [a, ...rest] = left;
    let best = brute(n, ok, rest); // a unmatched
    for (const b of rest) if (ok[a][b]) best = Math.max(best, 1 + brute(n, ok, rest.filter((x) => x !== b)));
    return best;
  };
  it('agrees with an exhaustive search on 300 seeded random graphs (odd cycles included)', () => {
    const r = botRng(99);
    for (let t = 0; t < 300; t++) {
      const n = 2 + r.int(9);
      const density = r.next();
      const ok = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
      for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (r.next() < density) ok[a][b] = ok[b][a] = true;
      const adj = ok.map((row) => row.flatMap((x, j) => (x ? [j] : [])));
      expect(maxMatching(n, adj)).toBe(brute(n, ok));
      expect(hasPerfectMatching([...Array(n).keys()], ok)).toBe(brute(n, ok) * 2 === n);
    }
  });
});
