/**
 * Web-push subscriptions (docs/SECURITY.md "Web push"): `GET /api/push/key` the server's VAPID public key
 * (what a page passes to pushManager.subscribe); signed in, `POST /api/push/subscribe`
 * `{ endpoint, keys: { p256dh, auth }, lang? }` keeps the browser's subscription for the account (at most
 * PUSH.perAccount; the same endpoint again replaces it), `DELETE /api/push/subscribe` `{ endpoint }`
 * removes it, `GET /api/push/subscribe?endpoint=` says whether this browser's is kept. A subscription
 * belongs to the session that made it and ends with it (sign-out here or everywhere). Changes count
 * against the account's `social` limit.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import koaBody from 'koa-body';
import { address } from '../accounts/routes';
import { signedIn } from '../accounts/session';
import { enforce, type Limiter } from '../limits';
import { HttpError } from '../storage/errors';
import type { FollowRows } from '../storage/follows';
import { endpointProblem, PUSH, PUSH_LANGUAGES } from './push';

/** A base64url key of `bytes` bytes (p256dh: an uncompressed P-256 point, 65; auth: 16). */
function key(raw: unknown, field: string, bytes: number, first?: number): string {
  if (typeof raw !== 'string' || raw.length > PUSH.keyMax || !/^[A-Za-z0-9_-]+={0,2}$/.test(raw)) throw new HttpError(400, `${field} must be a base64url string`);
  const b = Buffer.from(raw, 'base64url');
  if (b.length !== bytes || (first !== undefined && b[0] !== first)) throw new HttpError(400, `${field} must be ${bytes} bytes`);
  return raw.replace(/=+$/, '');
}

export function pushRoutes(o: { social: FollowRows; publicKey: string; limiter: Limiter; allowLocal: boolean }): Koa.Middleware {
  const router = new Router({ prefix: '/api/push' });
  // Every request counts against the address's `api` limit, as the account routes do.
  router.use(async (ctx, next) => {
    await enforce(o.limiter, 'api', address(ctx as never));
    await next();
  });
  const json = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '4kb', jsonStrict: true, parsedMethods: ['POST', 'DELETE'] }) as unknown as Router.Middleware;
  const body = (ctx: Koa.Context): Record<string, unknown> => {
    const b = ctx.request.body as unknown;
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw new HttpError(400, 'the body must be a JSON object');
    return b as Record<string, unknown>;
  };
  const endpoint = (raw: unknown): string => {
    const problem = endpointProblem(raw, o.allowLocal);
    if (problem) throw new HttpError(400, `endpoint ${problem}`);
    return raw as string;
  };
  router.get('/key', (ctx) => {
    ctx.body = { publicKey: o.publicKey };
  });
  router.get('/subscribe', async (ctx) => {
    const me = signedIn(ctx as never);
    const e = typeof ctx.query.endpoint === 'string' ? ctx.query.endpoint : '';
    ctx.body = { subscribed: (await o.social.pushSubscriptions(me.id)).some((s) => s.endpoint === e) };
  });
  router.post('/subscribe', json, async (ctx) => {
    const me = signedIn(ctx as never);
    // A browser's session (not an API token): the subscription ends with it.
    const session = ctx.state.session as string | undefined;
    if (!session) throw new HttpError(401, 'push subscriptions are made from a signed-in browser');
    await enforce(o.limiter, 'social', me.id);
    const b = body(ctx as never);
    for (const k of Object.keys(b)) if (!['endpoint', 'keys', 'lang', 'expirationTime'].includes(k)) throw new HttpError(400, `unknown field "${k}"`);
    const keys = b.keys as Record<string, unknown> | undefined;
    if (!keys || typeof keys !== 'object' || Array.isArray(keys)) throw new HttpError(400, 'keys must be an object { p256dh, auth }');
    const lang = b.lang === undefined ? 'en' : b.lang;
    if (typeof lang !== 'string' || !PUSH_LANGUAGES.includes(lang)) throw new HttpError(400, `lang must be one of ${PUSH_LANGUAGES.join(', ')}`);
    const sub = { endpoint: endpoint(b.endpoint), accountID: me.id, sessionID: session, p256dh: key(keys.p256dh, 'keys.p256dh', 65, 4), auth: key(keys.auth, 'keys.auth', 16), lang, createdAt: Date.now() };
    if (!(await o.social.addPush(sub, PUSH.perAccount))) throw new HttpError(409, `at most ${PUSH.perAccount} browsers may receive pushes for one account: remove one first (unsubscribe there)`);
    ctx.body = { subscribed: true };
  });
  router.delete('/subscribe', json, async (ctx) => {
    const me = signedIn(ctx as never);
    await enforce(o.limiter, 'social', me.id);
    const e = body(ctx as never).endpoint;
    if (typeof e !== 'string' || e.length > PUSH.endpointMax) throw new HttpError(400, 'endpoint must be the subscription\'s URL');
    ctx.body = { removed: await o.social.dropPush(e, me.id) };
  });
  const routes = router.routes();
  return (ctx, next) => (ctx.path.startsWith('/api/push/') ? routes(ctx as never, next) : next());
}
