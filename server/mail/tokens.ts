/**
 * Tokens of e-mail links. Single-use ones (verify an address, reset a password) are 32 random bytes sent
 * once and stored as their SHA-256 only (storage/mail.ts): a read of the database gives no usable link.
 * Unsubscribe links are signed instead (HMAC-SHA-256 of the account and the kind under the database's own
 * key): one per account and kind, valid until the key changes, so a mail client's one-click POST works
 * without signing in and a forged one for another account or kind fails.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { NOTICE_KINDS, type NoticeKind } from './messages';

export const newToken = () => randomBytes(32).toString('base64url');
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A token as typed into a route: base64url of 32 bytes; anything else is refused before any lookup. */
export const isToken = (t: unknown): t is string => typeof t === 'string' && /^[A-Za-z0-9_-]{43}$/.test(t);

const mac = (key: string, accountID: string, kind: string) => createHmac('sha256', key).update(`unsubscribe:${accountID}:${kind}`).digest('base64url');

export const unsubscribeToken = (key: string, accountID: string, kind: NoticeKind) => `${accountID}.${kind}.${mac(key, accountID, kind)}`;

/** The account and kind an unsubscribe token was signed for, or null. */
export function readUnsubscribe(key: string, token: unknown): { accountID: string; kind: NoticeKind } | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const m = /^([A-Za-z0-9_-]{1,64})\.([a-z]{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m || !(NOTICE_KINDS as readonly string[]).includes(m[2])) return null;
  const want = Buffer.from(mac(key, m[1], m[2]));
  const got = Buffer.from(m[3]);
  return got.length === want.length && timingSafeEqual(got, want) ? { accountID: m[1], kind: m[2] as NoticeKind } : null;
}
