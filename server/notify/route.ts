/**
 * `POST /games/:name/:id/notify` `{ playerID, credentials, webhook }`: a seated player sets the seat's
 * turn-notification webhook from the board, or removes it (null or ''). Wrong credentials: 403, as the
 * Lobby routes answer. Mounted by lobbyRoutes with its body parser.
 */
import type Router from '@koa/router';
import { seatEntry } from '../../protocol/index';
import { requireSeat } from '../auth';
import * as v from '../lobby/validate';
import type { MatchService } from '../match/service';
import { HttpError } from '../storage/errors';
import { checked } from './register';

export function addNotifyRoute(router: Router, json: Router.Middleware, service: MatchService, requireGame: (name: string) => void): void {
  router.post('/games/:name/:id/notify', json, async (ctx) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials', 'webhook']);
    const playerID = v.seat(b.playerID, true)!;
    const creds = v.credentials(b.credentials);
    const notify = checked(b.webhook, 'webhook', ctx);
    // The service's copy of the seats is what the notifier reads after a move (here and in other processes).
    const done = await service.changeMetadata(ctx.params.id, (m) => {
      requireSeat(m, playerID, creds);
      const seat = seatEntry(m.players, playerID);
      const { notify: _old, ...data } = (seat.data ?? {}) as Record<string, unknown>;
      if (notify) data.notify = notify;
      // Not game activity: updatedAt stays (it orders the lobby and the stale sweep).
      return { ...m, players: { ...m.players, [playerID]: { ...seat, data: Object.keys(data).length > 0 ? data : undefined } } };
    });
    if (done === undefined) throw new HttpError(404, `match ${ctx.params.id} not found`);
    ctx.body = { webhook: notify !== null };
  });
}
