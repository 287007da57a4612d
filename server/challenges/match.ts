/**
 * The match an accepted challenge becomes: made as the Lobby makes any match (lobby/matches.ts
 * buildMatch: its own seed; a rated one's settings checked as every rated match's, lobby/validate.ts),
 * stored, then both seats taken in one metadata change through the match service — the join route's
 * path: each seat carries its account's mark and is linked to the account, so a human finds the seat
 * and its credentials where every account seat is (GET /me/matches, the lobby's "your matches"), and a
 * bot account plays it with its token. Listed: anyone can watch, bot games too.
 */
import { randomBytes } from 'node:crypto';
import type { Game } from 'boardgame.io';
import type { SetupData } from '../../game/types';
import { otherSeat, seatEntry, setSeatEntry } from '../../protocol/index';
import { TIME_CONTROLS, type TimeControl } from '../../protocol/rated';
import { accountMark, linkOf, markedData } from '../accounts/seat';
import { generateCredentials } from '../auth';
import { buildMatch } from '../lobby/matches';
import * as v from '../lobby/validate';
import type { MatchService } from '../match/service';
import type { Account, AccountStore, SeatLink } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { Challenge } from '../storage/social';
import type { MatchData, MatchStore } from '../storage/types';

/** The challenge's settings as a match's setupData. */
export function setupOf(c: Pick<Challenge, 'clock' | 'rated' | 'takeBacks'>): SetupData {
  const clock = TIME_CONTROLS[c.clock as TimeControl]?.clock;
  const s: SetupData = { takeBacks: c.takeBacks ? 'consent' : 'off', ...(clock ? { clock: { ...clock, onTimeout: 'lose' } } : {}) };
  return c.rated ? v.ratedSetupData(s) : s;
}

export const seatOfSide = (side: Challenge['side']): '0' | '1' => (side === 'editor' ? '0' : side === 'nixon' ? '1' : randomBytes(1)[0] % 2 === 0 ? '0' : '1');

/** The match's id and metadata, with both accounts seated; the acceptor's seat and credentials. */
export async function createChallengeMatch(o: { game: Game; store: MatchStore; service: MatchService }, matchID: string, c: Challenge, from: Account, to: Account): Promise<{ matchID: string; metadata: MatchData; seat: '0' | '1'; credentials: string }> {
  const accounts: AccountStore = o.store.accounts;
  const { initialState, metadata } = buildMatch(o.game, setupOf(c), false);
  if (c.rated) metadata.rated = true;
  await o.store.createMatch({ matchID, initialState, metadata });
  const fromSeat = seatOfSide(c.side);
  const seats = [
    { account: from, seat: fromSeat, credentials: generateCredentials() },
    { account: to, seat: otherSeat(fromSeat), credentials: generateCredentials() },
  ];
  const marks = await Promise.all(seats.map((s) => accountMark({ state: { account: s.account } } as never, accounts)));
  const done = await o.service.changeMetadata(matchID, (m) => {
    const players = { ...m.players };
    const links: SeatLink[] = [];
    seats.forEach((s, i) => {
      setSeatEntry(players, s.seat, { ...seatEntry(players, s.seat), name: s.account.username, credentials: s.credentials, data: markedData(undefined, marks[i]) });
      links.push(...linkOf(matchID, s.seat, marks[i]));
    });
    return { metadata: { ...m, players, updatedAt: Date.now() }, links };
  });
  if (!done) throw new HttpError(503, 'the match could not be made: try again');
  return { matchID, metadata: done, seat: seats[1].seat, credentials: seats[1].credentials };
}
