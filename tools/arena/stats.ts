/**
 * The arena's arithmetic: which games to play (duplicate deals or fresh ones), and the table made from
 * their records — wins by side, Glicko-2 by side (the `glicko2` package, every game in one rating period,
 * so the order the threads finish in does not matter), and per pair the paired-deal score.
 */
import { Glicko2 } from 'glicko2';

export interface GameTask {
  /** The deal: `newState(seed)`. Both games of a deal pair share it. */
  seed: string;
  /** Index of the deal (paired) or of the game (unpaired) within its pair of bots. */
  deal: number;
  /** The two bots of the pairing, in the order given on the command line. */
  pair: [string, string];
  seats: { '0': string; '1': string };
}

export interface GameRecord extends GameTask {
  winner: '0' | '1' | null;
  winnerBot: string | null;
  reason: string | null;
  moves: number;
  rounds: number;
  ms: number;
}

/**
 * Every pair of bots on `deals` deals. Paired: each deal twice, the seats swapped (duplicate play), the
 * same seeds for every pair. Unpaired: as many games, each on a fresh seed, the seats alternating.
 */
export function plan(bots: string[], deals: number, paired: boolean, base = 'arena'): GameTask[] {
  const tasks: GameTask[] = [];
  bots.forEach((a, i) =>
    bots.slice(i + 1).forEach((b) => {
      for (let d = 0; d < deals; d++) {
        if (paired) {
          tasks.push({ seed: `${base}/${d}`, deal: d, pair: [a, b], seats: { '0': a, '1': b } });
          tasks.push({ seed: `${base}/${d}`, deal: d, pair: [a, b], seats: { '0': b, '1': a } });
        } else
          for (const k of [0, 1]) {
            const g = 2 * d + k;
            tasks.push({ seed: `${base}/${a}/${b}/${g}`, deal: g, pair: [a, b], seats: k ? { '0': b, '1': a } : { '0': a, '1': b } });
          }
      }
    }),
  );
  return tasks;
}

/** Mean and 95% interval (normal approximation) of scores in [0, 1]. */
export function interval(xs: number[]): { mean: number; low: number; high: number; sd: number } {
  const n = xs.length;
  const mean = n ? xs.reduce((a, b) => a + b, 0) / n : NaN;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : NaN;
  const half = (1.96 * sd) / Math.sqrt(n);
  return { mean, low: Math.max(0, mean - half), high: Math.min(1, mean + half), sd };
}

/** A's score in one game: 1 won, 0 lost, ½ no winner. */
const scoreOf = (r: GameRecord, bot: string) => (r.winnerBot === null ? 0.5 : r.winnerBot === bot ? 1 : 0);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function table(bots: string[], records: GameRecord[], paired: boolean): string {
  const out: string[] = [];
  // Wins by side.
  out.push('| bot | games | wins | as Editor | as Nixon |', '|---|---:|---:|---:|---:|');
  for (const b of bots) {
    const mine = records.filter((r) => r.seats['0'] === b || r.seats['1'] === b);
    const side = (s: '0' | '1') => {
      const g = mine.filter((r) => r.seats[s] === b);
      return `${g.filter((r) => r.winner === s).length}/${g.length}`;
    };
    out.push(`| ${b} | ${mine.length} | ${mine.filter((r) => r.winnerBot === b).length} | ${side('0')} | ${side('1')} |`);
  }
  // Glicko-2 by side: each bot has an Editor rating and a Nixon rating; a game rates the one against the other.
  const glicko = new Glicko2({ tau: 0.5, rating: 1500, rd: 350, vol: 0.06 });
  const players = new Map(bots.flatMap((b) => (['0', '1'] as const).map((s) => [`${b}/${s}`, glicko.makePlayer()] as const)));
  glicko.updateRatings(records.filter((r) => r.winner !== null).map((r) => [players.get(`${r.seats['0']}/0`)!, players.get(`${r.seats['1']}/1`)!, r.winner === '0' ? 1 : 0]));
  out.push('', '| bot | Glicko-2 as Editor (± deviation) | Glicko-2 as Nixon (± deviation) |', '|---|---:|---:|');
  const rating = (b: string, s: '0' | '1') => {
    const p = players.get(`${b}/${s}`)!;
    return `${Math.round(p.getRating())} ± ${Math.round(p.getRd())}`;
  };
  for (const b of bots) out.push(`| ${b} | ${rating(b, '0')} | ${rating(b, '1')} |`);
  // Per pair: the score per game, and with duplicate deals the score per deal pair (1, ½, 0).
  out.push('', `| pair | games | first bot's score per game (95%) |${paired ? " deal pairs | first bot's paired-deal score (95%) | won both / split / lost both |" : ''}`, `|---|---:|---:|${paired ? '---:|---:|---:|' : ''}`);
  for (const [i, a] of bots.entries())
    for (const b of bots.slice(i + 1)) {
      const games = records.filter((r) => r.pair[0] === a && r.pair[1] === b);
      const g = interval(games.map((r) => scoreOf(r, a)));
      let row = `| ${a} vs ${b} | ${games.length} | ${pct(g.mean)} (${pct(g.low)}–${pct(g.high)}) |`;
      if (paired) {
        const byDeal = new Map<number, number[]>();
        for (const r of games) byDeal.set(r.deal, [...(byDeal.get(r.deal) ?? []), scoreOf(r, a)]);
        const scores = [...byDeal.values()].filter((s) => s.length === 2).map((s) => (s[0] + s[1]) / 2);
        const p = interval(scores);
        row += ` ${scores.length} | ${pct(p.mean)} (${pct(p.low)}–${pct(p.high)}) | ${scores.filter((x) => x === 1).length} / ${scores.filter((x) => x === 0.5).length} / ${scores.filter((x) => x === 0).length} |`;
      }
      out.push(row);
    }
  return out.join('\n');
}
