/**
 * Passkeys (WebAuthn, @simplewebauthn/server): a signed-in player adds one; anyone signs in with one
 * (a discoverable credential: the authenticator says whose it is). Each ceremony has a challenge kept
 * server-side for 5 minutes and used once (any process may finish it). The relying party is the page's
 * own origin, which the server already checked against its own origins (PUBLIC_URL, or the listen address).
 * Stored per passkey: its id, public key, signature counter and transports — nothing secret.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { enforce, type Limiter } from '../limits';
import * as v from '../lobby/validate';
import type { AccountStore } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import { address, LOGIN_REFUSED } from './routes';
import { signedIn, type Sessions } from './session';

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

export function addPasskeyRoutes(o: { router: Router; json: Router.Middleware; accounts: AccountStore; sessions: Sessions; limiter: Limiter }): void {
  const { router, json, accounts, sessions, limiter } = o;
  const begin = async (challenge: string, accountID: string | null) => {
    const id = randomBytes(16).toString('base64url');
    await accounts.putChallenge({ id, challenge, accountID, expiresAt: Date.now() + CHALLENGE_MS });
    return id;
  };

  router.post('/auth/passkey/register/options', async (ctx) => {
    const a = signedIn(ctx);
    const { rpID } = party(ctx);
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
    v.allowOnly(b, ['ceremony', 'response']);
    const c = await accounts.takeChallenge(challengeID(b.ceremony), Date.now());
    if (!c || c.accountID !== a.id) throw new HttpError(400, 'this passkey ceremony expired or is unknown: start again');
    const { origin, rpID } = party(ctx);
    const out = await verifyRegistrationResponse({ response: response(b.response) as never, expectedChallenge: c.challenge, expectedOrigin: origin, expectedRPID: rpID }).catch(() => null);
    if (!out?.verified) throw new HttpError(400, 'the passkey could not be verified');
    const cred = out.registrationInfo.credential;
    if (await accounts.passkey(cred.id)) throw new HttpError(409, 'this passkey is already registered');
    await accounts.addPasskey({ id: cred.id, accountID: a.id, publicKey: Buffer.from(cred.publicKey).toString('base64url'), counter: cred.counter, transports: cred.transports ?? [], createdAt: Date.now() });
    ctx.body = { passkeys: (await accounts.passkeys(a.id)).length };
  });

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
    await accounts.setPasskeyCounter(key.id, out.authenticationInfo.newCounter);
    await sessions.start(ctx, key.accountID);
    const a = await accounts.byID(key.accountID);
    ctx.body = { username: a?.username };
  });
}
