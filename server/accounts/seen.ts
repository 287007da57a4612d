/**
 * Where an account is seen from, for "Play now" never to pair one person's two accounts (docs/RATINGS.md
 * "One person, two accounts"): the request's address (server/limits.ts, per /64 for IPv6) and the
 * browser's device id, a random value in a long-lived HttpOnly cookie the server sets (Secure, under the
 * `__Host-` prefix, when the site is https). Recorded when an account signs in or asks to be paired;
 * storage keeps only their HMACs (storage/accounts.ts SEEN).
 */
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Seen } from '../storage/accounts';
import { address } from './routes';

export const DEVICE = { cookie: 'wg_device', pattern: /^[A-Za-z0-9_-]{32}$/, maxAgeSeconds: 2 * 365 * 24 * 3600 } as const;

/** This request's address and device id (the cookie's, or a new one set in the answer: a forged or missing cookie is replaced). */
export function seenFrom(ctx: Koa.Context, secure: boolean): Seen[] {
  const name = secure ? `__Host-${DEVICE.cookie}` : DEVICE.cookie;
  let device = ctx.cookies.get(name);
  if (!device || !DEVICE.pattern.test(device)) {
    device = randomBytes(24).toString('base64url');
    ctx.append('Set-Cookie', `${name}=${device}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${DEVICE.maxAgeSeconds}${secure ? '; Secure' : ''}`);
  }
  return [
    { kind: 'address', value: address(ctx) },
    { kind: 'device', value: device },
  ];
}
