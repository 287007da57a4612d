/**
 * The computer standing in for a seat's owner (docs/ARCHITECTURE.md "Clocks and stand-ins"):
 *
 * - POST /games/:name/:id/standIn { playerID, credentials }: a seated player hands the opponent's seat to
 *   the computer (level normal) once its owner has been away — no socket connected — for the match's
 *   `abandonMinutes`, so the game can finish; in a rated game the away seat loses instead (or the game is
 *   aborted before both sides decided: match/ending.ts);
 * - POST /games/:name/:id/takeBack { playerID, credentials }: the owner plays the seat again (after a
 *   hand-over, or after its clock ran out with `onTimeout: "bot"`), with at least a minute on a clock.
 *
 * Each is one change of the metadata under the match's lock; a refusal says why and changes nothing.
 */
import type Router from '@koa/router';
import { settingsFrom, type PlayerID } from '../../game/index';
import { botLevelOf, openSeat, otherSeat, roleText, seatEntry } from '../../protocol/index';
import { requireSeat } from '../auth';
import { takeBack } from '../match/clock';
import type { MatchService } from '../match/service';
import { HttpError } from '../storage/errors';
import type { MatchData } from '../storage/types';
import { endByExit } from './exits';
import * as v from './validate';

type Json = Router.Middleware;


function seatedPlayer(m: MatchData, playerID: PlayerID, creds: string): void {
  requireSeat(m, playerID, creds);
  if (m.gameover !== undefined) throw new HttpError(409, 'the game is over');
}

/** Why the opponent's seat cannot be handed to the computer now, or null. */
export function handOverRefusal(m: MatchData, target: PlayerID, now: number): string | null {
  const minutes = settingsFrom(m.setupData as never).abandonMinutes;
  if (minutes === null) return 'this match was created without handing over away seats (abandonMinutes)';
  if (openSeat(Object.values(m.players)) !== null) return 'the game has not started: both seats must be taken';
  if (botLevelOf(seatEntry(m.players, target))) return `the computer already plays ${roleText(target)}`;
  if (m.standIns?.[target as '0' | '1']) return `the computer already stands in for ${roleText(target)}`;
  const since = m.away?.[target as '0' | '1'];
  if (since === undefined) return `${roleText(target)} is connected`;
  if (now - since < minutes * 60_000) return `${roleText(target)} has been away for less than ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return null;
}

export function addStandInRoutes(router: Router, json: Json, service: MatchService, requireGame: (name: string) => void): void {
  const read = (ctx: Router.RouterContext) => {
    requireGame(ctx.params.name);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['playerID', 'credentials']);
    return { playerID: v.seat(b.playerID, true)! as PlayerID, creds: v.credentials(b.credentials) };
  };
  const change = async (ctx: Router.RouterContext, fn: (m: MatchData, now: number) => MatchData) => {
    const now = Date.now();
    const done = await service.changeMetadata(ctx.params.id, (m) => fn(m, now));
    if (done === undefined) throw new HttpError(404, `match ${ctx.params.id} not found`);
    ctx.body = {};
  };

  router.post('/games/:name/:id/standIn', json, async (ctx) => {
    const { playerID, creds } = read(ctx);
    const target = otherSeat(playerID);
    const mayHandOver = (m: MatchData, now: number) => {
      seatedPlayer(m, playerID, creds);
      const why = handOverRefusal(m, target, now);
      if (why) throw new HttpError(409, why);
      return null;
    };
    // A rated game is lost by the seat away past the limit (or aborted): the computer never plays it (match/ending.ts).
    if (await endByExit(service, ctx.params.id, target, 'abandon', null, (m) => mayHandOver(m, Date.now()))) return void (ctx.body = {});
    await change(ctx, (m, now) => {
      mayHandOver(m, now);
      return { ...m, standIns: { ...m.standIns, [target]: { level: 'normal', reason: 'abandoned', since: now } } };
    });
  });

  router.post('/games/:name/:id/takeBack', json, async (ctx) => {
    const { playerID, creds } = read(ctx);
    await change(ctx, (m, now) => {
      seatedPlayer(m, playerID, creds);
      if (!m.standIns?.[playerID as '0' | '1']) throw new HttpError(409, 'the computer is not playing your seat');
      const standIns = { ...m.standIns };
      delete standIns[playerID as '0' | '1'];
      const setting = settingsFrom(m.setupData as never).clock;
      return { ...m, standIns, ...(m.clock && setting ? { clock: takeBack(m.clock, setting, playerID, now) } : {}) };
    });
  });
}
