/** Seat credentials: random, long, compared in constant time; a seat without credentials admits no one. */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Server } from 'boardgame.io';
import { seatEntry } from '../protocol/index';
import { HttpError } from './storage/errors';

export const generateCredentials = (): string => randomBytes(24).toString('base64url');

/** Equal lengths for timingSafeEqual; the one-shot `hash` (Node ≥ 20.12) is about twice as quick as a Hash object per move. */
const digest = (s: string) => hash('sha256', s, 'buffer');

export function authenticateCredentials(credentials: unknown, seat: Server.PlayerMetadata | undefined): boolean {
  if (typeof credentials !== 'string' || credentials.length === 0 || credentials.length > 200) return false;
  if (!seat || typeof seat.credentials !== 'string' || seat.credentials.length === 0) return false;
  return timingSafeEqual(digest(credentials), digest(seat.credentials));
}

/** A request made for a seat must carry that seat's credentials: otherwise 403, and nothing changes. */
export function requireSeat(m: Server.MatchData, playerID: string, credentials: unknown): void {
  if (!authenticateCredentials(credentials, seatEntry(m.players, playerID))) throw new HttpError(403, 'invalid credentials for this seat');
}
