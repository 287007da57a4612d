/**
 * Registering a seat's webhook: in the join (or update) body as `data.notify = { webhook }`, or later
 * from the board (route.ts). The address's form is checked here (a 400 naming the field); where it
 * points is checked when sending (webhook.ts), where a DNS answer cannot change under the check.
 *
 * With the webhook the server keeps the origin of the page that registered it, so the message can link
 * to the match on the server the player uses when PUBLIC_URL is not set.
 */
import type { Context } from 'koa';
import { HttpError } from '../storage/errors';
import type { SeatNotify } from './notifier';
import { webhookProblem } from './webhook';

/** The page the request came from (the Origin header the server already allowed); none without one (not Host: the client writes it). */
function originOf(ctx: Context): string | undefined {
  const o = ctx.get('Origin');
  return /^https?:\/\/[^/\s]{1,200}$/.test(o) ? o : undefined;
}

/** The registration of `webhook` (null, undefined or '' for none); a 400 names `field`. */
export function checked(webhook: unknown, field: string, ctx: Context): SeatNotify | null {
  if (webhook === null || webhook === undefined || webhook === '') return null;
  const problem = webhookProblem(webhook);
  if (problem) throw new HttpError(400, `${field} ${problem}`);
  const base = originOf(ctx);
  return base ? { webhook: webhook as string, base } : { webhook: webhook as string };
}

/** Checks `data.notify` of a join or update body; returns the data to store (with the page's origin). */
export function withNotify<D extends Record<string, unknown> | null | undefined>(data: D, ctx: Context): D {
  if (!data || !('notify' in data)) return data;
  const n = data.notify;
  if (n === null) {
    const { notify: _n, ...rest } = data;
    return rest as D;
  }
  if (typeof n !== 'object' || Array.isArray(n)) throw new HttpError(400, 'data.notify must be an object { webhook }');
  for (const k of Object.keys(n)) if (k !== 'webhook') throw new HttpError(400, `unknown field "data.notify.${k}"`);
  const notify = checked((n as { webhook?: unknown }).webhook ?? null, 'data.notify.webhook', ctx);
  if (!notify) throw new HttpError(400, 'data.notify.webhook is required (an http or https URL)');
  return { ...data, notify };
}
