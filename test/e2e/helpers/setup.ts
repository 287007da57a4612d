/** One real server (on the built client) and one Chromium per e2e test file, started before and stopped after it. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { builtClient } from './build';
import { launch, type Session } from './browser';
import { startServer, type RunningServer } from './server';

/** `browser.full`: the whole Chromium instead of its headless shell (helpers/browser.ts), for what the shell lacks. */
export function useServerAndBrowser(before?: () => void, serverEnv?: Record<string, string>, browser: { full?: boolean } = {}): { server: RunningServer; session: Session } {
  const env = {} as { server: RunningServer; session: Session };
  beforeAll(async () => {
    env.server = await startServer(await builtClient(), serverEnv);
    env.session = await launch(browser);
    before?.();
  }, 180_000);
  // Each test answers for the problems of its own pages: one test's fault does not fail the ones after it.
  beforeEach(({ onTestFailed }) => {
    if (env.session) env.session.problems.length = 0;
    // A journey that waited out a page says what its pages showed, so a failure on a busy host explains itself.
    onTestFailed(async () => {
      if (env.session) console.error(`what the pages showed when the test failed:\n${await env.session.describe()}`);
      if (env.server) console.error(`the server's last output:\n${env.server.output().join('\n') || '(none)'}`);
    });
  });
  afterAll(async () => {
    await env.session?.close();
    await env.server?.stop();
  });
  return env;
}
