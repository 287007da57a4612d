/**
 * E-mail over HTTP (docs/SECURITY.md "E-mail"): an account's address and its verification, per-kind
 * settings, one-click unsubscribe (RFC 8058, no sign-in), and password recovery.
 *
 * - `GET /auth/email`: whether e-mail is available on this server (SMTP_URL set), and the signed-in
 *   account's address, whether verified, its settings.
 * - `POST /auth/email {email, lang?}` (signed in): sets the address (null or '' removes it) and sends a
 *   link valid 24 h; resending is bounded per account (`mailTo`) and per asker (`mail`).
 * - `POST /auth/email/verify {token}`, `POST /auth/email/settings {turn?, challenge?, end?, clock?, daily?, lang?}`.
 * - `GET|POST /auth/unsubscribe/:token`: the GET shows a button (a link opened by a mail scanner changes
 *   nothing); the POST switches that kind off.
 * - `POST /auth/forgot {username | email}`: the same answer whether or not the account or address exists;
 *   a link valid 30 min goes to the account's verified address.
 * - `POST /auth/reset {token, password}`: sets the password, ends every session, renews seat credentials.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { nameKey } from '../../protocol/accounts';
import { signOutEverywhere, address, password } from '../accounts/routes';
import { hashPassword } from '../accounts/password';
import { signedIn } from '../accounts/session';
import { enforce, type Limiter } from '../limits';
import * as v from '../lobby/validate';
import type { MatchService } from '../match/service';
import type { Account, AccountStore } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { MailRows } from '../storage/mail';
import { escapeHtml, mailLang, NOTICE_KINDS, render, unsubscribeWords } from './messages';
import type { MailQueue } from './queue';
import { isToken, newToken, readUnsubscribe, tokenHash } from './tokens';

export const VERIFY_MS = 24 * 3_600_000;
export const RESET_MS = 30 * 60_000;
export const EMAIL_MAX = 254;

/**
 * An address we send to: printable ASCII without spaces, quotes, angle brackets or CR/LF (nothing that
 * could end a header or add a recipient), one @, a dotted domain. Stricter than RFC 5321 on purpose.
 */
export function emailAddress(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > EMAIL_MAX || !/^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/.test(raw))
    throw new HttpError(400, `email must be an e-mail address (at most ${EMAIL_MAX} characters)`);
  return raw;
}
const addressKey = (a: string) => a.toLowerCase();

export interface MailRouteDeps {
  router: Router;
  json: Router.Middleware;
  accounts: AccountStore;
  service: MatchService;
  limiter: Limiter;
  passwordCost: number;
  /** Null when SMTP_URL is not set: the routes answer that e-mail is unavailable. */
  mail: { rows: MailRows; queue: MailQueue } | null;
  /** The address links point at (PUBLIC_URL, else the listen address). */
  base: () => string;
  /** A reset ended the account's sessions: what they opened closes now (the event streams). */
  sessionsEnded?: (accountID: string) => void;
}

export function addMailRoutes(d: MailRouteDeps): void {
  const { router, json } = d;
  const need = () => {
    if (!d.mail) throw new HttpError(404, 'e-mail is not set up on this server');
    return d.mail;
  };
  /** Counts one e-mail to the account; false past its limit (the caller then sends nothing, and says the same). */
  const mayMail = (accountID: string) => d.limiter.take('mailTo', accountID).then((wait) => wait === 0);
  const asked = (ctx: Koa.Context) => enforce(d.limiter, 'mail', address(ctx));

  router.get('/auth/email', async (ctx) => {
    const a = ctx.state.account as Account | undefined;
    if (!d.mail) return void (ctx.body = { available: false });
    const m = a ? await d.mail.rows.address(a.id) : undefined;
    const prefs = Object.fromEntries([...NOTICE_KINDS.map((k) => [k, m?.prefs[k] !== false]), ['daily', m?.prefs.daily === true]]);
    ctx.body = { available: true, email: m?.address ?? null, verified: m?.verified ?? false, lang: m?.lang ?? null, prefs };
  });

  router.post('/auth/email', json, async (ctx) => {
    const a = signedIn(ctx);
    const { rows, queue } = need();
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['email', 'lang']);
    if (b.email === null || b.email === '') {
      await rows.removeAddress(a.id);
      return void (ctx.body = { email: null });
    }
    const email = emailAddress(b.email);
    const lang = mailLang(b.lang ?? ctx.get('Accept-Language'));
    await asked(ctx);
    if (!(await mayMail(a.id))) throw new HttpError(429, 'too many e-mails to this account: try again in an hour');
    await rows.setAddress(a.id, email, addressKey(email), lang);
    const token = newToken();
    await rows.addToken({ hash: tokenHash(token), accountID: a.id, kind: 'verify', address: email, expiresAt: Date.now() + VERIFY_MS });
    await queue.enqueue({ accountID: a.id, kind: 'verify', to: email, ...render(lang, { kind: 'verify', link: `${d.base()}/#/verify-email/${token}` }) });
    ctx.body = { email, verified: false };
  });

  router.post('/auth/email/verify', json, async (ctx) => {
    const { rows } = need();
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['token']);
    const t = isToken(b.token) ? await rows.takeToken(tokenHash(b.token), 'verify', Date.now()) : undefined;
    if (!t) throw new HttpError(400, 'this link is unknown, used or expired: ask for a new one from your account page');
    if (!(await rows.verify(t.accountID, t.address))) throw new HttpError(409, 'this address is already confirmed for another account, or was changed since');
    ctx.body = { verified: true };
  });

  router.post('/auth/email/settings', json, async (ctx) => {
    const a = signedIn(ctx);
    const { rows } = need();
    const b = v.body(ctx.request.body);
    v.allowOnly(b, [...NOTICE_KINDS, 'daily', 'lang']);
    const m = await rows.address(a.id);
    if (!m) throw new HttpError(409, 'set an e-mail address first');
    const prefs = { ...m.prefs };
    for (const k of [...NOTICE_KINDS, 'daily']) {
      const on = v.optionalBoolean(b[k], k);
      if (on !== undefined) prefs[k] = on;
    }
    if (b.lang !== undefined && (typeof b.lang !== 'string' || b.lang.length > 20)) throw new HttpError(400, 'lang must be a language code');
    await rows.setPrefs(a.id, prefs, b.lang === undefined ? undefined : mailLang(b.lang));
    ctx.body = { prefs };
  });

  const unsubscribe = async (ctx: Koa.Context) => {
    const { rows } = need();
    return readUnsubscribe(await rows.signingKey(), ctx.params.token);
  };
  // The page is in the account's language (the link names the account), else the browser's.
  const pageLang = async (ctx: Koa.Context, accountID: string) => mailLang((await need().rows.address(accountID))?.lang ?? ctx.get('Accept-Language'));
  router.get('/auth/unsubscribe/:token', async (ctx) => {
    const u = await unsubscribe(ctx);
    if (!u) throw new HttpError(400, 'unknown unsubscribe link');
    const lang = await pageLang(ctx, u.accountID);
    const w = unsubscribeWords(lang, u.kind);
    ctx.type = 'html';
    // A link scanner's GET changes nothing: the button POSTs (same origin, so the Origin check passes).
    ctx.body = `<!doctype html><html lang="${lang}"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Watergate</title>
<form method="post"><p>${escapeHtml(w.ask)}</p><button type="submit">${escapeHtml(w.button)}</button></form></html>`;
  });
  router.post('/auth/unsubscribe/:token', async (ctx) => {
    const u = await unsubscribe(ctx);
    if (!u) throw new HttpError(400, 'unknown unsubscribe link');
    const { rows } = need();
    const m = await rows.address(u.accountID);
    if (m) await rows.setPrefs(u.accountID, { ...m.prefs, [u.kind]: false });
    // A form POST shows this text; a mail client's one-click POST reads only the status.
    ctx.type = 'text';
    ctx.body = unsubscribeWords(await pageLang(ctx, u.accountID), u.kind).done;
  });

  router.post('/auth/forgot', json, async (ctx) => {
    const { rows, queue } = need();
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['username', 'email']);
    if ((b.username === undefined) === (b.email === undefined)) throw new HttpError(400, 'give either username or email');
    let accountID: string | undefined;
    if (b.username !== undefined) {
      if (typeof b.username !== 'string' || b.username.length > 200) throw new HttpError(400, 'username must be a string');
      await asked(ctx);
      accountID = (await d.accounts.byKey(nameKey(b.username).trim()))?.id;
    } else {
      const email = emailAddress(b.email);
      await asked(ctx);
      accountID = await rows.byAddress(addressKey(email));
    }
    const m = accountID ? await rows.address(accountID) : undefined;
    // Sent only to a verified address, at most `mailTo` an hour; the answer is the same in every case.
    if (accountID && m?.verified && (await mayMail(accountID))) {
      const token = newToken();
      await rows.addToken({ hash: tokenHash(token), accountID, kind: 'reset', address: m.address, expiresAt: Date.now() + RESET_MS });
      await queue.enqueue({ accountID, kind: 'reset', to: m.address, ...render(mailLang(m.lang), { kind: 'reset', link: `${d.base()}/#/reset/${token}` }) });
    }
    ctx.body = { sent: 'if this account has a confirmed e-mail address, a link valid 30 minutes is on its way' };
  });

  router.post('/auth/reset', json, async (ctx) => {
    const { rows } = need();
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['token', 'password']);
    const fresh = password(b.password);
    await asked(ctx);
    const t = isToken(b.token) ? await rows.takeToken(tokenHash(b.token), 'reset', Date.now()) : undefined;
    if (!t) throw new HttpError(400, 'this link is unknown, used or expired: ask for a new one');
    const a = await d.accounts.byID(t.accountID);
    if (!a) throw new HttpError(400, 'this link is unknown, used or expired: ask for a new one');
    await d.accounts.setPassword(a.id, await hashPassword(fresh, address(ctx), d.passwordCost));
    await rows.dropTokens(a.id, 'reset');
    await signOutEverywhere(d.accounts, d.service, a.id);
    d.sessionsEnded?.(a.id);
    ctx.body = { username: a.username };
  });
}
