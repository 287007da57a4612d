/**
 * The Lobby API's writing routes, mounted in front of boardgame.io's own (which still serve the reads:
 * GET /games, /games/:name, /games/:name/:id). Same paths, bodies and answers as boardgame.io's, but:
 * every body is checked (400 names the bad field), every change is one locked transaction (a seat is
 * claimed once: concurrent joins get 409), matches get a random PRNG seed, "play again" creates exactly
 * one next match even when both players ask at once, and "vs computer" creates a match with the
 * server's bot seated (marked `data.bot = level`). Every change is told to the match service, which
 * refreshes its memory and tells the other processes.
 */
import Router from '@koa/router';
import koaBody from 'koa-body';
import type { Game, Server } from 'boardgame.io';
import { botLevelOf, type VsComputerResponse } from '../../protocol/index';
import { authenticateCredentials, generateCredentials } from '../auth';
import type { MatchService } from '../match/service';
import { HttpError } from '../storage/errors';
import type { MatchStore } from '../storage/types';
import { buildMatch, newMatchID, seatBot } from './matches';
import * as v from './validate';

export interface LobbyHooks {
  /** Runs after a match (or a "play again" match) is stored. */
  onMatchCreated?: (event: { matchID: string; metadata: Server.MatchData; setupData: unknown }) => void | Promise<void>;
}

type Seat = Server.PlayerMetadata;

const json = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '16kb', jsonStrict: true });

export function lobbyRoutes(game: Game, store: MatchStore, service: MatchService, hooks: LobbyHooks = {}): Router {
  const router = new Router();
  const gameName = game.name!;

  const requireGame = (name: string) => {
    if (name !== gameName) throw new HttpError(404, `game "${name}" not found`);
  };
  const seatOf = (m: Server.MatchData, id: string): Seat => m.players[id as unknown as number];
  const role = (id: string) => (id === '0' ? 'the Editor' : 'Nixon');
  const authorise = (m: Server.MatchData, playerID: string, creds: string) => {
    if (!authenticateCredentials(creds, seatOf(m, playerID))) throw new HttpError(403, 'invalid credentials for this seat');
  };
  const notFound = (id: string) => new HttpError(404, `match ${id} not found`);

  router.post('/games/:name/create', json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['numPlayers', 'setupData', 'unlisted']);
    v.numPlayers(b.numPlayers);
    const unlisted = v.optionalBoolean(b.unlisted, 'unlisted') ?? false;
    const matchID = newMatchID();
    const { initialState, metadata } = buildMatch(game, b.setupData, unlisted);
    await store.createMatch({ matchID, initialState, metadata });
    await hooks.onMatchCreated?.({ matchID, metadata, setupData: b.setupData });
    ctx.body = { matchID };
  });

  router.post('/games/:name/vs-computer', json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body ?? {});
    v.allowOnly(b, ['botSeat', 'level', 'setupData']);
    const botSeat = v.seat(b.botSeat, false, 'botSeat') ?? '1';
    const level = v.level(b.level) ?? 'normal';
    const matchID = newMatchID();
    const { initialState, metadata } = buildMatch(game, b.setupData, true);
    seatBot(metadata, botSeat, level);
    await store.createMatch({ matchID, initialState, metadata });
    await hooks.onMatchCreated?.({ matchID, metadata, setupData: b.setupData });
    ctx.body = { matchID, botSeat, humanSeat: botSeat === '0' ? '1' : '0' } satisfies VsComputerResponse;
  });

  router.post('/games/:name/:id/join', json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'playerName', 'data']);
    const name = v.playerName(b.playerName);
    const wanted = v.seat(b.playerID, false);
    const data = v.playerData(b.data);
    if (data && 'bot' in data) throw new HttpError(400, 'data.bot is set by the server for its own seats');
    const playerCredentials = generateCredentials();
    let playerID = '';
    const done = await store.updateMetadata(ctx.params.id, (m) => {
      const free = (id: string) => !seatOf(m, id).name;
      const id = wanted ?? ['0', '1'].find(free);
      if (id === undefined) throw new HttpError(409, `match ${ctx.params.id} is full`);
      if (!free(id)) throw new HttpError(409, `seat ${id} (${role(id)}) is already taken`);
      playerID = id;
      const seat: Seat = { ...seatOf(m, id), name, credentials: playerCredentials };
      if (data) seat.data = data;
      return { ...m, players: { ...m.players, [id]: seat }, updatedAt: Date.now() };
    });
    if (done === undefined) throw notFound(ctx.params.id);
    await service.metadataChanged(ctx.params.id);
    ctx.body = { playerID, playerCredentials };
  });

  router.post('/games/:name/:id/leave', json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials']);
    const playerID = v.seat(b.playerID, true)!;
    const creds = v.credentials(b.credentials);
    const done = await store.updateMetadata(ctx.params.id, (m) => {
      authorise(m, playerID, creds);
      const { name: _n, credentials: _c, ...rest } = seatOf(m, playerID);
      const players = { ...m.players, [playerID]: rest };
      // Nobody left (a bot does not count): the match goes, as in boardgame.io.
      return Object.values(players).some((p) => (p as Seat).name && !botLevelOf(p as Seat)) ? { ...m, players, updatedAt: Date.now() } : null;
    });
    if (done === undefined) throw notFound(ctx.params.id);
    await service.metadataChanged(ctx.params.id);
    ctx.body = {};
  });

  const update = async (ctx: Router.RouterContext) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials', 'newName', 'data']);
    const playerID = v.seat(b.playerID, true)!;
    const creds = v.credentials(b.credentials);
    const newName = b.newName === undefined ? undefined : v.playerName(b.newName, 'newName');
    const data = v.playerData(b.data);
    if (newName === undefined && data === undefined) throw new HttpError(400, 'newName or data is required');
    if (data && 'bot' in data) throw new HttpError(400, 'data.bot is set by the server for its own seats');
    const done = await store.updateMetadata(ctx.params.id, (m) => {
      authorise(m, playerID, creds);
      const seat = { ...seatOf(m, playerID) };
      if (newName !== undefined) seat.name = newName;
      if (data !== undefined) seat.data = data ?? undefined;
      return { ...m, players: { ...m.players, [playerID]: seat }, updatedAt: Date.now() };
    });
    if (done === undefined) throw notFound(ctx.params.id);
    await service.metadataChanged(ctx.params.id);
    ctx.body = {};
  };
  router.post('/games/:name/:id/update', json, update);
  router.post('/games/:name/:id/rename', json, update);

  router.post('/games/:name/:id/playAgain', json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials', 'unlisted', 'setupData', 'numPlayers']);
    const playerID = v.seat(b.playerID, true)!;
    const creds = v.credentials(b.credentials);
    const unlisted = v.optionalBoolean(b.unlisted, 'unlisted');
    v.numPlayers(b.numPlayers);
    let nextMatchID = '';
    let created: { matchID: string; metadata: Server.MatchData; setupData: unknown } | null = null;
    const done = await store.updateMetadata(ctx.params.id, (m) => {
      authorise(m, playerID, creds);
      if (m.nextMatchID) {
        nextMatchID = m.nextMatchID;
        return m;
      }
      // Created inside the same transaction as the link: both players asking at once get one match.
      const setupData = b.setupData ?? m.setupData;
      const { initialState, metadata } = buildMatch(game, setupData, unlisted ?? m.unlisted ?? false);
      // The computer plays again in its seat.
      for (const id of ['0', '1'] as const) {
        const level = botLevelOf(seatOf(m, id));
        if (level) seatBot(metadata, id, level);
      }
      nextMatchID = newMatchID();
      created = { matchID: nextMatchID, metadata, setupData };
      return { metadata: { ...m, nextMatchID }, create: { matchID: nextMatchID, initialState, metadata } };
    });
    if (done === undefined) throw notFound(ctx.params.id);
    if (created) await hooks.onMatchCreated?.(created);
    await service.metadataChanged(ctx.params.id);
    ctx.body = { nextMatchID };
  });

  return router;
}
