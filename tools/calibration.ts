/**
 * How well the bot's win-chance estimate (Decision.winChance: the chosen move's mean value, from the
 * decider's side) is calibrated: every searched decision of stored games, with its estimate and whether
 * the decider went on to win, binned by the estimate (a reliability table). Used by tools/bench-bots.ts.
 */

export interface Forecast {
  /** The estimate, in [0, 1]. */
  p: number;
  /** Did the decider win the game? */
  won: boolean;
}

const BINS = 10;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Brier score: the mean squared gap between estimate and outcome (0 is perfect; always saying 50% scores 0.25). */
export const brier = (fs: Forecast[]) => fs.reduce((s, f) => s + (f.p - (f.won ? 1 : 0)) ** 2, 0) / Math.max(1, fs.length);

/** Wilson 95% interval of k in n, in percent (as the win tables print it). */
export function wilson(k: number, n: number): string {
  if (n === 0) return '–';
  const z = 1.96, p = k / n, d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d, h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return `${Math.max(0, 100 * (c - h)).toFixed(0)}–${Math.min(100, 100 * (c + h)).toFixed(0)}%`;
}

/** Tenths of the estimate; the last bin holds 100%. */
export function bins(fs: Forecast[]): { lo: number; hi: number; n: number; predicted: number; won: number }[] {
  const out = Array.from({ length: BINS }, (_, i) => ({ lo: i / BINS, hi: (i + 1) / BINS, n: 0, predicted: 0, won: 0 }));
  for (const f of fs) {
    const b = out[Math.min(BINS - 1, Math.max(0, Math.floor(f.p * BINS)))];
    b.n++;
    b.predicted += f.p;
    if (f.won) b.won++;
  }
  return out;
}

/** The reliability table of one bot's forecasts, in Markdown. */
export function reliabilityTable(fs: Forecast[]): string {
  const lines = ['| estimate | decisions | mean estimate | decider won | 95% interval |', '|---|---|---|---|---|'];
  for (const b of bins(fs)) if (b.n > 0) lines.push(`| ${(100 * b.lo).toFixed(0)}–${(100 * b.hi).toFixed(0)}% | ${b.n} | ${pct(b.predicted / b.n)} | ${pct(b.won / b.n)} | ${wilson(b.won, b.n)} |`);
  const won = fs.filter((f) => f.won).length;
  const base = won / Math.max(1, fs.length);
  lines.push('', `${fs.length} decisions; Brier score ${brier(fs).toFixed(3)} (a constant ${pct(base)} — the deciders' overall win rate — would score ${(base * (1 - base)).toFixed(3)}).`);
  return lines.join('\n');
}
