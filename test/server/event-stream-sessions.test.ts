/**
 * An event stream opened with a session lasts as long as that session, over real HTTP: deleting the
 * account, signing out everywhere, a new password (other sessions), a password reset by e-mail (every
 * session) and signing out (this session) close
 * the streams those sessions opened at once — the keep-alive tick is an hour here, so nothing waits for
 * it — while a stream of a session that goes on stays open. A session ended elsewhere (another process,
 * storage only) closes its stream at the next tick.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, until, type TestServer } from './helpers';
import { logIn, signUp } from './account-helpers';
import { ndjson, type Ndjson } from './challenge-helpers';
import { linkToken, smtpServer } from './smtp';

const events = (url: string, cookie: string) => ndjson(url, '/api/stream/event', { cookie });
const PASSWORD = 'correct horse battery';
const limits = { eventStream: { points: 1000, seconds: 60 }, login: { points: 1000, seconds: 60 }, signup: { points: 1000, seconds: 60 } };

/** Open (the server holds it once its headers came), or a failure that says what it answered. */
async function opened(...streams: Ndjson[]) {
  await until(() => streams.every((s) => s.status() !== 0), 'the streams answer');
  for (const s of streams) expect(s.status(), JSON.stringify(s.lines)).toBe(200);
}

describe('event streams end with the sessions that opened them', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer('embedded', { botKeepAliveMs: 3_600_000, limits });
  }, 60_000);
  afterAll(() => ts?.stop());

  it('deleting the account closes every stream its sessions opened', async () => {
    const one = await signUp(ts.url, 'del_one');
    const two = await logIn(ts.url, 'del_one');
    const a = events(ts.url, one.cookie);
    const b = events(ts.url, two.cookie);
    try {
      await opened(a, b);
      expect((await one.call('/auth/delete', { password: PASSWORD })).status).toBe(200);
      await until(() => a.ended() && b.ended(), 'both streams end', 5_000);
      // And no new one opens with the old cookie.
      const again = events(ts.url, two.cookie);
      await again.done;
      expect(again.status()).toBe(401);
    } finally {
      for (const s of [a, b]) s.close();
    }
  });

  it('signing out everywhere closes every stream; a new password closes the other sessions\' streams and keeps this one\'s', async () => {
    const here = await signUp(ts.url, 'pw_user');
    const there = await logIn(ts.url, 'pw_user');
    const a = events(ts.url, here.cookie);
    const b = events(ts.url, there.cookie);
    try {
      await opened(a, b);
      expect((await here.call('/auth/password', { password: PASSWORD, newPassword: 'another long password' })).status).toBe(200);
      await until(() => b.ended(), "the other session's stream ends", 5_000);
      // This session goes on, and so does its stream: still open a moment later.
      await new Promise((r) => setTimeout(r, 500));
      expect(a.ended()).toBe(false);
      expect((await here.call('/auth/logout-all', {})).status).toBe(200);
      await until(() => a.ended(), 'its stream ends with the sign-out everywhere', 5_000);
    } finally {
      for (const s of [a, b]) s.close();
    }
  });

  it("signing out closes that session's stream, not another session's", async () => {
    const here = await signUp(ts.url, 'out_user');
    const there = await logIn(ts.url, 'out_user');
    const a = events(ts.url, here.cookie);
    const b = events(ts.url, there.cookie);
    try {
      await opened(a, b);
      expect((await here.call('/auth/logout', {})).status).toBe(200);
      await until(() => a.ended(), "the signed-out session's stream ends", 5_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(b.ended()).toBe(false);
    } finally {
      for (const s of [a, b]) s.close();
    }
  });
});

describe('a password reset by e-mail', () => {
  let ts: TestServer;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  beforeAll(async () => {
    smtp = await smtpServer();
    ts = await startTestServer('embedded', { botKeepAliveMs: 3_600_000, limits: { ...limits, mail: { points: 1000, seconds: 60 } }, mail: { smtpUrl: smtp.url, from: 'Watergate <noreply@watergate.example>', pollMs: 200 } });
  }, 60_000);
  afterAll(async () => {
    await ts?.stop();
    await smtp?.close();
  });

  it('closes every stream of the account at once', async () => {
    const who = await signUp(ts.url, 'reset_user');
    expect((await who.call('/auth/email', { email: 'reset@example.org' })).status).toBe(200);
    await until(() => smtp.to('reset@example.org').length === 1, 'the verification e-mail', 10_000);
    expect((await who.call('/auth/email/verify', { token: linkToken(smtp.to('reset@example.org')[0].text, 'verify-email') })).status).toBe(200);
    const a = events(ts.url, who.cookie);
    try {
      await opened(a);
      expect((await who.call('/auth/forgot', { username: 'reset_user' })).status).toBe(200);
      await until(() => smtp.to('reset@example.org').some((m) => m.text.includes('#/reset/')), 'the reset e-mail', 10_000);
      const token = linkToken(smtp.to('reset@example.org').find((m) => m.text.includes('#/reset/'))!.text, 'reset');
      expect((await who.call('/auth/reset', { token, password: 'a brand new password' })).status).toBe(200);
      await until(() => a.ended(), 'the stream ends with the reset', 5_000);
    } finally {
      a.close();
    }
  });
});

describe('a session ended elsewhere', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer('embedded', { botKeepAliveMs: 300, limits });
  }, 60_000);
  afterAll(() => ts?.stop());

  it('closes its stream at the next keep-alive tick', async () => {
    const who = await signUp(ts.url, 'tick_user');
    const a = events(ts.url, who.cookie);
    try {
      await opened(a);
      await until(() => a.blanks() >= 1, 'a keep-alive line', 5_000);
      // As another process would end it (a sign-out everywhere there): only the stored sessions change.
      const account = await ts.store.accounts.byKey('tick_user');
      await ts.store.accounts.dropSessions(account!.id);
      await until(() => a.ended(), 'the stream ends within a tick', 5_000);
    } finally {
      a.close();
    }
  });
});
