import { defineConfig } from 'vitest/config';

/**
 * Files whose assertions are about how long the page's work blocks it (the Debug panel's long tasks, at
 * most 250 ms on this 2-core host): they run after every other file, alone, so another file's playouts
 * on the second core do not stand in for the page's own cost.
 */
const QUIET = ['test/e2e/debug-panel.test.ts'];

const shared = {
  environment: 'node' as const,
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // What a test waits for (a page to load and sync, a message to arrive) can take seconds on a busy
  // 2-core host; a wait that succeeds returns at once, so only a failure waits this long.
  expect: { poll: { timeout: 10_000 } },
};

export default defineConfig({
  test: {
    // Two cores: run files in parallel, but not more workers than cores.
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'suite', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: ['**/node_modules/**', ...QUIET] } },
      { test: { ...shared, name: 'quiet', include: QUIET, sequence: { groupOrder: 1 } } },
    ],
  },
});
