/**
 * `tsx tools/cpu-share.ts -- <command> [args…]`
 *
 * Runs a command and says where the machine's CPU went while it ran: CPU seconds by kind of process
 * (the test workers, Chromium, the servers the tests start, PostgreSQL…), read from /proc every half
 * second, and the wall time. `time` alone misses what it does not wait for (Chromium's helpers, services),
 * and "the files' own times added up" says how long tests took, not what they cost: on a machine whose
 * cores are all busy, only less CPU makes a suite faster (docs/BENCHMARKS.md, "Test suite"). Linux only.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const KINDS: [string, RegExp][] = [
  ['Chromium', /chrom/],
  ['servers started by the tests', /server\/main\.ts|watergate-server\//],
  ['vitest workers', /vitest\/dist\/workers/],
  ['vitest', /vitest/],
  ['type-check', /\btsc\b/],
  ['esbuild', /esbuild/],
  ['PostgreSQL', /postgres/],
  ['Redis', /redis/],
  ['HAProxy', /haproxy/],
];
const kindOf = (cmd: string) => KINDS.find(([, re]) => re.test(cmd))?.[0] ?? 'other';
const HZ = 100; // USER_HZ on Linux

/** Per process (pid and start time, since pids are reused): its kind, CPU ticks when first seen and at last sight. */
const seen = new Map<string, { kind: string; base: number; last: number }>();
function sample(first: boolean): void {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(f[11]) + Number(f[12]);
      const key = `${pid}@${f[19]}`;
      const e = seen.get(key);
      if (e) e.last = Math.max(e.last, ticks);
      else seen.set(key, { kind: kindOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')), base: first ? ticks : 0, last: ticks });
    } catch {
      /* the process ended between the listing and the read */
    }
  }
}

const sep = process.argv.indexOf('--');
const [cmd, ...args] = process.argv.slice(sep >= 0 ? sep + 1 : 2);
if (!cmd) throw new Error('usage: tsx tools/cpu-share.ts -- <command> [args…]');
sample(true);
const t0 = Date.now();
const timer = setInterval(() => sample(false), 500);
const child = spawn(cmd, args, { stdio: 'inherit' });
child.on('exit', (code) => {
  clearInterval(timer);
  sample(false);
  const wall = (Date.now() - t0) / 1000;
  const by = new Map<string, number>();
  for (const e of seen.values()) by.set(e.kind, (by.get(e.kind) ?? 0) + (e.last - e.base) / HZ);
  const total = [...by.values()].reduce((a, b) => a + b, 0);
  const rows = [...by].filter(([, s]) => s >= 0.5).sort((a, b) => b[1] - a[1]);
  console.log(`\nCPU while it ran: ${total.toFixed(0)} s over ${wall.toFixed(0)} s of wall time on ${os.cpus().length} cores (${((100 * total) / (wall * os.cpus().length)).toFixed(0)}% of the machine)`);
  for (const [kind, s] of rows) console.log(`${s.toFixed(1).padStart(8)} s  ${kind}`);
  process.exitCode = code ?? 1;
});
