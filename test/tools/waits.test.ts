/**
 * `npm run waits` tells where a process's main thread was while its event loop did not answer: a
 * process that sleeps 300 ms in a lock (a futex, as a blocking native call would) and then computes for
 * 200 ms of CPU shows the first as a wait with the kernel function it waited in, the second as a busy
 * stretch whose time was on a core or on the run queue; the event loop's own idle wait is not reported.
 */
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { analyse, sample } from '../../tools/load/waits';

it.runIf(process.platform === 'linux')('finds a 300 ms wait in the kernel and a 200 ms busy stretch in a real process, not its idle loop', async () => {
  const program = `
    setTimeout(() => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      // 200 ms of CPU, however long the host makes it take.
      const c0 = process.cpuUsage();
      for (let c = c0; (c.user + c.system) < 200000; c = process.cpuUsage(c0));
      setTimeout(() => process.exit(0), 600);
    }, 400);`;
  const child = spawn(process.execPath, ['-e', program], { stdio: 'ignore' });
  try {
    // Until it exits (about 1.5 s; more on a busy host, where its start and its computation wait for a core).
    const samples = sample(child.pid!, 6);
    const { waits, busy } = analyse(samples);
    // Sampled all along: idle, waiting, busy, idle, and no further than its exit.
    expect(samples.length).toBeGreaterThan(100);
    expect(samples.every((s) => s.state !== 'Z')).toBe(true);
    expect(samples.some((s) => s.state === 'S' && /epoll/.test(s.where))).toBe(true);
    const lock = waits.find((w) => /futex/.test(w.where));
    expect(lock, JSON.stringify(waits.slice(0, 3))).toBeDefined();
    // Bounds loose enough for a busy host, where the sampler itself may wait for a core.
    expect(lock!.ms).toBeGreaterThan(150);
    expect(lock!.ms).toBeLessThan(1000);
    // The idle loop is no wait of its own.
    expect(waits.filter((w) => /epoll/.test(w.where))).toEqual([]);
    // After the wait, the computation: a busy stretch, its time on a core or waiting for one (Node's own
    // start, before the wait, is busy too).
    const computing = busy.find((b) => b.at > lock!.at)!;
    expect(computing.ms).toBeGreaterThan(150);
    expect(computing.cpuMs + computing.queueMs).toBeGreaterThan(computing.ms * 0.7);
    // The whole 200 ms computation seen on a core, however long it also waited for one.
    expect(computing.cpuMs).toBeGreaterThan(150);
  } finally {
    child.kill();
  }
});
