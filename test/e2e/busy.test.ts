/**
 * A busy server on the board, in real Chromium: the server's database (a PostgreSQL of the test's own)
 * hangs mid-game (SIGSTOP); the player's move is answered "unavailable", the board says "Server busy,
 * retrying…" and sends it again by itself; once the database answers again the move is played on both
 * boards and the banner goes, without the player doing anything more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { canRunOwnPostgres, startPgInstance, type PgInstance } from '../server/pg-instance';
import { builtClient } from './helpers/build';
import { launch, type Session } from './helpers/browser';
import { boardState, decide, waitForChange } from './helpers/play';

const enabled = canRunOwnPostgres();
if (!enabled) console.warn('no PostgreSQL binaries or not root: the busy-server e2e test is SKIPPED');

let pg: PgInstance;
let server: ServerProcess;
let session: Session;
beforeAll(async () => {
  if (!enabled) return;
  pg = await startPgInstance();
  const env = { DATABASE_URL: pg.url, DATABASE_SCHEMA: 'busy', CLIENT_DIR: await builtClient(), LOG_LEVEL: 'warn', REDIS_URL: '', DATABASE_TIMEOUT_MS: '1000' };
  server = await startServerProcess(env, await freePort(), 60_000);
  session = await launch();
}, 240_000);
afterAll(async () => {
  pg?.thaw();
  await session?.close();
  if (server && server.proc.exitCode === null && server.proc.signalCode === null) {
    server.proc.kill('SIGKILL');
    await server.exited;
  }
  pg?.destroy();
});

async function twoPlayers() {
  const [editorCtx, nixonCtx] = [await session.context(), await session.context()];
  const [editor, nixon] = [await editorCtx.newPage(), await nixonCtx.newPage()];
  await editor.goto(`${server.url}/#/`);
  await editor.getByLabel('Your name').fill('Ann');
  await editor.locator('[data-create="0"]').click();
  await editor.waitForURL(/#\/match\//);
  const matchID = editor.url().split('/match/')[1];
  await nixon.goto(`${server.url}/#/`);
  await nixon.getByLabel('Your name').fill('Bob');
  await nixon.locator(`[data-match="${matchID}"] [data-join="1"]`).click();
  await nixon.locator('.game').waitFor();
  await editor.locator('.game').waitFor();
  return { editor, nixon, close: async () => Promise.all([editorCtx.close(), nixonCtx.close()]) };
}

describe.skipIf(!enabled)('a busy server on the board', () => {
  it('says "Server busy, retrying…" while the database hangs, and plays the move by itself once it answers', { timeout: 180_000 }, async () => {
    const { editor, nixon, close } = await twoPlayers();
    const first = await boardState(editor);
    await decide(editor, '0');
    await waitForChange(nixon, first);
    const [mover, other, role] = (await boardState(editor)).mine ? ([editor, nixon, '0'] as const) : ([nixon, editor, '1'] as const);

    pg.freeze();
    const before = await boardState(other);
    await decide(mover as Page, role);
    const banner = mover.locator('[data-busy="unavailable"]');
    await banner.waitFor({ timeout: 10_000 });
    expect(await banner.textContent()).toContain('Server busy, retrying');
    // Still nothing played a few retries later.
    await mover.waitForTimeout(2500);
    expect(await boardState(other)).toEqual(before);
    expect(await banner.count()).toBe(1);

    pg.thaw();
    await waitForChange(other, before, 30_000);
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
    await close();
  });
});
