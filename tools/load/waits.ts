/**
 * `npm run waits -- PID [--seconds S]` (Linux): where a server's event loop was while it was not
 * answering — what a CPU profile cannot show. V8's profiler samples only while the thread runs, so a
 * pause in the kernel or on the run queue is a gap in its samples (docs/LOAD.md "The tail"). This reads
 * the main thread's /proc entries every ~2 ms:
 *
 * - `stat` (its state: R running or runnable, S sleeping, D waiting uninterruptibly), `wchan` and, as
 *   root, `stack` (the kernel function it waits in): each stretch of one wait other than the event
 *   loop's own idle wait (epoll) is a **wait**, with where it was;
 * - `schedstat` (nanoseconds on a core and waiting for one): each stretch of R is a **busy** stretch,
 *   split into time on a core (JavaScript, GC, native code) and time on the run queue (the host's cores
 *   busy with other processes).
 *
 * It found, at 5,000 matches on a 2-core host, the log's removal waiting 117–168 ms for the disk's
 * discard and busy stretches half of whose time was the run queue.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export interface Sample {
  /** ms since the epoch */
  at: number;
  state: string;
  /** Where it waits: the kernel's stack as far as it can be read (root), else wchan; '' when running. */
  where: string;
  /** Cumulative ns on a core and on the run queue (schedstat). */
  cpuNs: number;
  queueNs: number;
}

const IDLE = /^(ep_poll|do_epoll_wait)/;

/** One reading of thread `tid` of process `pid`; null once the thread is gone. */
export function readThread(pid: number, tid = pid): Sample | null {
  const base = `/proc/${pid}/task/${tid}`;
  try {
    const at = Date.now();
    const stat = readFileSync(`${base}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    const [cpu, queue] = readFileSync(`${base}/schedstat`, 'utf8').split(' ').map(Number);
    let where = '';
    if (state !== 'R') {
      let stack = '';
      try {
        // "[<0>] futex_wait_queue+0x60/0x90": the function names, innermost first.
        stack = readFileSync(`${base}/stack`, 'utf8').split('\n').filter(Boolean).slice(0, 8).map((l) => l.replace(/^\[<[^>]*>\]\s*/, '').replace(/\+0x.*$/, '')).join(' < ');
      } catch {
        /* not root: wchan alone */
      }
      const wchan = readFileSync(`${base}/wchan`, 'utf8').trim();
      where = stack || wchan;
    }
    return { at, state, where, cpuNs: cpu, queueNs: queue };
  } catch {
    return null;
  }
}

/** Samples the thread for `seconds`, every `everyMs`, or until it has exited (this process blocks while it does). */
export function sample(pid: number, seconds: number, everyMs = 2): Sample[] {
  const out: Sample[] = [];
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const end = Date.now() + seconds * 1000; Date.now() < end; ) {
    const s = readThread(pid);
    // Gone, or exited and not yet reaped (its parent may be this process, blocked here): nothing more to see.
    if (!s || s.state === 'Z' || s.state === 'X') break;
    out.push(s);
    Atomics.wait(pause, 0, 0, everyMs);
  }
  return out;
}

export interface Wait {
  ms: number;
  at: number;
  state: string;
  where: string;
}
export interface Busy {
  ms: number;
  at: number;
  /** Of the stretch: on a core, and waiting for one. */
  cpuMs: number;
  queueMs: number;
}

/** The stretches of samples in one non-idle wait, and of running; each list longest first. */
export function analyse(samples: Sample[], minMs = 20): { waits: Wait[]; busy: Busy[] } {
  const waits: Wait[] = [];
  const busy: Busy[] = [];
  const keyOf = (s: Sample) => (s.state === 'R' ? 'R' : s.state === 'S' && IDLE.test(s.where) ? null : `${s.state} ${s.where}`);
  for (let i = 0; i < samples.length; ) {
    const key = keyOf(samples[i]);
    let j = i;
    while (j + 1 < samples.length && keyOf(samples[j + 1]) === key) j++;
    // A stretch lasts from its first sample to the first sample after it (the thread was seen in it until then).
    const last = samples[Math.min(j + 1, samples.length - 1)];
    const ms = last.at - samples[i].at;
    if (key !== null && ms >= minMs) {
      if (key === 'R') busy.push({ ms, at: samples[i].at, cpuMs: (last.cpuNs - samples[i].cpuNs) / 1e6, queueMs: (last.queueNs - samples[i].queueNs) / 1e6 });
      else waits.push({ ms, at: samples[i].at, state: samples[i].state, where: samples[i].where });
    }
    i = j + 1;
  }
  return { waits: waits.sort((a, b) => b.ms - a.ms), busy: busy.sort((a, b) => b.ms - a.ms) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [pidText, ...rest] = process.argv.slice(2);
  const pid = Number(pidText);
  const i = rest.indexOf('--seconds');
  const seconds = i >= 0 ? Number(rest[i + 1]) : 30;
  if (!Number.isInteger(pid) || pid <= 0 || !(seconds > 0 && seconds <= 3600)) {
    console.error('usage: npm run waits -- PID [--seconds S]   (Linux; run as root to see kernel stacks)');
    process.exit(2);
  }
  const samples = sample(pid, seconds);
  if (samples.length === 0) {
    console.error(`no thread ${pid} to read (/proc/${pid}/task/${pid})`);
    process.exit(1);
  }
  const { waits, busy } = analyse(samples);
  const time = (at: number) => new Date(at).toISOString().slice(11, 23);
  console.log(`${samples.length} samples of thread ${pid} over ${((samples.at(-1)!.at - samples[0].at) / 1000).toFixed(1)} s`);
  console.log('\nlongest waits outside the event loop\'s own (ms, when, state, where in the kernel):');
  for (const w of waits.slice(0, 10)) console.log(`  ${w.ms} ms at ${time(w.at)} ${w.state} ${w.where}`);
  console.log('\nlongest busy stretches (ms, when: on a core + waiting for one):');
  for (const b of busy.slice(0, 10)) console.log(`  ${b.ms} ms at ${time(b.at)}: ${b.cpuMs.toFixed(0)} on a core + ${b.queueMs.toFixed(0)} on the run queue`);
}
