/**
 * Quick pairing ("Play now"): a player asks for a side (or either), a time control and rated or not, and
 * gets a ticket (a secret: only its hash is stored, and it travels in request bodies, never in a logged
 * path). Each ask and each poll tries, in one transaction, to pair the ticket with the longest-waiting
 * compatible ticket whose rating is within the window — which widens the longer the asker has waited —
 * and creates the match with both seated (storage/accounts.ts `pair`: no ticket is ever paired twice,
 * whichever processes poll). A ticket not polled for PAIRING.liveMs is nobody's any more.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { Game } from 'boardgame.io';
import type { PairRequest, PairStatus } from '../../protocol/accounts';
import { levelForRating, setSeatEntry, seatEntry, otherSeat } from '../../protocol/index';
import { TIME_CONTROL_NAMES, TIME_CONTROLS, type TimeControl } from '../../protocol/rated';
import { generateCredentials } from '../auth';
import { enforce, type Limiter } from '../limits';
import { buildMatch, newMatchID } from '../lobby/matches';
import * as v from '../lobby/validate';
import type { MatchService } from '../match/service';
import type { Account, AccountStore, Pairing, Ticket } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import { GLICKO } from '../ratings/glicko';
import type { Side } from '../ratings/rules';
import { address } from './routes';
import { seenFrom } from './seen';
import { hashOf } from './session';
import { accountMark, linkOf, markedData, refuseAccountName, type AccountMark } from './seat';

export const PAIRING = {
  /** Rating points apart two players may be paired at once, and how much wider per second waited, up to `maxWindow`. */
  window: 100,
  widenPerSecond: 10,
  maxWindow: 800,
  /** A ticket not polled for this long is nobody's (its page closed). */
  liveMs: 10_000,
} as const;

export const windowAfter = (waitedMs: number) => Math.min(PAIRING.maxWindow, PAIRING.window + (PAIRING.widenPerSecond * waitedMs) / 1000);

function request(raw: unknown, account: Account | undefined): PairRequest {
  const b = v.body(raw);
  v.allowOnly(b, ['side', 'clock', 'rated', 'name']);
  if (b.side !== '0' && b.side !== '1' && b.side !== 'either') throw new HttpError(400, 'side must be "0" (Editor), "1" (Nixon) or "either"');
  if (!(TIME_CONTROL_NAMES as readonly unknown[]).includes(b.clock)) throw new HttpError(400, `clock must be ${TIME_CONTROL_NAMES.map((n) => `"${n}"`).join(', ')}`);
  const rated = v.optionalBoolean(b.rated, 'rated') ?? account !== undefined;
  if (rated && !account) throw new HttpError(400, 'rated games are for signed-in players: sign in, or ask for an unrated game');
  const name = account ? account.username : v.playerName(b.name, 'name');
  return { side: b.side, clock: b.clock as TimeControl, rated, name };
}

/** The match two tickets are paired into: sides as asked (either: the other's choice, else by lot), both seated. */
export function pairedMatch(game: Game, a: Ticket, b: Ticket): Pairing {
  const aSide: Side = a.side !== 'either' ? a.side : b.side !== 'either' ? otherSeat(b.side) : randomBytes(1)[0] % 2 === 0 ? '0' : '1';
  const clock = TIME_CONTROLS[a.clock as TimeControl].clock;
  const setupData = clock ? { clock: { ...clock, onTimeout: 'lose' } } : undefined;
  // A rated ticket's match is set up as any rated match is (lobby/validate.ts: untimed gets its abandon limit).
  const { initialState, metadata } = buildMatch(game, a.rated ? v.ratedSetupData(setupData) : setupData, true);
  if (a.rated) metadata.rated = true;
  // Unlisted only because nobody needs to join it: its record is public (lobby/public.ts isPrivate).
  metadata.publicRecord = true;
  const matchID = newMatchID();
  const seats: Pairing['seats'] = [];
  const links: Pairing['links'] = [];
  for (const [t, seat] of [[a, aSide], [b, otherSeat(aSide)]] as const) {
    const credentials = generateCredentials();
    const mark = t.mark ? (JSON.parse(t.mark) as AccountMark) : null;
    const data = markedData(undefined, mark);
    setSeatEntry(metadata.players, seat, { ...seatEntry(metadata.players, seat), name: t.name, credentials, ...(data ? { data } : {}) });
    seats.push({ ticketID: t.id, seat, credentials });
    links.push(...linkOf(matchID, seat, mark));
  }
  metadata.updatedAt = Date.now();
  return { create: { matchID, initialState, metadata }, seats, links };
}

const status = (token: string, t: Ticket, now: number): PairStatus => ({
  ticket: token,
  status: t.matchID ? 'paired' : 'waiting',
  waitedSeconds: Math.floor((now - t.createdAt) / 1000),
  suggestedLevel: levelForRating(t.rating),
  ...(t.matchID && t.seat && t.credentials ? { matchID: t.matchID, playerID: t.seat, playerCredentials: t.credentials } : {}),
});

export function addPairingRoutes(o: { router: Router; json: Router.Middleware; accounts: AccountStore; game: Game; service: MatchService; limiter: Limiter; secure: boolean }): void {
  const { router, json, accounts, game, service, limiter } = o;
  const attempt = async (token: string, t: Ticket, now: number): Promise<PairStatus> => {
    const after = t.matchID ? t : await accounts.pair(t.id, now, { window: windowAfter(now - t.createdAt), liveMs: PAIRING.liveMs, make: (a, b) => pairedMatch(game, a, b) });
    const shown = after ?? t;
    // This process made the match: a timed one's clock starts now, and every process hears of the seats.
    if (shown.matchID && !t.matchID) await service.metadataChanged(shown.matchID);
    return status(token, shown, now);
  };

  router.post('/pair', async (ctx, next) => (await enforce(limiter, 'pair', address(ctx)), next()), json, async (ctx) => {
    const account = ctx.state.account as Account | undefined;
    // Quick pairing seats people with people: a bot account plays through challenges (docs/BOT-API.md).
    if (account?.bot) throw new HttpError(403, 'quick pairing is for people: a bot account plays challenges by name');
    const r = request(ctx.request.body, account);
    const mark = await accountMark(ctx, accounts);
    await refuseAccountName(accounts, r.name!, mark);
    const rating = !mark ? GLICKO.rating : r.side === 'either' ? (mark.ratings['0'] + mark.ratings['1']) / 2 : mark.ratings[r.side];
    const token = randomBytes(24).toString('base64url');
    const now = Date.now();
    const t: Ticket = { id: hashOf(token), accountID: account?.id ?? null, name: r.name!, rating, side: r.side, clock: r.clock, rated: r.rated, createdAt: now, seenAt: now, matchID: null, seat: null, credentials: null, mark: mark ? JSON.stringify(mark) : null };
    await accounts.putTicket(t, account ? seenFrom(ctx, o.secure) : []);
    ctx.body = await attempt(token, t, now);
  });

  const ticketOf = (raw: unknown): string => {
    const b = v.body(raw);
    v.allowOnly(b, ['ticket']);
    if (typeof b.ticket !== 'string' || !/^[A-Za-z0-9_-]{32}$/.test(b.ticket)) throw new HttpError(400, 'ticket must be the one "Play now" gave');
    return b.ticket;
  };

  router.post('/pair/poll', json, async (ctx) => {
    const token = ticketOf(ctx.request.body);
    const now = Date.now();
    const t = await accounts.ticket(hashOf(token), now);
    if (!t) throw new HttpError(404, 'this pairing ticket expired: ask again');
    ctx.body = await attempt(token, t, now);
  });

  // Too late to cancel once paired (the opponent sits in the match already): the answer says where.
  router.post('/pair/cancel', json, async (ctx) => {
    const token = ticketOf(ctx.request.body);
    const now = Date.now();
    const t = await accounts.ticket(hashOf(token), now);
    if (t?.matchID) return void (ctx.body = status(token, t, now));
    if (t) await accounts.dropTicket(t.id);
    ctx.body = {};
  });
}
