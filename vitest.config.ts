import { defineConfig } from 'vitest/config';

/**
 * The Debug panel in the build, and the Debug panel and the one-screen layout under `npm run dev` (Vite's
 * dev server): after every other file, two at a time (project `alone`), not beside the suite's three
 * workers. The panel's loop waits 100 ms after each of its moves, which debug-panel.test.ts reads from when
 * the moves are drawn; after other journeys on a fully loaded host the Debug panel's dev file twice found
 * the local game already moved on before its first press (passing alone every time: not understood yet,
 * the note of 2026-12-04 says so). Two at a time, a core each, they passed in each of 5 runs
 * (docs/BENCHMARKS.md "The last files two at a time"): 33–37 s; one at a time, about 50 s with a core idle.
 */
const ALONE = ['test/e2e/debug-panel.test.ts', 'test/e2e/debug-panel-dev.test.ts', 'test/e2e/layout-dev.test.ts'];

/**
 * Files that mock a module, stub a global or reload modules to patch them (vi.mock, vi.stubGlobal,
 * vi.resetModules): each runs in a fresh context, so what it changes ends with it.
 */
export const MOCKING = [
  'test/client/hint.test.tsx',
  'test/client/lobby-limits.test.tsx',
  'test/client/account-page.test.tsx',
  'test/client/takeback.test.tsx',
  'test/client/play-now.test.tsx',
  'test/client/rated-form.test.tsx',
  'test/client/rematch-offer.test.tsx',
  'test/client/status.test.tsx',
  'test/client/rated-result.test.tsx',
  'test/client/profile-bot.test.tsx',
  'test/client/email-settings.test.tsx',
  'test/client/challenges.test.tsx',
  'test/client/friends.test.tsx',
  'test/tools/balance-variants.test.ts',
];

/**
 * The long tier (`npm run test:long`; CI runs it after `npm test`): files that play whole games by clicks,
 * wait out a clock's or a retry's real minutes, or play hundreds of games to measure strength or to fuzz.
 * Also several processes on PostgreSQL and Redis, processes killed with -9, the production build started, the measuring tools' own
 * runs. Each proves something the quicker files do not, so CI runs every one; `npm test` keeps a developer's
 * loop short (docs/BENCHMARKS.md "Two tiers": under five minutes on one quiet 2-core host, about six on a
 * slower one) with every rule, every route and
 * hostile-input probe of a server process, its storage on SQLite and PostgreSQL, the one-screen layout in
 * three languages, accessibility, the Debug panel under `npm run dev` and the build, and the first 250 fuzz
 * games (docs/BENCHMARKS.md "Test suite").
 */
export const LONG = [
  // Whole games and journeys in Chromium.
  'test/e2e/play.test.ts',
  'test/e2e/clock.test.ts',
  'test/e2e/accounts.test.ts',
  'test/e2e/pwa.test.ts',
  'test/e2e/online.test.ts',
  'test/e2e/takeback.test.ts',
  'test/e2e/vs-computer.test.ts',
  'test/e2e/analysis.test.ts',
  'test/e2e/journey.test.ts',
  'test/e2e/tutorial.test.ts',
  'test/e2e/analysis-cache.test.ts',
  'test/e2e/last-move.test.ts',
  'test/e2e/pwa-update.test.ts',
  // Journeys through several pages or accounts: a game resigned and replayed, the database frozen mid-game,
  // turn notifications with the tab hidden, an event run by four accounts, a paired event's forfeits.
  'test/e2e/replay.test.ts',
  'test/e2e/busy.test.ts',
  'test/e2e/notify.test.ts',
  'test/e2e/events.test.ts',
  'test/e2e/events-pairs.test.ts',
  // The one-screen layout at the sizes between those `npm test` checks (test/e2e/layout-cases.ts).
  'test/e2e/layout-sizes.test.ts',
  // Strength series and fuzzing beyond the first 250 games (test/fuzz/games-1000.test.ts stays).
  'test/bots/bgio.test.ts',
  'test/bots/fair-mcts.test.ts',
  // Whole games played by bots: the bot kit's processes over HTTP, the HTTP bot API's on PostgreSQL and the
  // documentation's example bot (one of each on SQLite stays in `npm test`), the browser bot in Chromium.
  'test/tools/bot-kit.test.ts',
  'test/server/bot-api-games.test.ts',
  'test/bots/browser.test.ts',
  'test/fuzz/games-2000.test.ts',
  'test/fuzz/games-3000.test.ts',
  'test/fuzz/games-4000-options.test.ts',
  // Waits out the mail queue's real 30 s retry after a kill -9.
  'test/server/mail-queue.test.ts',
  // Several server processes on PostgreSQL and Redis (behind HAProxy too), and the production build started
  // as `npm start` does.
  'test/server/cluster.test.ts',
  'test/server/events-cluster.test.ts',
  'test/server/cluster-limits.test.ts',
  'test/server/ratings-cluster.test.ts',
  'test/server/production-start.test.ts',
  // Server processes killed with -9 and started again: a match resumed, presence leases run out, a paired
  // challenge's second game made exactly once.
  'test/server/persistence.test.ts',
  'test/server/presence.test.ts',
  'test/server/paired-challenge-kill.test.ts',
  // The measuring tools' own runs: load, the events benchmark, bot arenas.
  'test/server/load.test.ts',
  'test/tools/bench-events.test.ts',
  'test/tools/arena.test.ts',
];

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
    // Three workers on two cores: the browser journeys wait (for pages, sockets, a clock's minute) as much
    // as they compute, and a third file fills those waits (docs/BENCHMARKS.md "Test suite": 404 → 337 s
    // for the same commit once Chromium's headless shell made the journeys lighter).
    maxWorkers: 3,
    projects: [
      // Files share their worker's modules instead of importing everything again for each file: the
      // suite is bound by CPU on 2 cores, and re-importing (boardgame.io, socket.io, the engine, the
      // server) took about 100 of the 630 CPU-seconds of the non-browser files, the tests themselves
      // slower on cold code (docs/BENCHMARKS.md, "Test suite"). Each file still starts its own servers
      // and stores. Files that replace a module or a global keep a fresh context of their own.
      { test: { ...shared, name: 'suite', isolate: false, include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: ['**/node_modules/**', 'test/e2e/**', ...ALONE, ...MOCKING, ...LONG], sequence: { groupOrder: 1 } } },
      // The browser journeys keep a context each, as before (on a saturated host one of them once waited
      // out its page's first load when they shared: not understood yet, so not shared).
      { test: { ...shared, name: 'isolated', include: ['test/e2e/**/*.test.ts', ...MOCKING], exclude: ['**/node_modules/**', ...ALONE, ...LONG], sequence: { groupOrder: 1 } } },
      // The long tier: browser files each in a context of their own, as above; the others sharing modules.
      { test: { ...shared, name: 'long-isolated', include: LONG.filter((f) => f.startsWith('test/e2e/')), sequence: { groupOrder: 1 } } },
      { test: { ...shared, name: 'long-suite', isolate: false, include: LONG.filter((f) => !f.startsWith('test/e2e/')), sequence: { groupOrder: 1 } } },
      // After the rest (a group of its own: vitest runs groups one after the other, lowest first), two files
      // at a time. (A project of one worker with groupOrder 0 would not run first: vitest 4 puts such files
      // in a group after all the others.)
      { test: { ...shared, name: 'alone', include: ALONE, maxWorkers: 2, sequence: { groupOrder: 2 } } },
    ],
  },
});
