/**
 * GET /games/:name/:id/analysis — a finished match's analysis (protocol/analysis.ts), read-only: 200 with
 * the stored analysis, 202 while it is computed (asking starts it: analyser.ts), 403 while the game is on
 * (the analysis sees hands; the same words whatever the state), 404 for an unknown match, and 204 on a
 * server that computes none (ANALYSIS_CACHE=0, or no worker pool) when none is stored: the page then
 * computes its own.
 */
import type Router from '@koa/router';
import type { Game } from 'boardgame.io';
import { ANALYSIS_NOT_YET } from '../../protocol/analysis';
import { requireFinished } from '../lobby/replay';
import type { MatchStore } from '../storage/types';
import type { GameAnalyser } from './analyser';

export function addAnalysisRoute(router: Router, game: Game, store: MatchStore, analyser: GameAnalyser | null): void {
  router.get('/games/:name/:id/analysis', async (ctx) => {
    const matchID = ctx.params.id;
    await requireFinished(store, game, ctx.params.name, matchID, ANALYSIS_NOT_YET);
    const got = analyser ? await analyser.get(matchID, String(ctx.state.clientAddress ?? ctx.ip)) : await store.analyses.get(matchID);
    if (got && 'body' in got && got.body) {
      ctx.type = 'application/json';
      ctx.body = got.body;
    } else if (got && 'pending' in got) {
      ctx.status = 202;
      ctx.body = got;
    } else ctx.status = 204;
  });
}
