/**
 * Accounts over HTTP (docs/SECURITY.md "Accounts"): sign-up, sign-in (one answer, and about one time, for
 * an unknown name and a wrong password), sign-out here or everywhere, the account itself, its password,
 * its turn-notification webhook, and deleting it. Every body is checked field by field; sign-up and
 * sign-in are limited per address, and wrong passwords slow down the (username, address) that made them
 * under a per-username ceiling (guesses.ts; 429 with Retry-After). A look-alike of an existing username
 * (storage/lookalike.ts) is refused like a taken one.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import { checkUsername, DELETED_PLAYER, nameKey, USERNAME, USERNAME_LOOKALIKE, type Me } from '../../protocol/accounts';
import { seatEntry } from '../../protocol/index';
import { checkName } from '../../protocol/names';
import { enforce, type Limiter } from '../limits';
import * as v from '../lobby/validate';
import type { MatchService } from '../match/service';
import { checked } from '../notify/register';
import { seatAccount, type Account, type AccountStore } from '../storage/accounts';
import type { MatchData } from '../storage/types';
import { endByExit } from '../lobby/exits';
import { HttpError } from '../storage/errors';
import { seatPresenceCleared } from '../match/presence';
import { generateCredentials } from '../auth';
import { mayGuess, rightGuess, wrongGuess } from './guesses';
import { checkPassword, hashPassword, PASSWORD } from './password';
import { signedIn, type Sessions } from './session';

/** The one answer to a failed sign-in, whatever failed. */
export const LOGIN_REFUSED = 'wrong username or password';

/** The name typed at sign-in as a key: white space around it dropped (no username has any) after folding. */
const loginKey = (typed: string) => nameKey(typed).trim();

export function username(raw: unknown): string {
  if (typeof raw !== 'string') throw new HttpError(400, 'username is required and must be a string');
  const c = checkName(raw);
  if ('problem' in c) throw new HttpError(400, `username ${c.problem}`);
  const u = checkUsername(c.name);
  if ('name' in u) return u.name;
  if (u.code === 'scripts') throw new HttpError(400, 'username must not mix Latin, Cyrillic, Greek or Armenian letters: their look-alikes pass for one another (one script per username)');
  throw new HttpError(400, `username must be ${USERNAME.min} to ${USERNAME.max} letters, digits, "_", "-" or "."`);
}

export function password(raw: unknown, field = 'password'): string {
  if (typeof raw !== 'string' || raw.length < PASSWORD.min || raw.length > PASSWORD.max) throw new HttpError(400, `${field} must be ${PASSWORD.min} to ${PASSWORD.max} characters`);
  return raw;
}

export interface AuthDeps {
  router: Router;
  json: Router.Middleware;
  accounts: AccountStore;
  sessions: Sessions;
  limiter: Limiter;
  service: MatchService;
  /** log2 of scrypt's N for new password hashes (PASSWORD_COST). */
  passwordCost: number;
  /** Sessions of the account ended (or the account went): what they opened closes now (the event streams). */
  sessionsEnded?: (accountID: string) => void;
}

/** The client's address, the key of its limits (set by the server for every request). */
export const address = (ctx: Koa.Context) => String(ctx.state.clientAddress ?? ctx.ip);

/**
 * Whether `typed` is the account's password (null when it has none). Counted as a sign-in, per address
 * and as a guess at the username (guesses.ts): a session (a stolen one too) guesses no faster here than
 * at the sign-in form.
 */
export async function confirmPassword(ctx: Koa.Context, d: { accounts: AccountStore; limiter: Limiter; passwordCost: number }, a: Account, typed: unknown): Promise<boolean | null> {
  const stored = (await d.accounts.byID(a.id))?.password ?? null;
  if (stored === null) return null;
  const key = nameKey(a.username);
  await enforce(d.limiter, 'login', address(ctx));
  await mayGuess(d.limiter, key, address(ctx));
  const ok = typeof typed === 'string' && typed.length <= PASSWORD.max && (await checkPassword(typed, stored, address(ctx), d.passwordCost));
  await (ok ? rightGuess(d.limiter, key, address(ctx)) : wrongGuess(d.limiter, key, address(ctx)));
  return ok;
}

/**
 * Ends every session of the account and gives every seat it holds in a match still in play new
 * credentials (sign out everywhere; a password reset by e-mail does the same: server/mail/routes.ts).
 */
export async function signOutEverywhere(accounts: AccountStore, service: MatchService, accountID: string): Promise<void> {
  await accounts.dropSessions(accountID);
  for (const l of await accounts.heldSeats(accountID)) {
    if (l.metadata.gameover !== undefined) continue;
    await service.changeMetadata(l.matchID, (m) => {
      const seat = seatEntry(m.players, l.seat);
      if (m.gameover !== undefined || seatAccount(seat)?.id !== accountID || !seat.credentials) return m;
      return { ...m, players: { ...m.players, [l.seat]: { ...seat, credentials: generateCredentials() } } };
    });
  }
}

export function addAuthRoutes({ router, json, accounts, sessions, limiter, service, passwordCost, sessionsEnded }: AuthDeps): void {
  router.post('/auth/signup', async (ctx, next) => (await enforce(limiter, 'signup', address(ctx)), next()), json, async (ctx) => {
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['username', 'password']);
    const name = username(b.username);
    const hash = await hashPassword(password(b.password), address(ctx), passwordCost);
    const id = randomBytes(12).toString('base64url');
    if (!(await accounts.create({ id, username: name, key: nameKey(name), password: hash, createdAt: Date.now() }))) {
      if (await accounts.byKey(nameKey(name))) throw new HttpError(409, `the username ${name} is taken`);
      throw new HttpError(409, USERNAME_LOOKALIKE);
    }
    await sessions.start(ctx, id);
    ctx.body = { username: name };
  });

  router.post('/auth/login', async (ctx, next) => (await enforce(limiter, 'login', address(ctx)), next()), json, async (ctx) => {
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['username', 'password']);
    if (typeof b.username !== 'string' || b.username.length > 200 || typeof b.password !== 'string' || b.password.length > PASSWORD.max) throw new HttpError(400, 'username and password are required strings');
    // One key for the limits and the lookup: " Ann", "ANN" and "ａｎｎ" are one name to a guesser too.
    const key = loginKey(b.username);
    await mayGuess(limiter, key, address(ctx));
    const a = await accounts.byKey(key);
    // An unknown name checks a decoy hash: both refusals take as long and say the same.
    if (!(await checkPassword(b.password, a?.password ?? null, address(ctx), passwordCost)) || !a) {
      await wrongGuess(limiter, key, address(ctx));
      throw new HttpError(401, LOGIN_REFUSED);
    }
    await rightGuess(limiter, key, address(ctx));
    await sessions.start(ctx, a.id);
    ctx.body = { username: a.username };
  });

  router.post('/auth/logout', async (ctx) => {
    const a = ctx.state.account as Account | undefined;
    await sessions.end(ctx);
    if (a) sessionsEnded?.(a.id);
    ctx.body = {};
  });

  // Every session ends, and every seat the account holds in a match still in play gets new credentials:
  // whoever read them (/me/matches) from a stolen session can no longer move or chat with them (their
  // sockets are moved to the spectators at once); the owner reads the new ones after signing in again.
  router.post('/auth/logout-all', async (ctx) => {
    const a = signedIn(ctx);
    await signOutEverywhere(accounts, service, a.id);
    await sessions.end(ctx);
    sessionsEnded?.(a.id);
    ctx.body = {};
  });

  const meOf = async (a: Account): Promise<Me> => ({ username: a.username, hasPassword: a.hasPassword, passkeys: (await accounts.passkeys(a.id)).length, webhook: a.settings.notify?.webhook ?? null });
  router.get('/auth/me', async (ctx) => {
    ctx.body = await meOf(signedIn(ctx));
  });
  // The same, for pages that ask before they know: signed out is an answer here, not an error.
  router.get('/auth/session', async (ctx) => {
    const a = ctx.state.account as Account | undefined;
    ctx.body = { me: a ? await meOf(a) : null };
  });

  const confirmed = (ctx: Koa.Context, a: Account, typed: unknown) => confirmPassword(ctx, { accounts, limiter, passwordCost }, a, typed);

  // A new password ends every other session (a thief's too); this one stays. With removePasskeys every
  // passkey goes too (one a thief added would otherwise still sign in). Seat credentials stay: the
  // owner's games on other devices go on; "sign out everywhere" is what renews them (docs/SECURITY.md).
  router.post('/auth/password', json, async (ctx) => {
    const a = signedIn(ctx);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['password', 'newPassword', 'removePasskeys']);
    const fresh = password(b.newPassword, 'newPassword');
    const dropKeys = v.optionalBoolean(b.removePasskeys, 'removePasskeys');
    if ((await confirmed(ctx, a, b.password)) === false) throw new HttpError(403, 'the current password is wrong');
    await accounts.setPassword(a.id, await hashPassword(fresh, address(ctx), passwordCost));
    await accounts.dropSessions(a.id, sessions.current(ctx));
    sessionsEnded?.(a.id);
    if (dropKeys) await accounts.removePasskeys(a.id);
    ctx.body = {};
  });

  // The account's turn notifications, for every seat it holds (one place).
  router.post('/me/settings', json, async (ctx) => {
    const a = signedIn(ctx);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['webhook']);
    const notify = checked(b.webhook, 'webhook', ctx);
    await accounts.setSettings(a.id, { ...a.settings, notify: notify ?? undefined });
    ctx.body = { webhook: notify?.webhook ?? null };
  });

  // Deleting: the password (or, without one, the username typed again) confirms it. Every session ends
  // first (none of them takes a seat meanwhile); a rated game in play is lost or aborted as leaving it
  // would be (match/ending.ts), while the account still exists to carry the result; then the account goes
  // with its seat links in one transaction (a join racing it either committed before — its seat is among
  // those returned — or finds no account and is refused), and those seats are let go as "Leave" does;
  // finished matches name the player "deleted player".
  router.post('/auth/delete', json, async (ctx) => {
    const a = signedIn(ctx);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['password', 'confirm']);
    const ok = await confirmed(ctx, a, b.password);
    if (ok === false) throw new HttpError(403, 'the password is wrong');
    if (ok === null && b.confirm !== a.username) throw new HttpError(403, 'type your username to confirm');
    await accounts.dropSessions(a.id);
    for (const l of await accounts.heldSeats(a.id)) {
      if (l.metadata.gameover !== undefined) continue;
      // A seat someone else holds now (the account left it meanwhile) is not the account's to lose.
      const notMine = new HttpError(409, 'no longer the account\'s seat');
      const mine = (m: MatchData) => {
        if (seatAccount(seatEntry(m.players, l.seat))?.id !== a.id) throw notMine;
        return null;
      };
      await endByExit(service, l.matchID, l.seat, 'leave', null, mine).catch((e: unknown) => {
        if (e !== notMine) throw e;
      });
    }
    for (const l of await accounts.remove(a.id, DELETED_PLAYER)) {
      await service.changeMetadata(l.matchID, (m) => {
        const seat = seatEntry(m.players, l.seat);
        if (seatAccount(seat)?.id !== a.id) return m;
        // Finished: the words "deleted player" and nothing else of the player (no webhook, no credentials).
        if (m.gameover !== undefined) return { ...m, players: { ...m.players, [l.seat]: { id: seat.id, name: DELETED_PLAYER } } };
        return { ...m, players: { ...m.players, [l.seat]: { id: seat.id } }, ...seatPresenceCleared(m, l.seat), updatedAt: Date.now() };
      });
    }
    await sessions.end(ctx);
    sessionsEnded?.(a.id);
    ctx.body = {};
  });
}
