/**
 * `npm run stalls -- FILE.cpuprofile [--min MS] [--fn REGEX]...`: where a server's event loop stalled, from
 * a V8 CPU profile (`node --cpu-prof --cpu-prof-interval 500 dist/server/main.js` under `npm run load`).
 *
 * A CPU profile is a list of samples, each a stack, with the time since the previous one. Two readings of
 * it find what holds the event loop (docs/LOAD.md "The tail"):
 * - **runs of a function**: consecutive samples whose stack holds a function matching REGEX (by default
 *   SQLite's commit, the garbage collector, the socket writes and the delivery of a move), the longest
 *   first — one synchronous call that long is a pause every player of the process waits through;
 * - **busy stretches**: consecutive samples that are not `(idle)`, longer than `--min` ms (default 50),
 *   with what they ran most: a backlog of moves after a pause shows as a long stretch of many short ones.
 * Sample times are wall-clock: where the host did not run the process, a stretch is longer than its work
 * (its samples are then further apart than the interval, which the output shows as ms a sample).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Run {
  /** Length, ms. */
  ms: number;
  /** Seconds from the profile's start. */
  at: number;
  samples: number;
}

/** Index of a profile: each node's parent and whether a node's stack matches. */
function indexOf(p: CpuProfile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stack = (id: number) => {
    const out = [];
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) out.push(byId.get(x)!);
    return out;
  };
  return { byId, stack };
}

/** Walks the samples in time order: each one's node id, its start (µs from the profile's start) and length. */
function* timeline(p: CpuProfile): Generator<{ id: number; start: number; dt: number }> {
  let t = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i + 1] ?? 0;
    t += p.timeDeltas[i];
    yield { id: p.samples[i], start: t, dt };
  }
}

/** The runs of consecutive samples whose stack holds a function matching `fn`, longest first. */
export function runsOf(p: CpuProfile, fn: RegExp): Run[] {
  const { stack } = indexOf(p);
  const memo = new Map<number, boolean>();
  const hit = (id: number) => memo.get(id) ?? (memo.set(id, stack(id).some((n) => fn.test(n.callFrame.functionName))), memo.get(id)!);
  const { byId } = indexOf(p);
  const runs: Run[] = [];
  let cur: Run | null = null;
  // A sample or two without the function inside a run (a native frame the sampler could not walk past,
  // `(program)`) does not end it; an `(idle)` sample, or three others in a row, does.
  let gap = { ms: 0, samples: 0 };
  const end = () => {
    if (cur) runs.push(cur);
    cur = null;
    gap = { ms: 0, samples: 0 };
  };
  for (const s of timeline(p)) {
    if (hit(s.id)) {
      cur ??= { ms: 0, at: s.start / 1e6, samples: 0 };
      cur.ms += gap.ms + s.dt / 1000;
      cur.samples += gap.samples + 1;
      gap = { ms: 0, samples: 0 };
    } else if (cur) {
      if (byId.get(s.id)!.callFrame.functionName === '(idle)' || gap.samples === 2) end();
      else gap = { ms: gap.ms + s.dt / 1000, samples: gap.samples + 1 };
    }
  }
  end();
  return runs.sort((a, b) => b.ms - a.ms);
}

export interface Stretch extends Run {
  /** The functions the stretch spent most time in (its own time), share of the stretch. */
  top: { name: string; share: number }[];
}

/** Busy stretches (no `(idle)` sample) of at least `minMs`, longest first. */
export function busyStretches(p: CpuProfile, minMs: number): Stretch[] {
  const { byId } = indexOf(p);
  const out: Stretch[] = [];
  let cur: (Run & { self: Map<string, number> }) | null = null;
  const close = () => {
    if (cur && cur.ms >= minMs) {
      const top = [...cur.self].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, us]) => ({ name, share: Math.round((us / 10 / cur!.ms) * 10) / 10 / 100 }));
      out.push({ ms: cur.ms, at: cur.at, samples: cur.samples, top });
    }
    cur = null;
  };
  for (const s of timeline(p)) {
    const n = byId.get(s.id)!;
    if (n.callFrame.functionName === '(idle)') {
      close();
      continue;
    }
    cur ??= { ms: 0, at: s.start / 1e6, samples: 0, self: new Map() };
    cur.ms += s.dt / 1000;
    cur.samples++;
    const name = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
    cur.self.set(name, (cur.self.get(name) ?? 0) + s.dt);
  }
  close();
  return out.sort((a, b) => b.ms - a.ms);
}

/** What the runs of a function look like: how many, in all, the longest, and how many reach 5, 20 and 50 ms. */
export function summarise(runs: Run[]) {
  const total = runs.reduce((a, r) => a + r.ms, 0);
  return { runs: runs.length, totalMs: Math.round(total), longest: runs.slice(0, 8).map((r) => `${r.ms.toFixed(1)} ms at ${r.at.toFixed(1)} s`), atLeast5: runs.filter((r) => r.ms >= 5).length, atLeast20: runs.filter((r) => r.ms >= 20).length, atLeast50: runs.filter((r) => r.ms >= 50).length };
}

const DEFAULT_FUNCTIONS = ['^sqliteTransaction$', '^\\(garbage collector\\)$', '^writev$', '^deliverUpdate$'];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--') && !/^\d/.test(a) && args[args.indexOf(a) - 1] !== '--fn');
  if (!file) {
    console.error('usage: npm run stalls -- FILE.cpuprofile [--min MS] [--fn REGEX]...');
    process.exit(2);
  }
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const minAt = args.indexOf('--min');
  const min = minAt >= 0 ? Number(args[minAt + 1]) : 50;
  const fns = args.flatMap((a, i) => (a === '--fn' ? [args[i + 1]] : []));
  console.log(`${file}: ${((p.endTime - p.startTime) / 1e6).toFixed(1)} s, ${p.samples.length} samples`);
  for (const f of fns.length ? fns : DEFAULT_FUNCTIONS) console.log(`runs of /${f}/:`, JSON.stringify(summarise(runsOf(p, new RegExp(f)))));
  const long = busyStretches(p, min);
  console.log(`busy stretches of ${min} ms or more: ${long.length}`);
  for (const s of long.slice(0, 10))
    console.log(`  ${s.ms.toFixed(1)} ms at ${s.at.toFixed(1)} s (${(s.ms / s.samples).toFixed(2)} ms a sample): ${s.top.map((t) => `${Math.round(t.share * 100)}% ${t.name}`).join(' | ')}`);
}
