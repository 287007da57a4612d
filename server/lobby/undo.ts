/**
 * POST /games/:name/:id/undo { playerID, credentials, stateID?, accept? } — take-backs
 * (docs/ARCHITECTURE.md "Take-backs", protocol UndoResponse): a seat asks to take back its last decision
 * on the state it saw, or answers the opponent's request with `accept`. The match service decides in the
 * match's queue (server/match/undo.ts); a refusal is a 409 with its reason.
 */
import type Router from '@koa/router';
import type { PlayerID } from '../../game/index';
import type { LimitName } from '../limits';
import type { MatchService } from '../match/service';
import { HttpError } from '../storage/errors';
import * as v from './validate';

export function addUndoRoute(router: Router, json: Router.Middleware, service: MatchService, requireGame: (name: string) => void, limit: (name: LimitName) => Router.Middleware): void {
  router.post('/games/:name/:id/undo', limit('undo'), json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials', 'stateID', 'accept']);
    const playerID = v.seat(b.playerID, true)! as PlayerID;
    const credentials = v.credentials(b.credentials);
    const stateID = v.optionalStateID(b.stateID) ?? null;
    const accept = v.optionalBoolean(b.accept, 'accept') ?? null;
    const out = await service.undo({ matchID: ctx.params.id, playerID, credentials, stateID, accept });
    if ('error' in out) throw new HttpError(out.status, out.error);
    ctx.status = out.status;
    ctx.body = out.body;
  });
}
