import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // What a test waits for (a page to load and sync, a message to arrive) can take seconds on a busy
    // 2-core host; a wait that succeeds returns at once, so only a failure waits this long.
    expect: { poll: { timeout: 10_000 } },
    // Two cores: run files in parallel, but not more workers than cores.
    maxWorkers: 2,
  },
});
