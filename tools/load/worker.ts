/**
 * A load process started by tools/load/run.ts (node:child_process fork, under tsx): it plays its share of
 * the matches (./play.ts) and answers its parent over IPC.
 *   parent → { t: 'play', options, yieldCpu }   child → { t: 'ready' } once its matches are all in play
 *                                     (yieldCpu: every thread of it at the lowest CPU priority first)
 *   parent → { t: 'measure' }         latencies count from here
 *   parent → { t: 'end' }             and no longer from here (the matches play on)
 *   parent → { t: 'stop' }            child → { t: 'result', result, nice }, and its parent ends it
 * (`nice`: the CPU priority its threads ran at, as the kernel has it — the least yielding thread's: 19
 * under run.ts's --yield)
 * Its parent gone, it exits: a load with nobody to report to is only load.
 */
import { readdirSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';
import { play, type PlayOptions } from './play';

type FromParent = { t: 'play'; options: PlayOptions; yieldCpu?: boolean } | { t: 'measure' } | { t: 'end' } | { t: 'stop' };

/**
 * This process's threads: on Linux a priority is each thread's own (V8's and libuv's helpers started with
 * the process), so each is set and read; elsewhere the process as a whole (0: this one).
 */
const threads = (): number[] => {
  try {
    return readdirSync('/proc/self/task').map(Number);
  } catch {
    return [0];
  }
};
const each = <T>(f: (thread: number) => T, gone: T): T[] =>
  threads().map((t) => {
    try {
      return f(t);
    } catch {
      return gone; // the thread ended meanwhile
    }
  });

let run: ReturnType<typeof play> | null = null;
process.on('disconnect', () => process.exit(0));
process.on('message', (m: FromParent) => {
  if (m.t === 'play' && !run) {
    // Lowering one's own priority needs no privilege; threads started later take their creator's.
    if (m.yieldCpu) each((t) => setPriority(t, constants.priority.PRIORITY_LOW), undefined);
    run = play(m.options);
    void run.ready.then(() => process.send?.({ t: 'ready' }));
  } else if (m.t === 'measure') run?.measure();
  else if (m.t === 'end') run?.end();
  else if (m.t === 'stop' && run) {
    void run.stop().then((result) => process.send?.({ t: 'result', result, nice: Math.min(...each((t) => getPriority(t), constants.priority.PRIORITY_LOW)) }));
  }
});
