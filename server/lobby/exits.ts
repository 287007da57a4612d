/**
 * A seat's exits over HTTP (the Lobby's leave and standIn routes, an account deleted): the match service
 * ends the game as server/match/ending.ts says, through the commit door, and the route then changes the
 * seats as it always did when the game goes on. A refusal of the service becomes the HTTP answer here.
 */
import type { PlayerID } from '../../game/index';
import type { GuardError } from '../../protocol/index';
import type { Exit } from '../match/ending';
import type { MatchService } from '../match/service';
import { HttpError } from '../storage/errors';
import type { MatchData } from '../storage/types';

const STATUS: Partial<Record<GuardError['type'], number>> = { unauthorized: 403, 'not-found': 404, unavailable: 503, stale: 409, 'invalid-move': 409 };

/**
 * Ends the game if `seat`'s exit ends it (true), or leaves it going (false). `credentials`: the leaver's
 * (null when the caller has checked who asks); `still` runs in the match's queue on its current metadata
 * and may refuse by throwing an HttpError.
 */
export async function endByExit(service: MatchService, matchID: string, seat: PlayerID, exit: Extract<Exit, 'leave' | 'abandon'>, credentials: string | null, still?: (m: MatchData) => null): Promise<boolean> {
  const out = await service.exit(matchID, seat, exit, credentials, still);
  if ('ended' in out) return out.ended;
  throw new HttpError(STATUS[out.type] ?? 500, out.message);
}
