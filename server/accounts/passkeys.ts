/**
 * Passkeys (WebAuthn, @simplewebauthn/server): a signed-in player adds one — with the password, or within
 * RECENT_SIGN_IN_MS of signing in on this session, so a stolen session cannot add the thief's own — and
 * lists, names and removes them; anyone signs in with one (a discoverable credential: the authenticator
 * says whose it is). Each ceremony has a challenge kept server-side for 5 minutes and used once (any
 * process may finish it). The relying party is the page's own origin, which the server already checked
 * against its own origins (PUBLIC_URL, or the listen address). Stored per passkey: its id, public key,
 * signature counter, transports, name, when added and last used — nothing secret.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { enforce, type Limiter } from '../limits';
import * as v from '../lobby/validate';
import type { AccountStore } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import { PASSKEY_NAME, PASSKEY_NEEDS_PASSWORD, RECENT_SIGN_IN_MS, type PasskeyView } from '../../protocol/accounts';
import { checkName } from '../../protocol/names';
import type { Passkey } from '../storage/accounts';
import { address, confirmPassword, LOGIN_REFUSED } from './routes';
import { hashOf, signedIn, type Sessions } from './session';

const CHALLENGE_MS = 5 * 60_000;
/** A WebAuthn response is a few kilobytes of base64url at most. */
const MAX_RESPONSE_CHARS = 8_000;

/** The page's origin (already allowed by the server) and its host name, the relying party's id. */
function party(ctx: Koa.Context): { origin: string; rpID: string } {
  const origin = ctx.get('Origin');
  if (!origin) throw new HttpError(400, 'passkeys are used from the browser page (an Origin header is required)');
  return { origin, rpID: new URL(origin).hostname };
}

function response(raw: unknown): Record<string, unknown> & { id: string } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || JSON.stringify(raw).length > MAX_RESPONSE_CHARS) throw new HttpError(400, 'response must be the browser\'s WebAuthn answer');
  const r = raw as { id?: unknown };
  if (typeof r.id !== 'string' || !/^[A-Za-z0-9_-]{1,1400}$/.test(r.id)) throw new HttpError(400, 'response.id must be a credential id');
  return raw as Record<string, unknown> & { id: string };
}

function challengeID(raw: unknown): string {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(raw)) throw new HttpError(400, 'ceremony must be the id the options came with');
  return raw;
}

/** A passkey's id in the owner's list and its URL: short, and not the credential id itself. */
const shortID = (p: Passkey) => hashOf(p.id).slice(0, 16);

const view = (p: Passkey, i: number): PasskeyView => ({ id: shortID(p), name: p.name ?? `Passkey ${i + 1}`, addedAt: p.createdAt, lastUsedAt: p.lastUsedAt });

/** A passkey's name as the owner typed it, by the rules of a seat name (no control or invisible characters, PASSKEY_NAME.max at most); none: a default. */
function passkeyName(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw new HttpError(400, `name must be a string of at most ${PASSKEY_NAME.max} characters`);
  const c = checkName(raw);
  // The computer's name is refused for seats only: a passkey may be called "Computer".
  if ('problem' in c && c.code !== 'computer') throw new HttpError(400, `name ${c.problem}`);
  return 'name' in c ? c.name : raw.normalize('NFC').trim();
}

export function addPasskeyRoutes(o: { router: Router; json: Router.Middleware; accounts: AccountStore; sessions: Sessions; limiter: Limiter; passwordCost: number }): void {
  const { router, json, accounts, sessions, limiter, passwordCost } = o;
  const begin = async (challenge: string, accountID: string | null) => {
    const id = randomBytes(16).toString('base64url');
    await accounts.putChallenge({ id, challenge, accountID, expiresAt: Date.now() + CHALLENGE_MS });
    return id;
  };

  // The password, or a sign-in on this very session within RECENT_SIGN_IN_MS (a passkey-only account has
  // only the latter): a session alone, stolen or left open, adds no passkey.
  router.post('/auth/passkey/register/options', json, async (ctx) => {
    const a = signedIn(ctx);
    const b = v.body(ctx.request.body ?? {});
    v.allowOnly(b, ['password']);
    const { rpID } = party(ctx);
    const recent = Date.now() - Number(ctx.state.signedInAt ?? 0) < RECENT_SIGN_IN_MS;
    if (b.password !== undefined) {
      const ok = await confirmPassword(ctx, { accounts, limiter, passwordCost }, a, b.password);
      if (ok === false) throw new HttpError(403, 'the password is wrong');
      if (ok === null && !recent) throw new HttpError(403, PASSKEY_NEEDS_PASSWORD);
    } else if (!recent) throw new HttpError(403, PASSKEY_NEEDS_PASSWORD);
    const existing = await accounts.passkeys(a.id);
    const options = await generateRegistrationOptions({
      rpName: 'Watergate',
      rpID,
      userName: a.username,
      userID: new TextEncoder().encode(a.id),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    ctx.body = { ceremony: await begin(options.challenge, a.id), options };
  });

  router.post('/auth/passkey/register', json, async (ctx) => {
    const a = signedIn(ctx);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['ceremony', 'response', 'name']);
    const name = passkeyName(b.name);
    const c = await accounts.takeChallenge(challengeID(b.ceremony), Date.now());
    if (!c || c.accountID !== a.id) throw new HttpError(400, 'this passkey ceremony expired or is unknown: start again');
    const { origin, rpID } = party(ctx);
    const out = await verifyRegistrationResponse({ response: response(b.response) as never, expectedChallenge: c.challenge, expectedOrigin: origin, expectedRPID: rpID }).catch(() => null);
    if (!out?.verified) throw new HttpError(400, 'the passkey could not be verified');
    const cred = out.registrationInfo.credential;
    if (await accounts.passkey(cred.id)) throw new HttpError(409, 'this passkey is already registered');
    const count = (await accounts.passkeys(a.id)).length;
    await accounts.addPasskey({
      id: cred.id,
      accountID: a.id,
      publicKey: Buffer.from(cred.publicKey).toString('base64url'),
      counter: cred.counter,
      transports: cred.transports ?? [],
      createdAt: Date.now(),
      name: name ?? `Passkey ${count + 1}`,
      lastUsedAt: null,
    });
    ctx.body = { passkeys: count + 1 };
  });

  router.get('/auth/passkeys', async (ctx) => {
    const a = signedIn(ctx);
    ctx.body = { passkeys: (await accounts.passkeys(a.id)).map(view) };
  });

  // Removing one: a signed-in change like any other (its Origin checked). The last way to sign in of an
  // account without a password stays: removing it would lock the owner out for good.
  const remove: Router.Middleware = async (ctx) => {
    const a = signedIn(ctx);
    const id = String(ctx.params.id);
    const all = await accounts.passkeys(a.id);
    const p = /^[A-Za-z0-9_-]{16}$/.test(id) ? all.find((k) => shortID(k) === id) : undefined;
    if (!p) throw new HttpError(404, 'no such passkey on this account');
    if (!a.hasPassword && all.length === 1) throw new HttpError(409, 'this passkey is the only way into the account: set a password first');
    await accounts.removePasskey(a.id, p.id);
    ctx.body = { passkeys: (await accounts.passkeys(a.id)).map(view) };
  };
  router.delete('/auth/passkeys/:id', remove);
  router.post('/auth/passkeys/:id/delete', remove);

  const limited: Router.Middleware = async (ctx, next) => {
    await enforce(limiter, 'login', address(ctx));
    await next();
  };

  router.post('/auth/passkey/login/options', limited, async (ctx) => {
    const { rpID } = party(ctx);
    const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
    ctx.body = { ceremony: await begin(options.challenge, null), options };
  });

  router.post('/auth/passkey/login', limited, json, async (ctx) => {
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['ceremony', 'response']);
    const r = response(b.response);
    const c = await accounts.takeChallenge(challengeID(b.ceremony), Date.now());
    const key = await accounts.passkey(r.id);
    if (!c || c.accountID !== null || !key) throw new HttpError(401, LOGIN_REFUSED);
    const { origin, rpID } = party(ctx);
    const out = await verifyAuthenticationResponse({
      response: r as never,
      expectedChallenge: c.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: key.id, publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64url')), counter: key.counter, transports: key.transports as never },
    }).catch(() => null);
    if (!out?.verified) throw new HttpError(401, LOGIN_REFUSED);
    await accounts.usedPasskey(key.id, out.authenticationInfo.newCounter, Date.now());
    await sessions.start(ctx, key.accountID);
    const a = await accounts.byID(key.accountID);
    ctx.body = { username: a?.username };
  });
}
