/**
 * Where an account is seen from, for "Play now" never to pair one person's two accounts (docs/RATINGS.md
 * "One person, two accounts"): the request's address (server/limits.ts, per /64 for IPv6) and the
 * browser's device id, a random value in a long-lived HttpOnly cookie the server sets (Secure, under the
 * `__Host-` prefix, when the site is https). Recorded when an account signs in, asks to be paired, sends
 * or accepts a challenge and joins a rated lobby match (at most once an hour per account, address and
 * device between sign-ins: `seer`); storage keeps only their HMACs (storage/accounts.ts SEEN). Two
 * accounts seen together within SEEN.forMs are never paired and their games are not rated
 * (ratings/rules.ts 'seen-together').
 *
 * A loopback address is not recorded: it is nobody's address but a local proxy's (one not trusted with
 * TRUST_PROXY) or a test's, and would make every two accounts "seen together". The device still counts.
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
  const at = address(ctx);
  return [...(LOOPBACK.test(at) ? [] : [{ kind: 'address' as const, value: at }]), { kind: 'device', value: device }];
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** How often one account seen from one address and device is written again (sign-ins always are). */
export const SEEN_REFRESH_MS = 60 * 60 * 1000;

/**
 * A recorder for the routes a rated game starts from (challenge, rated lobby join): it writes storage only
 * when this account, address and device were not recorded by this process in the last SEEN_REFRESH_MS,
 * so a busy player costs one write an hour, not one a request.
 */
export function seer(store: { see(accountID: string, seen: Seen[], now: number): Promise<void> }, secure: boolean) {
  const last = new Map<string, number>();
  return async (ctx: Koa.Context, accountID: string, always = false): Promise<void> => {
    const seen = seenFrom(ctx, secure);
    const key = [accountID, ...seen.map((x) => `${x.kind}:${x.value}`)].join(' ');
    const now = Date.now();
    if (!always && now - (last.get(key) ?? -Infinity) < SEEN_REFRESH_MS) return;
    if (last.size >= 50_000) last.clear(); // bounded: forgetting only costs a write
    last.set(key, now);
    await store.see(accountID, seen, now);
  };
}

/** Records where the signed-in account of this request is seen (set on ctx.state by accounts/index.ts). */
export async function seeHere(ctx: Koa.Context, accountID: string): Promise<void> {
  const see = ctx.state.see as ((ctx: Koa.Context, accountID: string) => Promise<void>) | undefined;
  await see?.(ctx, accountID);
}
