/** Seat credentials: random, long, compared in constant time; a seat without credentials admits no one. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Server } from 'boardgame.io';

export const generateCredentials = (): string => randomBytes(24).toString('base64url');

const digest = (s: string) => createHash('sha256').update(s).digest();

export function authenticateCredentials(credentials: unknown, seat: Server.PlayerMetadata | undefined): boolean {
  if (typeof credentials !== 'string' || credentials.length === 0 || credentials.length > 200) return false;
  if (!seat || typeof seat.credentials !== 'string' || seat.credentials.length === 0) return false;
  return timingSafeEqual(digest(credentials), digest(seat.credentials));
}
