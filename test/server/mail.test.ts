/**
 * E-mail over real connections (server/mail/, server/notices/): a real SMTP server on 127.0.0.1 receives
 * and parses every message. A verified address; a turn e-mail for an offline player only (none while
 * connected, none twice within the hour) with a one-click unsubscribe that works without signing in; the
 * game's end with the rating change; a challenge notice; messages in pt-BR and zh-CN; the password reset
 * (single use, 30 min, sessions and seat credentials renewed); hostile input on every new route; and a
 * server with no SMTP configured, where e-mail is simply unavailable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerID } from '../../game/index';
import { configFromEnv } from '../../server/config';
import { logIn, signUp, type Signed } from './account-helpers';
import { api, play, player, postgresAvailable, startTestServer, stored, until, type TestServer } from './helpers';
import { playUntil as playUntilOn } from './helpers';
import { linkToken, smtpServer } from './smtp';

let smtp: Awaited<ReturnType<typeof smtpServer>>;
let t: TestServer;
beforeAll(async () => {
  smtp = await smtpServer();
  t = await startTestServer('embedded', { mail: { smtpUrl: smtp.url, from: 'Watergate <noreply@watergate.example>', pollMs: 200 }, limits: { mail: { points: 1000, seconds: 60 } } });
});
afterAll(async () => {
  await t?.stop();
  await smtp?.close();
});

const settle = (ms = 600) => new Promise((r) => setTimeout(r, ms));

/** Signs up and confirms `email` through the link the server mails. */
async function withAddress(username: string, email: string, lang?: string): Promise<Signed> {
  const s = await signUp(t.url, username);
  const r = await s.call('/auth/email', { email, ...(lang ? { lang } : {}) });
  expect(r.status).toBe(200);
  await until(() => smtp.to(email).length === 1, 'the verification e-mail');
  const v = await api(t.url, '/auth/email/verify', { token: linkToken(smtp.to(email)[0].text, 'verify-email') }, { origin: t.url });
  expect(v.status).toBe(200);
  return s;
}


/** The server plays whoever decides until `seat` must decide (a decision passing to it from the other seat). */
const playUntil = (matchID: string, seat: PlayerID) => playUntilOn(t, matchID, seat);

/** A rated-or-casual match between two accounts, Editor and Nixon, with their seats' credentials. */
async function accountMatch(editor: Signed, nixon: Signed, rated = false) {
  const { matchID } = (await editor.call('/games/watergate/create', rated ? { rated: true } : {})).body;
  const creds = {} as Record<PlayerID, string>;
  for (const [seat, who] of [['0', editor], ['1', nixon]] as const) {
    const r = await who.call(`/games/watergate/${matchID}/join`, { playerID: seat });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    creds[seat] = r.body.playerCredentials;
  }
  return { matchID: matchID as string, creds };
}

const presence = async (matchID: string, seat: PlayerID) => (await api(t.url, `/games/watergate/${matchID}`)).body.players[Number(seat)].isConnected === true;

describe('an address', () => {
  it('is confirmed by the link mailed to it (24 h, once); the account page reads it back', async () => {
    const ann = await signUp(t.url, 'mail_ann');
    expect((await ann.call('/auth/email')).body).toMatchObject({ available: true, email: null, verified: false });
    await ann.call('/auth/email', { email: 'ann@example.org' });
    await until(() => smtp.to('ann@example.org').length === 1, 'the verification e-mail');
    const m = smtp.to('ann@example.org')[0];
    expect(m.subject).toBe('Watergate: confirm your e-mail address');
    expect(m.mail.from?.text).toContain('noreply@watergate.example');
    expect(m.html).toContain('verify-email/');
    expect((await ann.call('/auth/email')).body).toMatchObject({ email: 'ann@example.org', verified: false });
    const token = linkToken(m.text, 'verify-email');
    expect((await api(t.url, '/auth/email/verify', { token }, { origin: t.url })).status).toBe(200);
    // Single use.
    expect((await api(t.url, '/auth/email/verify', { token }, { origin: t.url })).status).toBe(400);
    expect((await ann.call('/auth/email')).body).toMatchObject({ email: 'ann@example.org', verified: true, prefs: { turn: true, challenge: true, end: true, clock: true, daily: false } });
    // "Download my data" holds it too.
    expect((await ann.call('/me/data')).body.email).toMatchObject({ address: 'ann@example.org', verified: true, lang: 'en' });
  });

  it('resending is bounded per account: the fourth within the hour is refused and not sent', async () => {
    const bea = await signUp(t.url, 'mail_bea');
    for (let i = 0; i < 3; i++) expect((await bea.call('/auth/email', { email: `bea${i}@example.org` })).status).toBe(200);
    const r = await bea.call('/auth/email', { email: 'bea3@example.org' });
    expect(r.status).toBe(429);
    await settle();
    expect(smtp.to('bea3@example.org')).toHaveLength(0);
  });

  it('one confirmed address belongs to one account', async () => {
    await withAddress('mail_cy', 'shared@example.org');
    const dot = await signUp(t.url, 'mail_dot');
    await dot.call('/auth/email', { email: 'SHARED@example.org' });
    await until(() => smtp.to('SHARED@example.org').length === 1, 'the second verification');
    const r = await api(t.url, '/auth/email/verify', { token: linkToken(smtp.to('SHARED@example.org')[0].text, 'verify-email') }, { origin: t.url });
    expect(r.status).toBe(409);
    // The first account deleted, its address goes with it: the second may confirm it now.
    const cy = await logIn(t.url, 'mail_cy');
    expect((await cy.call('/auth/delete', { password: 'correct horse battery' })).status).toBe(200);
    await dot.call('/auth/email', { email: 'SHARED@example.org' });
    await until(() => smtp.to('SHARED@example.org').length === 2, 'a new link');
    expect((await api(t.url, '/auth/email/verify', { token: linkToken(smtp.to('SHARED@example.org')[1].text, 'verify-email') }, { origin: t.url })).status).toBe(200);
    expect(await t.store.mail.byAddress('shared@example.org')).toBe((await t.store.accounts.byKey('mail_dot'))!.id);
  });
});

describe('notices', () => {
  it('an offline player gets one e-mail when the turn starts (none while connected, none twice within the hour); its unsubscribe POST works signed out', async () => {
    const ed = await withAddress('mail_ed', 'ed@example.org');
    const nix = await withAddress('mail_nix', 'nix@example.org');
    const { matchID, creds } = await accountMatch(ed, nix);
    const link = `${t.url}/#/match/${matchID}`;
    // The Editor, away, is told when Nixon's join starts the game with the Editor's decision.
    await until(() => smtp.to('ed@example.org').length === 2, 'the start e-mail');
    const start = smtp.to('ed@example.org')[1];
    expect(start.subject).toBe(`Watergate: your game ${matchID} has started`);
    expect(start.text).toContain(link);
    expect(start.html).toContain(`href="${link}"`);

    // Nixon watches the board: nothing for him.
    const bob = player(t.url, matchID, '1', creds['1']);
    await until(() => presence(matchID, '1'), 'Nixon connected');
    await playUntil(matchID, '1');
    // The Editor's turn again within the hour: no second e-mail for this match.
    await playUntil(matchID, '0');
    await settle();
    expect(smtp.to('nix@example.org')).toHaveLength(1);
    expect(smtp.to('ed@example.org')).toHaveLength(2);

    // Nixon closes the board: his turn now starts while he is away — one e-mail, with RFC 8058 headers.
    bob.stop();
    await until(async () => !(await presence(matchID, '1')), 'Nixon gone');
    await playUntil(matchID, '1');
    await until(() => smtp.to('nix@example.org').length === 2, "Nixon's turn e-mail");
    const turn = smtp.to('nix@example.org')[1];
    expect(turn.subject).toBe(`Watergate: your turn in match ${matchID}`);
    expect(turn.text).toContain(link);
    expect(turn.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsub = /^<(http:\/\/[^>]+)>$/.exec(turn.header('list-unsubscribe')!)![1];
    expect(turn.text).toContain(unsub);
    // Twice more his turn within the hour: still one.
    await playUntil(matchID, '0');
    await playUntil(matchID, '1');
    await settle();
    expect(smtp.to('nix@example.org')).toHaveLength(2);

    // The mail client's one-click POST: no cookie, no Origin, the RFC's body.
    const forged = unsub.replace(/\.turn\./, '.end.');
    expect((await fetch(forged, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(400);
    const gone = await fetch(unsub, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(gone.status).toBe(200);
    expect(await gone.text()).toBe('Done: no more e-mails about your turn. Your account page has every setting.');
    // A link scanner's GET changes nothing (it shows a button); the POST did.
    const page = await fetch(unsub);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form method="post">');
    expect((await nix.call('/auth/email')).body.prefs).toMatchObject({ turn: false, end: true });
    // Nothing about addresses in public data.
    expect(JSON.stringify((await api(t.url, `/games/watergate/${matchID}`)).body)).not.toMatch(/example\.org/);
  });

  it('a game that ends while a player is away: the result e-mail, with the rating change when rated', async () => {
    const fay = await withAddress('mail_fay', 'fay@example.org');
    const gil = await signUp(t.url, 'mail_gil');
    const { matchID, creds } = await accountMatch(fay, gil, true);
    // Both play from their boards (decisions count for the rating only when a player makes them).
    const players = { '0': player(t.url, matchID, '0', creds['0']), '1': player(t.url, matchID, '1', creds['1']) };
    await play(players, 8);
    expect(players['0'].state()!.ctx.gameover).toBeUndefined();
    // The Editor closes the board; Nixon resigns.
    players['0'].stop();
    await until(async () => !(await presence(matchID, '0')), 'the Editor gone');
    (players['1'].client.moves as Record<string, () => void>).resign();
    await until(() => smtp.to('fay@example.org').some((m) => m.subject.includes('is over')), 'the result e-mail');
    const end = smtp.to('fay@example.org').find((m) => m.subject.includes('is over'))!;
    expect(end.subject).toBe(`Watergate: game ${matchID} is over`);
    expect(end.text).toContain('You won.');
    const [rec] = await t.store.accounts.matchResults(matchID);
    expect(rec, String(rec.unratedReason)).toMatchObject({ side: '0', rated: true });
    const [b, a] = [Math.round(rec.ratingBefore!), Math.round(rec.ratingAfter!)];
    expect(a).toBeGreaterThan(b);
    expect(end.text).toContain(`Your rating: ${b} → ${a} (+${a - b}).`);
    expect(end.header('list-unsubscribe')).toMatch(/\.end\./);
    // Nixon was the one who acted (he is signed up without an address): nothing for him anywhere.
    expect(smtp.got.filter((m) => m.text.includes(matchID) && !m.to.includes('fay@example.org'))).toHaveLength(0);
    players['1'].stop();
  });

  it('a challenge by name (POST /api/challenge/:username) e-mails the challenged account', async () => {
    await withAddress('mail_hal', 'hal@example.org');
    const ivy = await signUp(t.url, 'mail_ivy');
    const r = await ivy.call('/api/challenge/mail_hal', { side: 'editor', clock: 'none' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await until(() => smtp.to('hal@example.org').length === 2, 'the challenge e-mail');
    const m = smtp.to('hal@example.org')[1];
    expect(m.subject).toBe('Watergate: mail_ivy challenges you');
    expect(m.text).toContain(`${t.url}/#/`);
    expect(m.header('list-unsubscribe')).toMatch(/\.challenge\./);
    // The challenger has no address: nothing for them.
    expect(smtp.got.filter((x) => x.subject.includes('mail_hal'))).toHaveLength(0);
  });

  it('speaks the player\'s language: pt-BR and zh-CN', async () => {
    const pt = await withAddress('mail_pt', 'pt@example.org', 'pt-BR');
    expect(smtp.to('pt@example.org')[0].subject).toBe('Watergate: confirme seu endereço de e-mail');
    const zh = await withAddress('mail_zh', 'zh@example.org', 'zh-CN');
    expect(smtp.to('zh@example.org')[0].subject).toBe('Watergate：确认你的电子邮件地址');
    // Notices too, in plain text and HTML (the HTML says its language).
    const { matchID } = await accountMatch(pt, zh);
    await until(() => smtp.to('pt@example.org').length === 2, 'the start e-mail in Portuguese');
    expect(smtp.to('pt@example.org')[1].subject).toBe(`Watergate: sua partida ${matchID} começou`);
    expect(smtp.to('pt@example.org')[1].html).toContain('lang="pt-BR"');
    await playUntil(matchID, '1');
    await until(() => smtp.to('zh@example.org').length === 2, 'the turn e-mail in Chinese');
    expect(smtp.to('zh@example.org')[1].subject).toBe(`Watergate：对局 ${matchID} 轮到你了`);
    expect(smtp.to('zh@example.org')[1].text).toContain('轮到你了。');
    // The unsubscribe page speaks the account's language too.
    const zhUnsub = /^<(.+)>$/.exec(smtp.to('zh@example.org')[1].header('list-unsubscribe')!)![1];
    expect(await (await fetch(zhUnsub)).text()).toContain('不再接收 Watergate 关于轮到你的邮件？');
    expect(await (await fetch(zhUnsub, { method: 'POST' })).text()).toContain('已完成');
    // An Accept-Language header chooses when the page sends none.
    const jo = await signUp(t.url, 'mail_jo');
    await jo.call('/auth/email', { email: 'jo@example.org' }, { 'accept-language': 'zh-CN,zh;q=0.9' });
    await until(() => smtp.to('jo@example.org').length === 1, 'the verification');
    expect(smtp.to('jo@example.org')[0].subject).toContain('确认');
  });

  it('a correspondence clock about to run out: one e-mail per decision to the absent account, whichever scan finds it', { timeout: 30_000 }, async () => {
    const s = await startTestServer('embedded', { mail: { smtpUrl: smtp.url, from: 'W <w@watergate.example>', pollMs: 200 }, clockWarnings: { scanMs: 150, warnMs: 2 * 86_400_000 } });
    try {
      const confirm = async (name: string, email: string) => {
        const who = await signUp(s.url, name);
        await who.call('/auth/email', { email, lang: 'pt-BR' });
        await until(() => smtp.to(email).length === 1, 'verification');
        await api(s.url, '/auth/email/verify', { token: linkToken(smtp.to(email)[0].text, 'verify-email') }, { origin: s.url });
        return who;
      };
      const ed = await confirm('clock_ed', 'clock-ed@example.org');
      const nix = await confirm('clock_nix', 'clock-nix@example.org');
      const made = await ed.call('/games/watergate/create', { rated: true, setupData: { clock: { initialSeconds: 86_400, incrementSeconds: 14_400 } } });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const matchID = made.body.matchID as string;
      for (const [seat, who] of [['0', ed], ['1', nix]] as const) expect((await who.call(`/games/watergate/${matchID}/join`, { playerID: seat })).status).toBe(200);
      await until(() => smtp.to('clock-ed@example.org').some((m) => m.subject.includes('relógio')), 'the clock e-mail', 20_000);
      await settle(1_000);
      const warned = smtp.to('clock-ed@example.org').filter((m) => m.subject.includes('relógio'));
      expect(warned).toHaveLength(1);
      expect(warned[0].subject).toBe(`Watergate: seu relógio está acabando na partida ${matchID}`);
      expect(warned[0].text).toMatch(/Seu relógio acaba em 24 h\./);
      expect(warned[0].header('list-unsubscribe')).toMatch(/\.clock\./);
      // Nixon's time is not running: nothing for him.
      expect(smtp.to('clock-nix@example.org').filter((m) => m.subject.includes('relógio'))).toHaveLength(0);
    } finally {
      await s.stop();
    }
  });

  it('the daily digest: no turn e-mail one by one, then one e-mail listing every match that waited', { timeout: 30_000 }, async () => {
    const s = await startTestServer('embedded', { mail: { smtpUrl: smtp.url, from: 'W <w@watergate.example>', pollMs: 200, digestMs: 3_000, digestScanMs: 200 } });
    try {
      const signed = async (name: string, email?: string) => {
        const who = await signUp(s.url, name);
        if (!email) return who;
        await who.call('/auth/email', { email });
        await until(() => smtp.to(email).length === 1, 'verification');
        await api(s.url, '/auth/email/verify', { token: linkToken(smtp.to(email)[0].text, 'verify-email') }, { origin: s.url });
        return who;
      };
      const ed = await signed('digest_ed', 'digest@example.org');
      const nix = await signed('digest_nix');
      expect((await ed.call('/auth/email/settings', { daily: true })).status).toBe(200);
      const matches: string[] = [];
      for (let i = 0; i < 2; i++) {
        const { matchID } = (await ed.call('/games/watergate/create', { rated: false })).body;
        for (const [seat, who] of [['0', ed], ['1', nix]] as const) expect((await who.call(`/games/watergate/${matchID}/join`, { playerID: seat })).status).toBe(200);
        matches.push(matchID);
      }
      await settle(1_000);
      // The games started with the Editor's decision while away: nothing yet.
      expect(smtp.to('digest@example.org')).toHaveLength(1);
      await until(() => smtp.to('digest@example.org').length === 2, 'the digest', 20_000);
      const d = smtp.to('digest@example.org')[1];
      expect(d.subject).toBe('Watergate: 2 matches wait for your move');
      for (const m of matches) {
        expect(d.text).toContain(`${s.url}/#/match/${m}`);
        expect(d.html).toContain(`href="${s.url}/#/match/${m}"`);
      }
      expect(d.header('list-unsubscribe')).toMatch(/\.turn\./);
      await settle(1_500);
      expect(smtp.to('digest@example.org')).toHaveLength(2);
    } finally {
      await s.stop();
    }
  });

  it('per-kind settings: a kind switched off sends nothing', async () => {
    const kim = await withAddress('mail_kim', 'kim@example.org');
    expect((await kim.call('/auth/email/settings', { challenge: false, daily: true })).body.prefs).toMatchObject({ challenge: false, daily: true });
    const id = (await t.store.accounts.byKey('mail_kim'))!.id;
    t.server.notices.noticeChallenge({ accountID: id, from: 'someone', link: `${t.url}/#/` });
    await settle();
    expect(smtp.to('kim@example.org')).toHaveLength(1);
  });
});

describe('account recovery', () => {
  it('forgot → reset: one answer for every case; the link works once; the new password signs in; old sessions and seat credentials are gone', async () => {
    const lee = await withAddress('mail_lee', 'lee@example.org');
    const other = await logIn(t.url, 'mail_lee');
    const mo = await signUp(t.url, 'mail_mo');
    const { matchID, creds } = await accountMatch(lee, mo);

    const answers = await Promise.all([
      api(t.url, '/auth/forgot', { username: 'mail_lee' }, { origin: t.url }),
      api(t.url, '/auth/forgot', { username: 'nobody_here' }, { origin: t.url }),
      api(t.url, '/auth/forgot', { email: 'nobody@example.org' }, { origin: t.url }),
      api(t.url, '/auth/forgot', { username: 'mail_mo' }, { origin: t.url }),
    ]);
    for (const a of answers) expect({ status: a.status, body: a.body }).toEqual({ status: 200, body: answers[0].body });
    await until(() => smtp.to('lee@example.org').some((m) => m.text.includes('#/reset/')), 'the reset e-mail');
    const mail = smtp.to('lee@example.org').find((m) => m.text.includes('#/reset/'))!;
    expect(mail.subject).toBe('Watergate: set a new password');
    // By address too (case folded).
    await api(t.url, '/auth/forgot', { email: 'LEE@example.org' }, { origin: t.url });
    await until(() => smtp.to('lee@example.org').filter((m) => m.text.includes('#/reset/')).length === 2, 'the second reset e-mail');
    const token = linkToken(mail.text, 'reset');

    expect((await api(t.url, '/auth/reset', { token, password: 'short' }, { origin: t.url })).status).toBe(400);
    const r = await api(t.url, '/auth/reset', { token, password: 'a brand new password' }, { origin: t.url });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ username: 'mail_lee' });
    // Single use; and the other link of the same account is void now.
    expect((await api(t.url, '/auth/reset', { token, password: 'another new password' }, { origin: t.url })).status).toBe(400);
    const second = linkToken(smtp.to('lee@example.org').filter((m) => m.text.includes('#/reset/'))[1].text, 'reset');
    expect((await api(t.url, '/auth/reset', { token: second, password: 'another new password' }, { origin: t.url })).status).toBe(400);

    expect((await lee.call('/auth/me')).status).toBe(401);
    expect((await other.call('/auth/me')).status).toBe(401);
    await expect(logIn(t.url, 'mail_lee')).rejects.toThrow(/401/);
    const back = await logIn(t.url, 'mail_lee', 'a brand new password');
    expect((await back.call('/auth/me')).body.username).toBe('mail_lee');
    // The seat's old credentials no longer move.
    const meta = (await stored(t.store, matchID)).metadata;
    expect(meta.players[0].credentials).not.toBe(creds['0']);
    expect(meta.players[1].credentials).toBe(creds['1']);
  });

  it('an expired link is refused', async () => {
    await withAddress('mail_ned', 'ned@example.org');
    const id = (await t.store.accounts.byKey('mail_ned'))!.id;
    const { newToken, tokenHash } = await import('../../server/mail/tokens');
    const token = newToken();
    await t.store.mail.addToken({ hash: tokenHash(token), accountID: id, kind: 'reset', address: 'ned@example.org', expiresAt: Date.now() - 1 });
    expect((await api(t.url, '/auth/reset', { token, password: 'a brand new password' }, { origin: t.url })).status).toBe(400);
    // A verification token is no reset token.
    const v = newToken();
    await t.store.mail.addToken({ hash: tokenHash(v), accountID: id, kind: 'verify', address: 'ned@example.org', expiresAt: Date.now() + 60_000 });
    expect((await api(t.url, '/auth/reset', { token: v, password: 'a brand new password' }, { origin: t.url })).status).toBe(400);
  });

  it('forgot is limited per asking address (429 for everyone alike) and per account (nothing more sent, same answer)', async () => {
    const s = await startTestServer('embedded', { mail: { smtpUrl: smtp.url, from: 'W <w@watergate.example>', pollMs: 200 }, limits: { mail: { points: 6, seconds: 3600 } } });
    try {
      const oz = await signUp(s.url, 'mail_oz');
      await oz.call('/auth/email', { email: 'oz@example.org' });
      await until(() => smtp.to('oz@example.org').length === 1, 'verification');
      await api(s.url, '/auth/email/verify', { token: linkToken(smtp.to('oz@example.org')[0].text, 'verify-email') }, { origin: s.url });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await api(s.url, '/auth/forgot', { username: 'mail_oz' }, { origin: s.url })).status);
      // One went to the verification; the account's own bound (3 an hour) stops the e-mails first.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      await settle();
      expect(smtp.to('oz@example.org').filter((m) => m.text.includes('#/reset/'))).toHaveLength(2);
      expect((await api(s.url, '/auth/forgot', { username: 'not_a_user' }, { origin: s.url })).status).toBe(429);
    } finally {
      await s.stop();
    }
  });
});

describe('hostile input', () => {
  it('refuses wrong types, unknown fields, huge bodies and header injection on every route; nothing is sent', async () => {
    const pat = await signUp(t.url, 'mail_pat');
    const before = smtp.got.length;
    const bad: [string, unknown][] = [
      ['/auth/email', { email: 'x@example.org\r\nBcc: victim@example.org' }],
      ['/auth/email', { email: 'x@example.org\nSubject: hi' }],
      ['/auth/email', { email: '"a b"@example.org' }],
      ['/auth/email', { email: 'a@b@example.org' }],
      ['/auth/email', { email: 'x@example.org>, <y@example.org' }],
      ['/auth/email', { email: 'x@localhost' }],
      ['/auth/email', { email: `${'a'.repeat(250)}@example.org` }],
      ['/auth/email', { email: ['a@example.org'] }],
      ['/auth/email', { email: 42 }],
      ['/auth/email', { email: 'a@example.org', bcc: 'b@example.org' }],
      ['/auth/email', []],
      ['/auth/email/settings', { turn: 'no' }],
      ['/auth/email/settings', { spam: true }],
      ['/auth/email/verify', { token: { $ne: null } }],
      ['/auth/email/verify', { token: 'x'.repeat(5000) }],
      ['/auth/forgot', { username: 'mail_pat', email: 'a@example.org' }],
      ['/auth/forgot', {}],
      ['/auth/forgot', { username: ['mail_pat'] }],
      ['/auth/forgot', { email: 'pat@example.org\r\nBcc: x@example.org' }],
      ['/auth/reset', { token: 42, password: 'a brand new password' }],
      ['/auth/reset', { token: 'A'.repeat(43), password: 12345678 }],
      ['/auth/reset', { token: 'A'.repeat(43), password: 'a brand new password', extra: 1 }],
    ];
    for (const [path, body] of bad) {
      const r = await pat.call(path, body);
      expect([400, 409, 413], `${path} ${JSON.stringify(body)}: ${r.status}`).toContain(r.status);
      expect(typeof r.body.error).toBe('string');
    }
    const huge = await pat.call('/auth/email', { email: `${'a'.repeat(200_000)}@example.org` });
    expect([400, 413]).toContain(huge.status);
    expect((await api(t.url, '/auth/forgot', 'not json', { origin: t.url, 'content-type': 'application/json' })).status).toBe(400);
    for (const tok of ['nope', `x.turn.${'A'.repeat(43)}`, `${'a'.repeat(300)}`, 'a.b.c']) expect((await fetch(`${t.url}/auth/unsubscribe/${tok}`, { method: 'POST' })).status).toBe(400);
    // Signed out: the account routes ask to sign in.
    expect((await api(t.url, '/auth/email', { email: 'a@example.org' }, { origin: t.url })).status).toBe(401);
    await settle();
    expect(smtp.got.length).toBe(before);
    expect(t.logs.join('\n')).not.toContain('victim@example.org');
  });
});

describe('without SMTP', () => {
  it('e-mail is unavailable (the account page hides it) and everything else works', async () => {
    const s = await startTestServer('embedded');
    try {
      expect((await api(s.url, '/auth/email')).body).toEqual({ available: false });
      const q = await signUp(s.url, 'mail_quin');
      expect((await q.call('/auth/email', { email: 'q@example.org' })).status).toBe(404);
      expect((await api(s.url, '/auth/forgot', { username: 'mail_quin' }, { origin: s.url })).status).toBe(404);
      expect((await q.call('/auth/me')).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('SMTP_URL and MAIL_FROM are checked together at start; the message never repeats a password', () => {
    expect(configFromEnv({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Watergate <noreply@example.org>' }).mail).toEqual({ smtpUrl: 'smtp://127.0.0.1:2525', from: 'Watergate <noreply@example.org>' });
    expect(configFromEnv({}).mail).toBeUndefined();
    expect(() => configFromEnv({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(/MAIL_FROM/);
    expect(() => configFromEnv({ SMTP_URL: 'http://u:secret@x', MAIL_FROM: 'a@example.org' })).toThrow(/SMTP_URL/);
    try {
      configFromEnv({ SMTP_URL: 'ftp://u:hunter2@x', MAIL_FROM: 'a@example.org' });
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
    }
    expect(() => configFromEnv({ SMTP_URL: 'smtp://x', MAIL_FROM: 'a@example.org\r\nBcc: b@example.org' })).toThrow(/MAIL_FROM/);
  });
});

describe.skipIf(!(await postgresAvailable()))('on PostgreSQL', () => {
  it('address, confirmation, the hourly turn bound, one confirmed owner per address, reset and unsubscribe work the same', { timeout: 60_000 }, async () => {
    const p = await startTestServer('postgres', { mail: { smtpUrl: smtp.url, from: 'W <w@watergate.example>', pollMs: 200 } });
    try {
      const confirm = async (name: string, email: string) => {
        const s = await signUp(p.url, name);
        await s.call('/auth/email', { email });
        await until(() => smtp.to(email).length === 1, 'verification');
        return { s, v: await api(p.url, '/auth/email/verify', { token: linkToken(smtp.to(email)[0].text, 'verify-email') }, { origin: p.url }) };
      };
      const { s: ray, v } = await confirm('pg_ray', 'ray@pg.example');
      expect(v.status).toBe(200);
      expect((await confirm('pg_sam', 'RAY@pg.example')).v.status).toBe(409);
      const id = (await p.store.accounts.byKey('pg_ray'))!.id;
      expect(await p.store.mail.once(`x:${id}`, 1_000, 3_600_000)).toBe(true);
      expect(await p.store.mail.once(`x:${id}`, 2_000, 3_600_000)).toBe(false);
      expect(await p.store.mail.once(`x:${id}`, 3_700_000, 3_600_000)).toBe(true);
      // The digest's waiting matches: once each, taken once.
      await p.store.mail.addDigest(id, 'm1', 1_000);
      await p.store.mail.addDigest(id, 'm1', 2_000);
      await p.store.mail.addDigest(id, 'm2', 3_000);
      expect((await p.store.mail.takeDigests(500, 10)).size).toBe(0);
      const [first, again] = await Promise.all([p.store.mail.takeDigests(1_000, 10), p.store.mail.takeDigests(1_000, 10)]);
      expect([...first.values(), ...again.values()].flat().sort()).toEqual(['m1', 'm2']);
      await api(p.url, '/auth/forgot', { email: 'ray@pg.example' }, { origin: p.url });
      await until(() => smtp.to('ray@pg.example').length === 2, 'the reset e-mail');
      const token = linkToken(smtp.to('ray@pg.example')[1].text, 'reset');
      expect((await api(p.url, '/auth/reset', { token, password: 'a brand new password' }, { origin: p.url })).status).toBe(200);
      expect((await api(p.url, '/auth/reset', { token, password: 'a brand new password' }, { origin: p.url })).status).toBe(400);
      expect((await ray.call('/auth/me')).status).toBe(401);
      const back = await logIn(p.url, 'pg_ray', 'a brand new password');
      p.server.notices.noticeChallenge({ accountID: id, from: 'pg_sam', link: `${p.url}/#/` });
      await until(() => smtp.to('ray@pg.example').length === 3, 'the challenge e-mail');
      const unsub = /^<(.+)>$/.exec(smtp.to('ray@pg.example')[2].header('list-unsubscribe')!)![1];
      expect((await fetch(unsub, { method: 'POST' })).status).toBe(200);
      expect(await (await fetch(unsub)).text()).toContain('Stop e-mails from Watergate about challenges?');
      expect((await back.call('/auth/email')).body.prefs.challenge).toBe(false);
    } finally {
      await p.stop();
    }
  });
});
