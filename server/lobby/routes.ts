/**
 * The Lobby API, mounted in front of boardgame.io's own router (which keeps only GET /games, the list of
 * games). Same paths, bodies and answers as boardgame.io's, but: every body and query is checked (400
 * names the bad field), every change is one locked transaction (a seat is claimed once: concurrent joins
 * get 409), matches get a random PRNG seed, "play again" creates exactly one next match even when both
 * players ask at once and seats its askers (rematch.ts), "vs computer" creates a match with the server's
 * bot seated (marked `data.bot = level`), and the reads show only public match data (public.ts) plus,
 * for one match, whose decision it is. Every change is told to the match service, which refreshes its
 * memory and tells the other processes.
 */
import type Koa from 'koa';
import Router from '@koa/router';
import koaBody from 'koa-body';
import type { Game, Server } from 'boardgame.io';
import type { PlayerID } from '../../game/index';
import { botLevelOf, openSeat, roleText, seatEntry, type MatchList, type PlayAgainResponse, type PublicMatch, type VsComputerResponse } from '../../protocol/index';
import { generateCredentials, requireSeat } from '../auth';
import { enforce, type Limiter, type LimitName } from '../limits';
import { seatPresenceCleared } from '../match/presence';
import type { MatchService } from '../match/service';
import { HttpError } from '../storage/errors';
import type { MatchStore } from '../storage/types';
import { seatAccount } from '../storage/accounts';
import { buildMatch, newMatchID, seatBot } from './matches';
import { isPrivate, publicMatch } from './public';
import { firstAsker, holderOf, keptSeatRefusal, laterAsker, type Seated } from './rematch';
import { addReplayRoute } from './replay';
import { endByExit } from './exits';
import { addStandInRoutes } from './standin';
import { addUndoRoute } from './undo';
import { addNotifyRoute } from '../notify/route';
import { withNotify } from '../notify/register';
import * as v from './validate';
import { accountMark, isAccountName, keptMark, linkOf, markedData, refuseAccountName, refuseRename, refuseServerFields } from '../accounts/seat';
import { seeHere } from '../accounts/seen';
import { SEEN_TOGETHER } from '../ratings/rules';
import { SEEN_TOGETHER_REFUSAL } from '../../protocol/accounts';

export interface LobbyHooks {
  /** Runs after a match (or a "play again" match) is stored. */
  onMatchCreated?: (event: { matchID: string; metadata: Server.MatchData; setupData: unknown }) => void | Promise<void>;
  /** Runs after a seat is taken through the join route (not awaited: the answer does not wait for it). */
  onJoined?: (event: { matchID: string; playerID: string; metadata: Server.MatchData }) => void;
}

type Seat = Server.PlayerMetadata;

/** Matches in one page of the list: by default, and at most (`limit`). */
const LIST_PAGE = { default: 50, max: 100 };

const json = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '16kb', jsonStrict: true });

export function lobbyRoutes(game: Game, store: MatchStore, service: MatchService, hooks: LobbyHooks = {}, limiter?: Limiter): Router {
  const router = new Router();
  const gameName = game.name!;
  // Counted before the body is read: a refused request costs the server little more than the count.
  const limit = (name: LimitName): Router.Middleware => async (ctx, next) => {
    if (limiter) await enforce(limiter, name, String(ctx.state.clientAddress ?? ctx.ip));
    await next();
  };

  const requireGame = (name: string) => {
    if (name !== gameName) throw new HttpError(404, `game "${name}" not found`);
  };
  const notFound = (id: string) => new HttpError(404, `match ${id} not found`);

  router.post('/games/:name/create', limit('create'), json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['numPlayers', 'setupData', 'unlisted', 'rated']);
    v.numPlayers(b.numPlayers);
    const unlisted = v.optionalBoolean(b.unlisted, 'unlisted') ?? false;
    // Rated by default when its creator is signed in; a guest's match never is.
    const rated = v.optionalBoolean(b.rated, 'rated') ?? ctx.state.account !== undefined;
    if (rated && !ctx.state.account) throw new HttpError(400, 'rated matches are created by signed-in players: sign in, or leave rated out');
    const matchID = newMatchID();
    // A rated match's settings are one of the rated time controls and nothing else (validate.ts).
    const { initialState, metadata } = buildMatch(game, rated ? v.ratedSetupData(b.setupData) : b.setupData, unlisted);
    if (rated) metadata.rated = true;
    await store.createMatch({ matchID, initialState, metadata });
    await hooks.onMatchCreated?.({ matchID, metadata, setupData: metadata.setupData });
    ctx.body = { matchID };
  });

  router.post('/games/:name/vs-computer', limit('create'), json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body ?? {});
    v.allowOnly(b, ['botSeat', 'level', 'setupData']);
    const botSeat = v.seat(b.botSeat, false, 'botSeat') ?? '1';
    const level = v.level(b.level) ?? 'normal';
    const matchID = newMatchID();
    const { initialState, metadata } = buildMatch(game, b.setupData, true);
    seatBot(metadata, botSeat, level);
    // Unlisted only because nobody needs to join it: its record is public (public.ts isPrivate).
    metadata.publicRecord = true;
    await store.createMatch({ matchID, initialState, metadata });
    await hooks.onMatchCreated?.({ matchID, metadata, setupData: b.setupData });
    ctx.body = { matchID, botSeat, humanSeat: botSeat === '0' ? '1' : '0' } satisfies VsComputerResponse;
  });

  /**
   * Two accounts where one blocked the other never share a match (server/social/blocks.ts): no challenge,
   * no pairing, and no join of an open match the other holds — so no chat between them either. The answer
   * does not say who blocked whom.
   */
  const refuseBlocked = async (matchID: string, accountID: string) => {
    const m = await service.current(matchID);
    if (!m) return;
    for (const s of ['0', '1']) {
      const other = seatAccount(seatEntry(m.metadata.players, s))?.id;
      if (other && other !== accountID && (await store.social.blockedEither(accountID, other))) throw new HttpError(403, 'you cannot join this match');
    }
  };

  /**
   * A rated match's seat is not taken by an account seen together with the other seat's (ratings/rules.ts
   * SEEN_TOGETHER): the game would end unrated, so the joiner hears it now (409). Bots among themselves are exempt.
   */
  const refuseSeenTogether = async (ctx: Koa.Context, matchID: string, me: { id: string; bot?: boolean }) => {
    const m = await service.current(matchID);
    if (!m?.metadata.rated) return;
    await seeHere(ctx, me.id);
    for (const s of ['0', '1']) {
      const other = seatAccount(seatEntry(m.metadata.players, s));
      if (!other || other.id === me.id || (me.bot && other.bot)) continue;
      if (await store.accounts.seenTogether(me.id, other.id, Date.now() - SEEN_TOGETHER.windowMs)) throw new HttpError(409, SEEN_TOGETHER_REFUSAL);
    }
  };

  router.post('/games/:name/:id/join', limit('join'), json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'playerName', 'data']);
    const mark = await accountMark(ctx, store.accounts);
    // A signed-in player sits under their username.
    const name = mark && b.playerName === undefined ? mark.username : v.playerName(b.playerName);
    await refuseAccountName(store.accounts, name, mark);
    const wanted = v.seat(b.playerID, false);
    if (mark) await refuseBlocked(ctx.params.id, mark.id);
    if (mark) await refuseSeenTogether(ctx, ctx.params.id, mark);
    const data = withNotify(v.playerData(b.data), ctx);
    refuseServerFields(data);
    const playerCredentials = generateCredentials();
    let playerID = '';
    const done = await service.changeMetadata(ctx.params.id, (m) => {
      const free = (id: string) => !seatEntry(m.players, id).name;
      // A rematch's seat kept for the old opponent is not free to anyone else (rematch.ts).
      const id = wanted ?? ['0', '1'].find((s) => free(s) && !keptSeatRefusal(m, s)) ?? ['0', '1'].find(free);
      if (id === undefined) throw new HttpError(409, `match ${ctx.params.id} is full`);
      if (!free(id)) throw new HttpError(409, `seat ${id} (${roleText(id)}) is already taken`);
      const kept = keptSeatRefusal(m, id);
      if (kept) throw kept;
      playerID = id;
      // A fresh seat: nothing of an earlier holder (its data, webhook, presence) passes to the joiner.
      const seat: Seat = { id: seatEntry(m.players, id).id, name: mark?.username ?? name, credentials: playerCredentials };
      const seatData = markedData(data ?? undefined, mark);
      if (seatData) seat.data = seatData;
      const metadata = { ...m, players: { ...m.players, [id]: seat }, ...seatPresenceCleared(m, id as '0' | '1'), updatedAt: Date.now() };
      return mark ? { metadata, links: linkOf(ctx.params.id, id, mark) } : metadata;
    });
    if (done === undefined) throw notFound(ctx.params.id);
    if (done) hooks.onJoined?.({ matchID: ctx.params.id, playerID, metadata: done });
    ctx.body = { playerID, playerCredentials };
  });

  router.post('/games/:name/:id/leave', json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials']);
    const playerID = v.seat(b.playerID, true)!;
    const creds = v.credentials(b.credentials);
    // A rated game in play is lost (or aborted) by leaving it (match/ending.ts); it ends before the seat goes.
    await endByExit(service, ctx.params.id, playerID as PlayerID, 'leave', creds);
    const done = await service.changeMetadata(ctx.params.id, (m) => {
      requireSeat(m, playerID, creds);
      // The seat is emptied: name, credentials, data (a webhook) and presence all go with the leaver.
      const players = { ...m.players, [playerID]: { id: seatEntry(m.players, playerID).id } };
      // Nobody left (a bot does not count): the match goes, as in boardgame.io.
      return Object.values(players).some((p) => (p as Seat).name && !botLevelOf(p as Seat)) ? { ...m, players, ...seatPresenceCleared(m, playerID), updatedAt: Date.now() } : null;
    });
    if (done === undefined) throw notFound(ctx.params.id);
    ctx.body = {};
  });

  const update = async (ctx: Router.RouterContext) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials', 'newName', 'data']);
    const playerID = v.seat(b.playerID, true)!;
    const creds = v.credentials(b.credentials);
    const newName = b.newName === undefined ? undefined : v.playerName(b.newName, 'newName');
    const data = withNotify(v.playerData(b.data), ctx);
    if (newName === undefined && data === undefined) throw new HttpError(400, 'newName or data is required');
    refuseServerFields(data);
    const registered = newName !== undefined && (await isAccountName(store.accounts, newName));
    const done = await service.changeMetadata(ctx.params.id, (m) => {
      requireSeat(m, playerID, creds);
      const seat = { ...seatEntry(m.players, playerID) };
      refuseRename(seat, newName, registered);
      if (newName !== undefined) seat.name = newName;
      // The account's mark stays with the seat whatever data its player sends.
      if (data !== undefined) seat.data = data || 'account' in keptMark(seat.data) ? { ...data, ...keptMark(seat.data) } : undefined;
      return { ...m, players: { ...m.players, [playerID]: seat }, updatedAt: Date.now() };
    });
    if (done === undefined) throw notFound(ctx.params.id);
    ctx.body = {};
  };
  router.post('/games/:name/:id/update', json, update);
  router.post('/games/:name/:id/rename', json, update);

  router.post('/games/:name/:id/playAgain', limit('create'), json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials', 'swap', 'unlisted', 'setupData', 'numPlayers']);
    const playerID = v.seat(b.playerID, true)!;
    const creds = v.credentials(b.credentials);
    const swap = v.optionalBoolean(b.swap, 'swap') ?? true;
    const unlisted = v.optionalBoolean(b.unlisted, 'unlisted');
    v.numPlayers(b.numPlayers);
    let nextMatchID = '';
    let name: string | undefined;
    let holder: string[] = [];
    let seated = null as Seated | null;
    let created: { matchID: string; metadata: Server.MatchData; setupData: unknown } | null = null;
    const signedIn = await accountMark(ctx, store.accounts);
    const done = await service.changeMetadata(ctx.params.id, (m) => {
      requireSeat(m, playerID, creds);
      name = seatEntry(m.players, playerID).name;
      holder = holderOf(m, playerID);
      if (m.nextMatchID) {
        nextMatchID = m.nextMatchID;
        return m;
      }
      // Created, with the asker seated, inside the same transaction as the link: both players asking at
      // once get one match. Another setup is listed in it as changes (and unrates a rated match's rematch).
      const setupData = b.setupData ?? m.setupData;
      const mark = rematchMark(m, playerID, signedIn);
      const first = firstAsker(game, m, playerID, { swap, setupData, unlisted: unlisted ?? m.unlisted ?? false, mark });
      nextMatchID = first.create.matchID;
      seated = first.seated;
      created = { matchID: nextMatchID, metadata: first.create.metadata, setupData: first.create.metadata.setupData };
      // A rematch of a match the server made unlisted (Play now) keeps its public record unless asked unlisted.
      if (unlisted === undefined && m.publicRecord) first.create.metadata.publicRecord = true;
      const nextPublic = isPrivate(first.create.metadata) ? {} : { nextPublic: true };
      return { metadata: { ...m, nextMatchID, ...nextPublic }, create: first.create, links: linkOf(nextMatchID, first.seated.playerID, mark) };
    });
    if (done === undefined) throw notFound(ctx.params.id);
    // Everyone following the old match hears of the next one (NEXT_EVENT), here and on other processes:
    // the door's news of the change.
    if (created) await hooks.onMatchCreated?.(created);
    else {
      // The opponent accepting: the seat left in the next match, in a transaction of its own.
      const mark = await oldMark(store, ctx.params.id, playerID, signedIn);
      const joined = await service.changeMetadata(nextMatchID, (next) => {
        const later = laterAsker(next, nextMatchID, playerID, name, mark, holder);
        seated = later.seated;
        return { metadata: later.metadata, links: linkOf(nextMatchID, later.seated.playerID, mark) };
      });
      if (!joined) throw new HttpError(404, `the next match ${nextMatchID} no longer exists`);
    }
    const { playerID: seat, playerCredentials } = seated!;
    ctx.body = { nextMatchID, playerID: seat, playerCredentials } satisfies PlayAgainResponse;
  });

  addStandInRoutes(router, json, service, requireGame);
  addUndoRoute(router, json, service, requireGame, limit);
  addNotifyRoute(router, json, service, requireGame);
  return router;
}

type Mark = Awaited<ReturnType<typeof accountMark>>;

/**
 * The account a "play again" seat carries over: the asker's, with fresh ratings when the asker is signed
 * in as that account (the seat's credentials already prove the player).
 */
function rematchMark(m: Server.MatchData, seat: string, signedIn: Mark): Mark {
  const old = keptMark(seatEntry(m.players, seat)?.data).account as Mark | undefined;
  if (!old) return null;
  return signedIn && signedIn.id === old.id ? signedIn : old;
}

async function oldMark(store: MatchStore, matchID: string, seat: string, signedIn: Mark): Promise<Mark> {
  const head = await store.head(matchID);
  return head ? rematchMark(head.metadata, seat, signedIn) : null;
}

/**
 * The Lobby reads, mounted after the routes added through `extend`: the list of listed matches, in pages
 * (boardgame.io's query: isGameover, updatedBefore, updatedAfter; ours: limit, after), one match with whose decision it is, and a
 * finished match's replay (replay.ts).
 */
export function lobbyReads(game: Game, store: MatchStore, service: MatchService): Router {
  const router = new Router();
  const gameName = game.name!;
  const requireGame = (name: string) => {
    if (name !== gameName) throw new HttpError(404, `game "${name}" not found`);
  };

  // A page at a time, from the list's own index: unlisted matches (boardgame.io's rule) are never read.
  router.get('/games/:name', async (ctx) => {
    requireGame(ctx.params.name);
    const q = ctx.query;
    const where = { isGameover: v.queryBoolean(q, 'isGameover'), updatedBefore: v.queryTime(q, 'updatedBefore'), updatedAfter: v.queryTime(q, 'updatedAfter') };
    const page = await store.listPage({ gameName, where, limit: v.queryLimit(q, LIST_PAGE.default, LIST_PAGE.max), after: v.queryCursor(q) });
    const matches = page.matches.map((m) => publicMatch(m.matchID, m.metadata));
    const last = page.matches[page.matches.length - 1];
    ctx.body = { matches, ...(page.more && last ? { next: v.encodeCursor({ updatedAt: last.metadata.updatedAt, matchID: last.matchID }) } : {}) } satisfies MatchList;
  });

  addReplayRoute(router, game, store);

  router.get('/games/:name/:id', async (ctx) => {
    requireGame(ctx.params.name);
    const matchID = ctx.params.id;
    const head = await store.head(matchID);
    if (!head) throw new HttpError(404, `match ${matchID} not found`);
    // The state is needed only while someone owes a decision: not before both seats are taken, nor after.
    let toMove: PublicMatch['toMove'] = null;
    if (head.metadata.gameover === undefined && openSeat(Object.values(head.metadata.players)) === null) {
      const now = await service.current(matchID, head.stateID);
      if (now && now.state.ctx.gameover === undefined) toMove = (now.state.G.prompt?.player as '0' | '1' | undefined) ?? null;
    }
    ctx.body = publicMatch(matchID, head.metadata, { toMove }) satisfies PublicMatch;
  });

  return router;
}
