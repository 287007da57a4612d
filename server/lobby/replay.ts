/**
 * GET /games/:name/:id/replay — a finished match for the replay page and "Download game"
 * (protocol/replay.ts): the stored initial state and every move, which the same reducer turns into every
 * state of the game. While the game is on it would give away hands, decks and the bag (and the PRNG seed),
 * so it answers 403 with the same words whatever the state; an unknown match is 404.
 */
import type Router from '@koa/router';
import type { Game } from 'boardgame.io';
import { seatEntry } from '../../protocol/index';
import { REPLAY_FORMAT, REPLAY_NOT_YET, type ReplayData } from '../../protocol/replay';
import { HttpError } from '../storage/errors';
import type { MatchStore } from '../storage/types';

const ROLES = { '0': 'editor', '1': 'nixon' } as const;

/**
 * Refuses anything but a finished match of this game: 404 for another game or an unknown match, 403 with
 * `notYet` (the same words whatever the state) while it is on. The head only: cheap, and nothing else is
 * read for a match still in play.
 */
export async function requireFinished(store: MatchStore, game: Game, name: string, matchID: string, notYet: string): Promise<void> {
  if (name !== game.name) throw new HttpError(404, `game "${name}" not found`);
  const head = await store.head(matchID);
  if (!head) throw new HttpError(404, `match ${matchID} not found`);
  if (head.metadata.gameover === undefined) throw new HttpError(403, notYet);
}

export function addReplayRoute(router: Router, game: Game, store: MatchStore): void {
  router.get('/games/:name/:id/replay', async (ctx) => {
    const matchID = ctx.params.id;
    await requireFinished(store, game, ctx.params.name, matchID, REPLAY_NOT_YET);
    const [loaded, rows] = await Promise.all([store.load(matchID, { initialState: true }), store.movesAfter(matchID, 0)]);
    if (!loaded) throw new HttpError(404, `match ${matchID} not found`);
    const m = loaded.metadata;
    // Names and roles only: a seat's credentials and private `data` stay on the server.
    const players = (['0', '1'] as const).map((id) => ({ id, role: ROLES[id], name: seatEntry(m.players, id)?.name ?? null }));
    const moves = rows
      .filter((r) => r.stateID <= loaded.stateID)
      .map((r) => ({ stateID: r.stateID, playerID: r.action.payload.playerID as '0' | '1', move: r.action.payload.type, args: r.action.payload.args ?? [] }));
    ctx.body = { format: REPLAY_FORMAT, matchID, setupData: m.setupData ?? null, players, initialState: loaded.initialState, moves, gameover: m.gameover } satisfies ReplayData;
  });
}
