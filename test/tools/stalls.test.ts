/**
 * `npm run stalls` reads where a server's event loop stalled from a real CPU profile: a process that
 * blocks its loop in one synchronous call, then idles, shows that call as the longest run and the only
 * long busy stretch.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { busyStretches, runsOf, summarise, type CpuProfile } from '../../tools/load/stalls';

it('finds a 120 ms synchronous call in a real profile as one run and one busy stretch, and ignores the short ones', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wg-stalls-'));
  try {
    // A process with a timer every 20 ms doing 1 ms of work, and once a 120 ms block in `holdTheLoop`.
    // `perf` is bound once: the global `performance` is an accessor, whose getter would rank as a function
    // of its own in every sample of the block.
    const program = `
      const { performance: perf } = require('node:perf_hooks');
      function spin(ms) { const end = perf.now() + ms; while (perf.now() < end); }
      function holdTheLoop() { spin(120); }
      function shortWork() { spin(1); }
      let n = 0;
      const t = setInterval(() => { shortWork(); if (++n === 10) holdTheLoop(); if (n === 25) clearInterval(t); }, 20);`;
    execFileSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval', '500', '-e', program]);
    const p = JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]), 'utf8')) as CpuProfile;

    // The sampler misses the edges of a call and now and then a frame inside it: the run is most of the
    // 120 ms, and any other piece of it is short.
    const held = runsOf(p, /^holdTheLoop$/);
    expect(held[0].ms).toBeGreaterThan(80);
    expect(held[0].ms).toBeLessThan(400);
    // The 1 ms calls are short runs, far shorter than the block (a busy host may stretch one, or let the
    // sampler miss some: their number is not asserted).
    const short = runsOf(p, /^shortWork$/);
    expect(summarise(short).runs).toBeGreaterThanOrEqual(1);
    expect(short[Math.floor(short.length / 2)].ms).toBeLessThan(held[0].ms / 4);

    // The longest busy stretch is the block, and says what ran in it.
    const long = busyStretches(p, 50);
    // V8's own entries ("(garbage collector)", "(program)") may rank among them on a busy host; of the
    // script's functions, the two that ran most are the block's.
    const ours = long[0].top.map((t) => t.name.split(' ')[0]).filter((n) => !n.startsWith('('));
    expect(ours.slice(0, 2).sort()).toEqual(['now', 'spin']);
    expect(long[0].ms).toBeGreaterThanOrEqual(held[0].ms);
    expect(Math.abs(long[0].at - held[0].at)).toBeLessThan(0.05);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
