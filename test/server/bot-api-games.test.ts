/**
 * The long tier's whole games over the HTTP bot API (test/server/bot-api-kit.ts; `npm test` plays one of
 * each on SQLite in test/server/bot-api.test.ts): every one on PostgreSQL, a second seed on SQLite, and
 * the documentation's example bot (docs/BOT-API.md) playing a whole game against itself.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startTestServer, type TestServer } from './helpers';
import { botAccount, newMatch, wholeGames } from './bot-api-kit';

if (await postgresAvailable()) wholeGames('postgres', [1, 2], { dropped: true, human: true });
wholeGames('embedded', [2], { dropped: false, human: false });

describe('docs/BOT-API.md', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer('embedded', { limits: { botMove: { points: 100_000, seconds: 60 } } });
  });
  afterAll(() => ts?.stop());

  it('the HTTP bot API\'s TypeScript example plays a whole game against itself', async () => {
    const doc = readFileSync('docs/BOT-API.md', 'utf8');
    const section = doc.slice(doc.indexOf('## The HTTP bot API'));
    const code = /```ts\n([\s\S]*?)```/.exec(section.slice(section.indexOf('### Example')))![1];
    const dir = mkdtempSync(joinPath(tmpdir(), 'wg-bot-example-'));
    const file = joinPath(dir, 'bot.mts');
    writeFileSync(file, code);
    const a = await botAccount(ts.url, 'example_a');
    const b = await botAccount(ts.url, 'example_b');
    const matchID = await newMatch(ts.url);
    const run = (token: string) => promisify(execFile)(process.execPath, ['--import', 'tsx', file, ts.url, token, matchID], { timeout: 120_000 });
    try {
      const outs = await Promise.all([run(a.token), run(b.token)]);
      for (const o of outs) expect(o.stdout).toMatch(/^over: /m);
      expect(ts.server.service.peek(matchID)?.state.ctx.gameover).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
