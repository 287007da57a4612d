/** One real server (on the built client) and one Chromium per e2e test file, started before and stopped after it. */
import { afterAll, beforeAll } from 'vitest';
import { builtClient } from './build';
import { launch, type Session } from './browser';
import { startServer, type RunningServer } from './server';

export function useServerAndBrowser(before?: () => void): { server: RunningServer; session: Session } {
  const env = {} as { server: RunningServer; session: Session };
  beforeAll(async () => {
    env.server = await startServer(await builtClient());
    env.session = await launch();
    before?.();
  }, 180_000);
  afterAll(async () => {
    await env.session?.close();
    await env.server?.stop();
  });
  return env;
}
