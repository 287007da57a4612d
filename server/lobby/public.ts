/**
 * A match as anyone may see it (protocol PublicMatch): the Lobby reads, the socket's matchData and sync.
 * Built field by field from what may be shown rather than by removing what may not: a seat's credentials
 * and whatever a player stored in `data` (private settings such as a notification address) never leave
 * the server, whatever new fields they grow. Only the server's own mark of a bot seat is shown, and the
 * next match only when it is public (publicNext).
 */
import { settingsFrom } from '../../game/index';
import { botLevelOf, openSeat, seatEntry, type MatchClock, type MatchPair, type MatchStatus, type PublicMatch, type PublicSeat, type TakeBackStatus } from '../../protocol/index';
import { seatAccount } from '../storage/accounts';
import type { MatchData } from '../storage/types';
import type { NextMetadata } from './rematch';

export function publicSeats(metadata: MatchData): PublicSeat[] {
  return Object.values(metadata.players).map((p) => {
    const seat: PublicSeat = { id: p.id };
    if (p.name !== undefined) seat.name = p.name;
    if (p.isConnected !== undefined) seat.isConnected = p.isConnected;
    const bot = botLevelOf(p);
    if (bot) seat.data = { bot };
    // A signed-in player's seat: the username and that side's rating when they sat down (never the account's id).
    const account = seatAccount(p);
    if (account) {
      const side = String(p.id) as '0' | '1';
      seat.account = { username: account.username, rating: account.ratings?.[side] ?? 1500, provisional: !Array.isArray(account.provisional) || account.provisional.includes(side), ...(account.bot ? { bot: true as const } : {}) };
    }
    return seat;
  });
}

export function publicMatch(matchID: string, metadata: MatchData, extra: Pick<PublicMatch, 'toMove'> = {}): PublicMatch {
  const m: PublicMatch = { matchID, gameName: metadata.gameName, players: publicSeats(metadata), createdAt: metadata.createdAt, updatedAt: metadata.updatedAt };
  if (metadata.setupData !== undefined) m.setupData = metadata.setupData;
  if (metadata.gameover !== undefined) m.gameover = metadata.gameover;
  const next = publicNext(metadata);
  if (next !== undefined) m.nextMatchID = next;
  if (metadata.unlisted !== undefined) m.unlisted = metadata.unlisted;
  if (metadata.clock !== undefined) m.clock = publicClock(metadata.clock);
  if (metadata.rated === true) m.rated = true;
  return { ...m, ...publicRematch(metadata), ...extra };
}

/**
 * A match for its players only (docs/SECURITY.md "Unlisted matches and the players' chat"): unlisted by their choice. Its
 * address is the invitation (whoever holds it may watch, as with any match), but no public answer lists
 * or links it: not the Lobby's list, a profile (storage/accounts.ts seenBy) or another match's next.
 * Vs computer's and Play now's matches are unlisted only to stay out of the Lobby's list (`publicRecord`): not private.
 */
export function isPrivate(metadata: MatchData): boolean {
  return metadata.unlisted === true && metadata.publicRecord !== true;
}

/**
 * The next match ("play again") as anyone may learn it: only from a match that is not private to one
 * that is not either. A private match's rematch, and a private rematch of a public match, are told to
 * the seated players only (their sockets: socket/sockets.ts; the asker: the playAgain answer).
 */
export function publicNext(metadata: MatchData): string | undefined {
  return metadata.nextMatchID !== undefined && !isPrivate(metadata) && metadata.nextPublic === true ? metadata.nextMatchID : undefined;
}

/**
 * The clock, the computer's stand-ins, who is away and (from the match's memory) what each seat may take
 * back, as every follower of a match sees them.
 */
export function matchStatus(matchID: string, metadata: MatchData, takeBack?: TakeBackStatus): MatchStatus {
  const standIns: MatchStatus['standIns'] = {};
  for (const [seat, si] of Object.entries(metadata.standIns ?? {})) if (si) standIns[seat as '0' | '1'] = { level: si.level, reason: si.reason, since: si.since };
  const away: MatchStatus['away'] = {};
  for (const [seat, t] of Object.entries(metadata.away ?? {})) if (typeof t === 'number') away[seat as '0' | '1'] = t;
  const c = metadata.clock;
  const settings = settingsFrom(metadata.setupData as never);
  return {
    matchID,
    clock: c ? publicClock(c) : null,
    standIns,
    away,
    abandonMinutes: settings.abandonMinutes,
    rated: metadata.rated === true,
    // Never in a rated match, whatever an older setup said (rated matches are created without hints).
    hints: settings.hints && settings.clock === null && metadata.rated !== true,
    ...(takeBack ? { takeBack } : {}),
    ...(metadata.pair ? { pair: publicPair(metadata.pair) } : {}),
    now: Date.now(),
  };
}

/** A paired deal's game, field by field (the deal's seed is never in it: the runner keeps that in the event). */
function publicPair(p: MatchPair): MatchPair {
  return { game: p.game, ...(p.first ? { first: { matchID: p.first.matchID, winner: p.first.winner } } : {}), ...(p.event ? { event: p.event } : {}) };
}

/** A match's clock, field by field (it is public: both boards and the lobby show it). */
function publicClock(c: MatchClock): MatchClock {
  return { remaining: { '0': c.remaining['0'], '1': c.remaining['1'] }, running: c.running, since: c.since, stateID: c.stateID, deadline: c.deadline };
}

/** What anyone may see of a "play again" match (rematch.ts): what changed, and the seat kept until when — never who held it. */
function publicRematch(m: MatchData): Pick<PublicMatch, 'changed' | 'kept'> {
  const { changed, kept } = m as NextMetadata;
  return {
    ...(changed ? { changed } : {}),
    ...(kept && Date.now() < kept.until && openSeat([seatEntry(m.players, kept.seat)]) ? { kept: { seat: kept.seat, until: kept.until } } : {}),
  };
}
