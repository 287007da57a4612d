/**
 * New matches. Each gets its own PRNG seed from crypto.randomBytes: boardgame.io's default seed is
 * Date.now() in base 36 — the public `createdAt` — which would make every shuffle predictable.
 */
import { randomBytes } from 'node:crypto';
import type { Game, Server, State } from 'boardgame.io';
import { createMatch } from 'boardgame.io/internal';
import { seatEntry, setSeatEntry, type Level } from '../../protocol/index';
import { generateCredentials } from '../auth';
import { HttpError } from '../storage/errors';
import type { MatchData } from '../storage/types';

export const newMatchID = (): string => randomBytes(9).toString('base64url');

export function buildMatch(
  game: Game,
  setupData: unknown,
  unlisted: boolean,
  /** The deal's seed when the server chooses it (an event's paired deal: two matches, one deal); else a fresh one. */
  seed = randomBytes(16).toString('hex'),
): { initialState: State; metadata: MatchData } {
  const made = createMatch({ game: { ...game, seed }, numPlayers: 2, setupData, unlisted });
  if ('setupDataError' in made) throw new HttpError(400, `invalid setupData: ${made.setupDataError}`);
  return made;
}

/** Seats the server's bot: a name, credentials nobody is given, `data.bot` = its level, always connected. */
export function seatBot(metadata: Server.MatchData, seat: '0' | '1', level: Level): void {
  setSeatEntry(metadata.players, seat, { ...seatEntry(metadata.players, seat), name: 'Computer', credentials: generateCredentials(), data: { bot: level }, isConnected: true });
}
