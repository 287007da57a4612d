/**
 * Sessions: a random id in an HttpOnly, SameSite=Lax cookie (Secure, under the `__Host-` prefix, when
 * PUBLIC_URL is https), stored by its SHA-256 in the sessions table so that every process knows it and a
 * database leak gives no usable session. A request carrying a session that changes anything must say
 * where it comes from (Origin, which the server checks against its own origins first): a cross-site
 * form or fetch can then never act for a signed-in player (CSRF).
 */
import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import { HttpError } from '../storage/errors';
import type { Account, AccountStore } from '../storage/accounts';

/** How long a session lasts from sign-in, or from its last renewal: one used past half its life is renewed. */
export const SESSION_DAYS = 30;
const LIFE_MS = SESSION_DAYS * 86_400_000;

/** How a secret the client holds is stored (sessions, pairing tickets): its SHA-256, so a database leak gives none. */
export const hashOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

export interface Sessions {
  /** Reads the cookie (ctx.state.account, ctx.state.session, ctx.state.signedInAt) and refuses a cookie-carrying change without Origin. */
  middleware: Koa.Middleware;
  /** Starts a session for the account: stored, and set as the cookie (the session the request carried ends). */
  start(ctx: Koa.Context, accountID: string): Promise<void>;
  /** Ends this request's session, if any, and clears the cookie. */
  end(ctx: Koa.Context): Promise<void>;
  /** The session's stored key (its hash), to keep it while others end. */
  current(ctx: Koa.Context): string | undefined;
}

/** `seen`: called when a session starts, to record where the account signs in from (accounts/seen.ts). */
export function sessions(store: AccountStore, o: { secure: boolean; seen?: (ctx: Koa.Context, accountID: string) => Promise<void> }): Sessions {
  const name = o.secure ? '__Host-wg_session' : 'wg_session';
  const cookie = (value: string, maxAge: number) => `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${o.secure ? '; Secure' : ''}`;
  const read = (ctx: Koa.Context): string | undefined => {
    const v = ctx.cookies.get(name);
    return v && /^[A-Za-z0-9_-]{43}$/.test(v) ? v : undefined;
  };
  return {
    middleware: async (ctx, next) => {
      const id = read(ctx);
      if (id) {
        if (!['GET', 'HEAD', 'OPTIONS'].includes(ctx.method) && !ctx.get('Origin')) throw new HttpError(403, 'a signed-in request that changes something must carry its Origin');
        const hash = hashOf(id);
        const now = Date.now();
        const found = await store.session(hash, now);
        if (found) {
          ctx.state.account = found.account satisfies Account;
          ctx.state.session = hash;
          // When this session was signed in (password or passkey): a recent one may add a passkey.
          ctx.state.signedInAt = found.signedInAt;
          // A player who keeps coming back stays signed in; one away for SESSION_DAYS signs in again.
          if (found.expiresAt - now < LIFE_MS / 2) {
            await store.renewSession(hash, now + LIFE_MS);
            ctx.append('Set-Cookie', cookie(id, LIFE_MS / 1000));
          }
        }
      }
      await next();
    },
    async start(ctx, accountID) {
      // A new session replaces the one this browser held (whoever's it was): its id is of no use any more.
      const held = read(ctx);
      if (held) await store.dropSession(hashOf(held));
      const id = randomBytes(32).toString('base64url');
      const now = Date.now();
      await store.addSession({ hash: hashOf(id), accountID, createdAt: now, expiresAt: now + LIFE_MS });
      ctx.append('Set-Cookie', cookie(id, LIFE_MS / 1000));
      await o.seen?.(ctx, accountID);
    },
    async end(ctx) {
      const id = read(ctx);
      if (id) await store.dropSession(hashOf(id));
      ctx.append('Set-Cookie', cookie('', 0));
    },
    current: (ctx) => ctx.state.session as string | undefined,
  };
}

/** The signed-in account of this request, or a 401. */
export function signedIn(ctx: Koa.Context): Account {
  const a = ctx.state.account as Account | undefined;
  if (!a) throw new HttpError(401, 'sign in first');
  return a;
}
