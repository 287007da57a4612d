/**
 * A load process started by tools/load/run.ts (node:child_process fork, under tsx): it plays its share of
 * the matches (./play.ts) and answers its parent over IPC.
 *   parent → { t: 'play', options }   child → { t: 'ready' } once its matches are all in play
 *   parent → { t: 'measure' }         latencies count from here
 *   parent → { t: 'end' }             and no longer from here (the matches play on)
 *   parent → { t: 'stop' }            child → { t: 'result', result, nice }, and its parent ends it
 * (`nice`: the CPU priority this process ran at, as the kernel has it: 19 under run.ts's --yield)
 * Its parent gone, it exits: a load with nobody to report to is only load.
 */
import { getPriority } from 'node:os';
import { play, type PlayOptions } from './play';

type FromParent = { t: 'play'; options: PlayOptions } | { t: 'measure' } | { t: 'end' } | { t: 'stop' };

let run: ReturnType<typeof play> | null = null;
process.on('disconnect', () => process.exit(0));
process.on('message', (m: FromParent) => {
  if (m.t === 'play' && !run) {
    run = play(m.options);
    void run.ready.then(() => process.send?.({ t: 'ready' }));
  } else if (m.t === 'measure') run?.measure();
  else if (m.t === 'end') run?.end();
  else if (m.t === 'stop' && run) {
    void run.stop().then((result) => process.send?.({ t: 'result', result, nice: getPriority() }));
  }
});
