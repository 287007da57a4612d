/**
 * The mail queue across processes (server/mail/queue.ts): a message queued while the SMTP server is down
 * is still sent after the server process is killed with SIGKILL and started again (the queue is in
 * storage, retried with backoff), and the request that queued it never waited for SMTP; two processes on
 * one PostgreSQL send each queued message exactly once (claims with FOR UPDATE SKIP LOCKED).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { signUp } from './account-helpers';
import { dropSchema, PG_URL, postgresAvailable, TEST_PASSWORD_COST, uniqueSchema, until } from './helpers';
import { smtpServer } from './smtp';

const hasPg = await postgresAvailable();
const children: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  for (const f of cleanups) await f();
});

const FROM = 'Watergate <noreply@watergate.example>';

describe('the queue survives the server', () => {
  it('a verification queued while SMTP is down is sent after kill -9 and a restart; the request did not wait', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-mail-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const smtpPort = await freePort();
    const env = { DATA_DIR: dir, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: FROM, PASSWORD_COST: String(TEST_PASSWORD_COST) };
    const first = await startServerProcess(env, await freePort());
    children.push(first);
    const ann = await signUp(first.url, 'queue_ann');
    const t0 = Date.now();
    expect((await ann.call('/auth/email', { email: 'ann@example.org' })).status).toBe(200);
    // Nothing listens on the SMTP port: the answer came at once all the same.
    expect(Date.now() - t0).toBeLessThan(5_000);
    // The first attempt fails (connection refused) and is put back for later; then the process dies.
    await new Promise((r) => setTimeout(r, 1_500));
    first.proc.kill('SIGKILL');
    await first.exited;

    const smtp = await smtpServer(smtpPort);
    cleanups.push(() => smtp.close());
    const second = await startServerProcess(env, await freePort());
    children.push(second);
    // The retry waits 30 s after the failure; the restarted process finds the row and sends it.
    await until(() => smtp.to('ann@example.org').length === 1, 'the verification after the restart', 90_000);
    expect(smtp.to('ann@example.org')[0].subject).toBe('Watergate: confirm your e-mail address');
    await new Promise((r) => setTimeout(r, 6_000));
    expect(smtp.to('ann@example.org')).toHaveLength(1);
  });
});

describe.skipIf(!hasPg)('two processes on one PostgreSQL', () => {
  it('send each queued message once', { timeout: 120_000 }, async () => {
    const schema = uniqueSchema();
    cleanups.push(() => dropSchema(schema));
    const smtp = await smtpServer();
    cleanups.push(() => smtp.close());
    const env = { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, SMTP_URL: smtp.url, MAIL_FROM: FROM, LOG_LEVEL: 'warn', PASSWORD_COST: String(TEST_PASSWORD_COST) };
    const a = await startServerProcess(env, await freePort());
    children.push(a);
    const b = await startServerProcess(env, await freePort());
    children.push(b);
    // Rows written straight into the shared queue, due in a moment: both processes' workers go for them.
    const N = 150;
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      const due = Date.now() + 1_000;
      for (let i = 0; i < N; i++)
        await c.query(
          `INSERT INTO "${schema}".wg_mail_queue (id, account_id, kind, to_addr, subject, body_text, body_html, headers, created_at, next_at) VALUES ($1, NULL, 'test', $2, $3, 'x', '<p>x</p>', '{}', $4, $4)`,
          [`row${i}`, `p${i % 5}@example.org`, `message ${i}`, due],
        );
    } finally {
      await c.end();
    }
    await until(() => smtp.got.length >= N, 'every queued message', 90_000);
    await new Promise((r) => setTimeout(r, 6_000));
    const subjects = smtp.got.map((m) => m.subject);
    expect(subjects).toHaveLength(N);
    expect(new Set(subjects).size).toBe(N);
  });
});
