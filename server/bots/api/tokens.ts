/**
 * Personal API tokens (docs/BOT-API.md "The HTTP bot API"): made, listed and revoked from a signed-in
 * session under /auth/tokens (the session middleware already demands the page's Origin for a change),
 * and read from `Authorization: Bearer` by the bot routes only — a token is not a session: no cookie
 * route ever accepts one. The token is shown once and stored as its SHA-256 (32 random bytes: no slow
 * hash needed), so a database leak gives no usable token.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import { hashOf, signedIn } from '../../accounts/session';
import { enforce, type Limiter } from '../../limits';
import * as v from '../../lobby/validate';
import type { Account, AccountStore, ApiToken } from '../../storage/accounts';
import { HttpError } from '../../storage/errors';

export const TOKENS = {
  /** Tokens one account may hold at once. */
  maxPerAccount: 20,
  /** A token's name, in characters. */
  nameMax: 40,
  /** What a token may be used for: `bot`, the bot API. */
  scopes: ['bot'] as readonly string[],
};

/** A token's shape: a prefix that says what it is (secret scanners know it), then 32 random bytes. */
const TOKEN_FORMAT = /^wgb_[A-Za-z0-9_-]{43}$/;

export interface Bearer {
  token: ApiToken;
  account: Account;
  /** The stored key of the token (its hash), to look it up again (a stream checks it is still valid). */
  hash: string;
}

/** The request's bearer token with its account, or a 401; a 403 when it lacks `scope`. */
export async function bearer(ctx: Koa.Context, accounts: AccountStore, scope: string): Promise<Bearer> {
  const m = /^Bearer (\S+)$/.exec(ctx.get('Authorization'));
  const refused = () => new HttpError(401, 'a valid API token is required: Authorization: Bearer <token>');
  if (!m || !TOKEN_FORMAT.test(m[1])) throw refused();
  const hash = hashOf(m[1]);
  const found = await accounts.tokenByHash(hash, Date.now());
  if (!found) throw refused();
  if (!found.token.scopes.includes(scope)) throw new HttpError(403, `this token lacks the "${scope}" scope`);
  return { ...found, hash };
}

function tokenName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name.length < 1 || name.length > TOKENS.nameMax || /[\u0000-\u001f\u007f]/.test(name)) throw new HttpError(400, `name must be 1 to ${TOKENS.nameMax} characters of text`);
  return name;
}

function scopes(raw: unknown): string[] {
  const ok = Array.isArray(raw) && raw.length > 0 && raw.length <= TOKENS.scopes.length && raw.every((s) => typeof s === 'string' && TOKENS.scopes.includes(s)) && new Set(raw).size === raw.length;
  if (!ok) throw new HttpError(400, `scopes must be a list of distinct scopes among ${TOKENS.scopes.map((s) => `"${s}"`).join(', ')}`);
  return raw as string[];
}

/** The routes under /auth/tokens; `revoked` runs after a token is revoked here (its open streams close). */
export function addTokenRoutes(o: { router: Router; json: Router.Middleware; accounts: AccountStore; limiter: Limiter; revoked: (tokenID: string) => void }): void {
  const { router, json, accounts } = o;
  router.post('/auth/tokens', json, async (ctx) => {
    const a = signedIn(ctx);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['name', 'scopes']);
    const name = tokenName(b.name);
    const granted = scopes(b.scopes);
    await enforce(o.limiter, 'token', a.id);
    const token = `wgb_${randomBytes(32).toString('base64url')}`;
    const t: ApiToken = { id: randomBytes(12).toString('base64url'), accountID: a.id, name, scopes: granted, createdAt: Date.now(), lastUsedAt: null };
    if (!(await accounts.addToken({ ...t, hash: hashOf(token) }, TOKENS.maxPerAccount))) throw new HttpError(409, `an account holds at most ${TOKENS.maxPerAccount} tokens: revoke one first`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { id: t.id, token, name, scopes: granted, createdAt: t.createdAt };
  });
  router.get('/auth/tokens', async (ctx) => {
    const a = signedIn(ctx);
    ctx.body = { tokens: (await accounts.tokens(a.id)).map(({ accountID: _a, ...t }) => t) };
  });
  router.delete('/auth/tokens/:id', async (ctx) => {
    const a = signedIn(ctx);
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(ctx.params.id) || !(await accounts.removeToken(a.id, ctx.params.id))) throw new HttpError(404, 'no such token');
    o.revoked(ctx.params.id);
    ctx.status = 204;
  });
}
