/**
 * A new version of the app is taken at the next load, never under an open page (client/pwa.ts,
 * client/sw.ts): the server is restarted on a new build (its service worker changed) while two tabs of the
 * app are open. The browser installs the new worker, which waits; a reload of one tab while the other is
 * still open keeps the old version (the other may be mid-game); once that tab is closed, the next load
 * takes the new version (the waiting worker takes over and the page reloads into it).
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { builtClient } from './helpers/build';
import { launch, type Session } from './helpers/browser';

let session: Session | undefined;
let server: ServerProcess | undefined;
const temps: string[] = [];
afterAll(async () => {
  await session?.close();
  server?.proc.kill('SIGKILL');
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const activated = (page: Page) =>
  page.evaluate(async () => {
    const w = (await navigator.serviceWorker.ready).active!;
    if (w.state !== 'activated') await new Promise<void>((r) => w.addEventListener('statechange', () => w.state === 'activated' && r()));
  });
/** Whether a new version waits (installed, not yet taking over). */
const waiting = (page: Page) => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting);

describe('a new version', () => {
  it('waits while another tab is open, and is taken at the next load once it is alone', { timeout: 240_000 }, async () => {
    const first = await builtClient();
    // The next version: the same build with another service worker (any byte changed makes it new).
    const next = mkdtempSync(join(tmpdir(), 'wg-next-client-'));
    temps.push(next);
    cpSync(first, next, { recursive: true });
    appendFileSync(join(next, 'sw.js'), '\n// the next version\n');
    rmSync(join(next, 'sw.js.br'), { force: true });
    rmSync(join(next, 'sw.js.gz'), { force: true });

    const data = mkdtempSync(join(tmpdir(), 'wg-next-data-'));
    temps.push(data);
    const port = await freePort();
    const env = (clientDir: string) => ({ CLIENT_DIR: clientDir, DATA_DIR: data, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '' });
    server = await startServerProcess(env(first), port, 60_000);
    session = await launch();
    const ctx = await session.context({ width: 1280, height: 900 }, 'en-US', { serviceWorkers: true });
    const [a, b] = [await ctx.newPage(), await ctx.newPage()];
    await a.goto(`${server.url}/#/local`);
    await activated(a);
    await b.goto(`${server.url}/#/local`); // the other tab: a local game in progress
    await b.locator('.prompt.mine').waitFor();
    expect(await b.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

    // The new build is deployed; a's next load finds the new worker, which installs and waits.
    server.proc.kill('SIGTERM');
    await server.exited;
    server = await startServerProcess(env(next), port, 60_000);
    await a.reload();
    await expect.poll(() => waiting(a), { timeout: 60_000 }).toBe(true);

    // Another load of a while b is open: the new version still waits, b's game goes on.
    await a.reload();
    await a.locator('.prompt.mine').waitFor();
    expect(await waiting(a)).toBe(true);
    expect(await b.locator('.prompt.mine').count()).toBe(1);

    // b closed: the next load of a takes the new version (and reloads into it once).
    await b.close();
    await a.reload();
    await expect.poll(() => waiting(a), { timeout: 30_000 }).toBe(false);
    await a.locator('.prompt.mine').waitFor();
    expect(await a.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
    await ctx.close();
    expect(session.problems).toEqual([]);
  });
});
