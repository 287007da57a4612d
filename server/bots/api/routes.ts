/**
 * The bot routes (docs/BOT-API.md "The HTTP bot API"), every one authenticated by a bearer token with the
 * `bot` scope, none by a session: the upgrade to a bot account, the seat's game stream, and its moves,
 * resignation and chat. A bot account takes a seat through the Lobby's own join route with its token
 * (`joinWithToken`): one join path for everyone. Every move goes through the match service's move path
 * with the credentials of the seat the account holds: the same authentication, stale-state check and
 * single engine check as a human's move.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import { actionOf } from '../../../game/api';
import type { PlayerID } from '../../../game/index';
import { seatEntry, type GuardError, type RefusalType } from '../../../protocol/index';
import { address } from '../../accounts/routes';
import { enforce, type Limiter } from '../../limits';
import * as v from '../../lobby/validate';
import type { MatchService } from '../../match/service';
import { seatAccount, type AccountStore } from '../../storage/accounts';
import { HttpError } from '../../storage/errors';
import type { BotStreams } from './streams';
import { bearer, type Bearer } from './tokens';

export interface BotRouteDeps {
  router: Router;
  json: Router.Middleware;
  accounts: AccountStore;
  service: MatchService;
  limiter: Limiter;
  streams: BotStreams;
}

/** A move's name, as the engine's moves are named (the engine refuses unknown ones). */
const MOVE_NAME = /^[A-Za-z]{1,32}$/;

/** How each refusal of the move path is answered over HTTP. */
const STATUS: Record<RefusalType, number> = {
  'bad-request': 400,
  'invalid-move': 400,
  'not-found': 404,
  unauthorized: 403,
  stale: 409,
  'rate-limited': 429,
  'server-error': 503,
  unavailable: 503,
};

function refused(ctx: Koa.Context, r: GuardError): void {
  ctx.status = STATUS[r.type];
  if (r.retryAfterSeconds) ctx.set('Retry-After', String(r.retryAfterSeconds));
  ctx.body = { error: r.type, reason: r.message };
}

/** The bearer of a bot route: a `bot`-scoped token of a bot account. */
async function botBearer(ctx: Koa.Context, accounts: AccountStore): Promise<Bearer> {
  const b = await bearer(ctx, accounts, 'bot');
  if (!b.account.bot) throw new HttpError(403, 'this is not a bot account: POST /api/bot/upgrade first');
  return b;
}

const matchIDOf = (raw: string): string => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw)) throw new HttpError(404, 'no such match');
  return raw;
};

/** The seat the account holds in the match (the first, if it holds both) and that seat's credentials. */
async function heldSeat(service: MatchService, matchID: string, accountID: string): Promise<{ seat: PlayerID; credentials: string | null }> {
  const m = await service.current(matchID);
  if (!m) throw new HttpError(404, 'no such match');
  const seat = (['0', '1'] as const).find((s) => seatAccount(seatEntry(m.metadata.players, s))?.id === accountID);
  if (!seat) throw new HttpError(403, 'this bot holds no seat in this match: join it first');
  return { seat, credentials: seatEntry(m.metadata.players, seat)?.credentials ?? null };
}

/**
 * On the Lobby's join route, a bearer token (of a bot account) stands for the account as a session
 * would: the seat gets the account's mark and link (accounts/seat.ts `accountMark` reads ctx.state.account).
 * Each try counts against the token's `botJoin` as well as the address's `join` (the Lobby's): a bot run
 * from many addresses still takes seats no faster than its token may.
 */
export function joinWithToken(accounts: AccountStore, limiter: Limiter): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.get('Authorization') && /^\/games\/[^/]+\/[^/]+\/join$/.test(ctx.path)) {
      const b = await botBearer(ctx, accounts);
      await enforce(limiter, 'botJoin', b.token.id);
      ctx.state.account = b.account;
    }
    await next();
  };
}

export function addBotRoutes(d: BotRouteDeps): void {
  const { router, json, accounts, service, limiter } = d;

  router.post('/api/bot/upgrade', async (ctx) => {
    const b = await bearer(ctx, accounts, 'bot');
    if (!(await accounts.makeBot(b.account.id))) throw new HttpError(409, 'only an account that has never played (no seat, no result) can become a bot account');
    ctx.body = { bot: true };
  });

  router.get('/api/bot/game/stream/:matchID', async (ctx) => {
    const b = await botBearer(ctx, accounts);
    const matchID = matchIDOf(ctx.params.matchID);
    await enforce(limiter, 'botStream', b.token.id);
    const { seat } = await heldSeat(service, matchID, b.account.id);
    await d.streams.start(ctx, b, matchID, seat, address(ctx));
  });

  router.post('/api/bot/game/:matchID/move', json, async (ctx) => {
    const b = await botBearer(ctx, accounts);
    const matchID = matchIDOf(ctx.params.matchID);
    await enforce(limiter, 'botMove', b.token.id);
    const body = v.body(ctx.request.body);
    v.allowOnly(body, ['stateID', 'action', 'move', 'args']);
    const stateID = v.optionalStateID(body.stateID);
    if (stateID === undefined) throw new HttpError(400, 'stateID is required: the stateID of the line the move answers');
    let move: string;
    let arg: unknown;
    if (body.action !== undefined) {
      if (body.move !== undefined || body.args !== undefined) throw new HttpError(400, 'action: send an action id, or move and args, not both');
      const a = Number.isSafeInteger(body.action) ? actionOf(body.action as number) : null;
      if (!a) throw new HttpError(400, 'action must be an action id of the table (docs/BOT-API.md "Action ids")');
      [move, arg] = [a.move, a.args?.[0]];
    } else {
      if (typeof body.move !== 'string' || !MOVE_NAME.test(body.move)) throw new HttpError(400, 'move must be a move name (or send action)');
      if (body.args !== undefined && (!Array.isArray(body.args) || body.args.length > 1)) throw new HttpError(400, 'args must be a list of at most one argument');
      [move, arg] = [body.move, (body.args as unknown[] | undefined)?.[0]];
    }
    const { seat, credentials } = await heldSeat(service, matchID, b.account.id);
    const r = await service.move({ matchID, playerID: seat, credentials, type: move, arg, stateID });
    if (r) return refused(ctx, r);
    ctx.body = { stateID: service.peek(matchID)?.state._stateID ?? stateID + 1 };
  });

  router.post('/api/bot/game/:matchID/resign', async (ctx) => {
    const b = await botBearer(ctx, accounts);
    const matchID = matchIDOf(ctx.params.matchID);
    await enforce(limiter, 'botMove', b.token.id);
    const { seat, credentials } = await heldSeat(service, matchID, b.account.id);
    const r = await service.move({ matchID, playerID: seat, credentials, type: 'resign', arg: undefined, stateID: null });
    if (r) return refused(ctx, r);
    ctx.body = { stateID: service.peek(matchID)?.state._stateID };
  });

  router.post('/api/bot/game/:matchID/chat', json, async (ctx) => {
    const b = await botBearer(ctx, accounts);
    const matchID = matchIDOf(ctx.params.matchID);
    await enforce(limiter, 'botChat', b.token.id);
    const body = v.body(ctx.request.body);
    v.allowOnly(body, ['text']);
    if (typeof body.text !== 'string') throw new HttpError(400, 'text is required and must be a string');
    const { seat, credentials } = await heldSeat(service, matchID, b.account.id);
    const r = await service.chat(matchID, seat, credentials, { id: randomBytes(9).toString('base64url'), payload: body.text });
    if (r) return refused(ctx, r);
    ctx.body = { ok: true };
  });
}
