/**
 * What the server says about itself over a load's window, from its /metrics (Prometheus' text format,
 * server/metrics.ts): read before the load, when every match is in play, and when the window ends. /metrics
 * answers this machine without METRICS_TOKEN; with METRICS_TOKEN in the environment it is sent as the
 * bearer token. A server without /metrics (stock boardgame.io) gives null and the reason.
 *
 * The event loop's delay and the longest GC pause are the server's figures since its previous scrape
 * (prom-client resets them when read), so the read at the window's start opens the window: a Prometheus
 * scraping the same server meanwhile shortens it.
 */

/** One scrape: each sample by its name and sorted labels, e.g. `wg_move_phase_seconds_bucket{le="0.001",phase="queue"}`. */
export type Scrape = Map<string, number>;

export async function scrape(url: string): Promise<Scrape | string> {
  try {
    const token = process.env.METRICS_TOKEN;
    const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(30_000) });
    if (res.status !== 200) return `/metrics answered HTTP ${res.status}`;
    return parse(await res.text());
  } catch (e) {
    return `/metrics could not be read: ${(e as Error).message}`;
  }
}

export function parse(text: string): Scrape {
  const out: Scrape = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m) continue;
    const labels = [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => `${l[1]}="${l[2]}"`).sort();
    out.set(labels.length ? `${m[1]}{${labels.join(',')}}` : m[1], Number(m[3]));
  }
  return out;
}

const key = (name: string, labels: Record<string, string>) => {
  const l = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).sort();
  return l.length ? `${name}{${l.join(',')}}` : name;
};

export interface Quantiles {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/**
 * A histogram's p50/p95/p99 in ms over what was observed between two scrapes, estimated from its
 * buckets as Prometheus' histogram_quantile does (linear within a bucket; beyond the last finite
 * bound, that bound).
 */
export function histogramDelta(a: Scrape, b: Scrape, name: string, labels: Record<string, string> = {}): Quantiles {
  const buckets: { le: number; n: number }[] = [];
  for (const k of b.keys()) {
    if (!k.startsWith(`${name}_bucket{`)) continue;
    const le = /le="([^"]+)"/.exec(k)![1];
    if (k !== key(`${name}_bucket`, { ...labels, le })) continue;
    buckets.push({ le: le === '+Inf' ? Infinity : Number(le), n: b.get(k)! - (a.get(k) ?? 0) });
  }
  buckets.sort((x, y) => x.le - y.le);
  const count = buckets.at(-1)?.n ?? 0;
  const q = (p: number) => {
    if (count === 0) return null;
    const rank = p * count;
    let lower = 0;
    let below = 0;
    for (const { le, n } of buckets) {
      if (n >= rank) {
        if (le === Infinity) return round(lower * 1000);
        return round((lower + (le - lower) * ((rank - below) / Math.max(1, n - below))) * 1000);
      }
      lower = le;
      below = n;
    }
    return null;
  };
  return { count, p50: q(0.5), p95: q(0.95), p99: q(0.99) };
}

const round = (x: number) => Math.round(x * 100) / 100;

/** The phases of a move as server/metrics.ts times them, and the whole of it. */
export const PHASES = ['queue', 'engine', 'commit', 'delivery'] as const;

export interface ServerFigures {
  /** Per phase, and `move` (received → delivered, wg_move_duration_seconds, coarser buckets): ms. */
  phases: Record<(typeof PHASES)[number] | 'move', Quantiles>;
  /** The event loop's delay over the window (monitorEventLoopDelay), ms. */
  eventLoop: { p99: number; max: number };
  /** GC pauses over the window: how many, their total and the longest, ms. */
  gc: { pauses: number; totalMs: number; maxMs: number };
  /** With every match in play, against before the load: MB, and KB per match opened meanwhile. */
  memory: { openMatches: number; rssMB: number; heapMB: number; rssPerMatchKB: number | null; heapPerMatchKB: number | null };
  /** The server process's CPU over the window, seconds (its checkpointing and bot threads included). */
  cpuSeconds: number;
}

/** The figures of a window (`start` → `end`), memory against `before` (read before any match of the load). */
export function serverFigures(before: Scrape, start: Scrape, end: Scrape): ServerFigures {
  const phases = Object.fromEntries(PHASES.map((p) => [p, histogramDelta(start, end, 'wg_move_phase_seconds', { phase: p })])) as ServerFigures['phases'];
  phases.move = histogramDelta(start, end, 'wg_move_duration_seconds');
  const sumKinds = (s: Scrape, suffix: string) => [...s].filter(([k]) => k.startsWith(`wg_nodejs_gc_duration_seconds_${suffix}`)).reduce((t, [, v]) => t + v, 0);
  const ms = (s: number | undefined) => round((s ?? 0) * 1000);
  const matches = (end.get('wg_active_matches') ?? 0) - (before.get('wg_active_matches') ?? 0);
  const per = (name: string) => (matches > 0 ? Math.round(((end.get(name) ?? 0) - (before.get(name) ?? 0)) / 1024 / matches) : null);
  return {
    phases,
    eventLoop: { p99: ms(end.get('wg_nodejs_eventloop_lag_p99_seconds')), max: ms(end.get('wg_nodejs_eventloop_lag_max_seconds')) },
    gc: { pauses: sumKinds(end, 'count') - sumKinds(start, 'count'), totalMs: ms(sumKinds(end, 'sum') - sumKinds(start, 'sum')), maxMs: ms(end.get('wg_gc_pause_max_seconds')) },
    memory: {
      openMatches: end.get('wg_active_matches') ?? 0,
      rssMB: Math.round((end.get('wg_process_resident_memory_bytes') ?? 0) / 2 ** 20),
      heapMB: Math.round((end.get('wg_nodejs_heap_size_used_bytes') ?? 0) / 2 ** 20),
      rssPerMatchKB: per('wg_process_resident_memory_bytes'),
      heapPerMatchKB: per('wg_nodejs_heap_size_used_bytes'),
    },
    cpuSeconds: round((end.get('wg_process_cpu_seconds_total') ?? 0) - (start.get('wg_process_cpu_seconds_total') ?? 0)),
  };
}
