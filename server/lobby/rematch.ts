/**
 * "Play again" (protocol PlayAgainResponse). The first asker's change to the old match creates the next
 * match with the asker already seated — in the other role unless `swap: false`, under the same name,
 * with fresh credentials — and the computer, if it played, opposite its human at the same level. A later
 * asker (the opponent accepting) takes the seat left. The next match remembers which old seat each of
 * its seats went to (`seatedFrom`, never shown: lobby/public.ts), so asking twice never gives two seats.
 */
import type { Game } from 'boardgame.io';
import { botLevelOf, openSeat } from '../../protocol/index';
import { otherSeat, roleText, seatEntry, setSeatEntry } from '../../protocol/index';
import { generateCredentials } from '../auth';
import { HttpError } from '../storage/errors';
import type { MatchData, NewMatch } from '../storage/types';
import { buildMatch, newMatchID, seatBot } from './matches';
import { markedData, type AccountMark } from '../accounts/seat';

export type SeatID = '0' | '1';

/** A next match's metadata: which seat of the old match each of its seats was given to. */
type NextMetadata = MatchData & { seatedFrom?: Partial<Record<SeatID, SeatID>> };

export interface Seated {
  playerID: SeatID;
  playerCredentials: string;
}

/** The next match for the first asker (created in the same transaction that links it to the old one). */
export function firstAsker(
  game: Game,
  old: MatchData,
  asker: SeatID,
  o: { swap: boolean; setupData: unknown; unlisted: boolean; mark?: AccountMark | null },
): { create: NewMatch; seated: Seated } {
  const { initialState, metadata } = buildMatch(game, o.setupData, o.unlisted);
  if (old.rated) metadata.rated = true;
  const seat = o.swap ? otherSeat(asker) : asker;
  const credentials = generateCredentials();
  const data = markedData(undefined, o.mark ?? null);
  setSeatEntry(metadata.players, seat, { ...seatEntry(metadata.players, seat), name: seatEntry(old.players, asker).name, credentials, ...(data ? { data } : {}) });
  const bot = (['0', '1'] as const).map((id) => botLevelOf(seatEntry(old.players, id))).find((level) => level !== null);
  if (bot) seatBot(metadata, otherSeat(seat), bot);
  (metadata as NextMetadata).seatedFrom = { [seat]: asker };
  return { create: { matchID: newMatchID(), initialState, metadata }, seated: { playerID: seat, playerCredentials: credentials } };
}

/** The next match with a later asker in the seat left; a 409 when they already sit there or none is left. */
export function laterAsker(next: MatchData, nextMatchID: string, asker: SeatID, name: string | undefined, mark: AccountMark | null = null): { metadata: MatchData; seated: Seated } {
  const from = (next as NextMetadata).seatedFrom ?? {};
  // A seat counts as theirs while it is still taken (they may have left it since).
  const mine = (['0', '1'] as const).find((id) => from[id] === asker && seatEntry(next.players, id).name);
  if (mine) throw new HttpError(409, `you already have a seat in the next match ${nextMatchID}: ${roleText(mine)}`);
  const free = openSeat(Object.values(next.players));
  if (!free) {
    const wanted = (['0', '1'] as const).find((id) => from[id] === undefined) ?? otherSeat(asker);
    throw new HttpError(409, `seat ${wanted} (${roleText(wanted)}) in the next match ${nextMatchID} is already taken`);
  }
  const playerCredentials = generateCredentials();
  const metadata: NextMetadata = {
    ...next,
    players: { ...next.players, [free]: { ...seatEntry(next.players, free), name, credentials: playerCredentials, ...(mark ? { data: markedData(undefined, mark) } : {}) } },
    seatedFrom: { ...from, [free]: asker },
    updatedAt: Date.now(),
  };
  return { metadata, seated: { playerID: free, playerCredentials } };
}
