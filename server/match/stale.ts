/**
 * Stale matches go (STALE_HOURS, docs/ARCHITECTURE.md "Operations"): a match that is not over, that
 * nothing happened to for that long (joins, leaves and moves set `updatedAt`; presence does not) and
 * where no human seat is connected is deleted. Finished matches stay (replays need them) unless the
 * deployment keeps them only so long (KEEP_FINISHED_DAYS): then a finished match not updated for that
 * long goes, with its moves, states and chat (the storage deletes those with the match row).
 *
 * Two kinds of stale match are not deleted: a timed match whose clock runs ends on time, and a rated game
 * in play ends as ending.ts says — the seat the game has waited for that long is abandoned (it loses, or
 * the game is aborted before both sides decided): deleting it would let a losing player erase the game
 * by staying away.
 *
 * The check is made again inside the deleting (or ending) transaction, so a join or a move that lands
 * between the listing and the delete keeps the match, and several processes sweeping the same storage at
 * once are harmless: the first deletes, the others find nothing.
 */
import type { PlayerID } from '../../game/index';
import { botLevelOf, openSeat } from '../../protocol/index';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import type { MatchData, MatchStore } from '../storage/types';
import type { MatchService } from './service';

export interface StaleSweeper {
  /** One pass (the timer runs it; tests may too): resolves to the number of matches removed. */
  sweep(): Promise<number>;
  /** Stops the timer and waits for a pass in progress (before storage closes). */
  stop(): Promise<void>;
}

/** A seat with a person's socket on it (a bot's seat is always marked connected: it does not count). */
const humanHere = (m: MatchData) => Object.values(m.players).some((p) => p.isConnected === true && !botLevelOf(p));
/** A rated game both seats have taken: it ends by its rules (ending.ts), never by deletion. */
const ratedInPlay = (m: MatchData) => m.rated === true && openSeat(Object.values(m.players)) === null;
/** A clock runs: the game ends on time. */
const clockRuns = (m: MatchData) => m.clock !== undefined && m.clock.running !== null;

export interface SweepOptions {
  store: MatchStore;
  service: MatchService;
  log: Logger;
  metrics?: Metrics;
  /** Unfinished idle matches older than this go; 0: never. */
  staleMs: number;
  /** Finished matches older than this go; 0 or absent: kept forever. */
  keepFinishedMs?: number;
}

export function startStaleSweeper(o: SweepOptions): StaleSweeper {
  let running: Promise<number> | null = null;
  /** Deletes each listed match that `gone` still says should go, inside the deleting transaction. */
  const remove = async (ids: string[], gone: (m: MatchData, matchID: string) => boolean, what: object, msg: string) => {
    let removed = 0;
    for (const matchID of ids) {
      const out = await o.service.changeMetadata(matchID, (m) => (gone(m, matchID) ? null : m));
      if (out !== null) continue; // kept (someone is here, or it changed meanwhile), or already gone
      removed++;
      o.log.info({ matchID, ...what }, msg);
    }
    return removed;
  };
  /** A stale rated game in play: the seat it waits for has abandoned it (checked again in the match's queue). */
  const abandoned = async (matchID: string, stale: (m: MatchData) => boolean) => {
    const now = await o.service.current(matchID);
    const decider = (now?.state.G.prompt?.player ?? null) as PlayerID | null;
    if (!now || decider === null) return;
    const out = await o.service.exit(matchID, decider, 'abandon', null, (m) => (stale(m) ? null : 'played meanwhile'));
    if ('ended' in out && out.ended) o.log.info({ matchID, seat: decider }, 'stale rated game ended: the seat it waited for abandoned it');
  };
  const pass = async (): Promise<number> => {
    let removed = 0;
    if (o.staleMs > 0) {
      const cutoff = Date.now() - o.staleMs;
      const stale = (m: MatchData) => m.gameover === undefined && m.updatedAt < cutoff && !humanHere(m);
      const ending: string[] = [];
      const gone = (m: MatchData, matchID: string) => {
        if (!stale(m)) return false;
        if (ratedInPlay(m) && !clockRuns(m)) ending.push(matchID);
        return !ratedInPlay(m) && !clockRuns(m);
      };
      const n = await remove(await o.store.listMatches({ where: { isGameover: false, updatedBefore: cutoff } }), gone, { staleHours: o.staleMs / 3_600_000 }, 'stale match removed');
      o.metrics?.staleRemoved.inc(n);
      removed += n;
      for (const matchID of ending) await abandoned(matchID, stale);
    }
    if (o.keepFinishedMs) {
      const cutoff = Date.now() - o.keepFinishedMs;
      const old = (m: MatchData) => m.gameover !== undefined && m.updatedAt < cutoff;
      removed += await remove(await o.store.listMatches({ where: { isGameover: true, updatedBefore: cutoff } }), old, { keepFinishedDays: o.keepFinishedMs / 86_400_000 }, 'finished match purged');
    }
    return removed;
  };
  const sweep = () =>
    (running ??= pass()
      .catch((err: unknown) => {
        o.log.error({ err }, 'stale match sweep failed');
        return 0;
      })
      .finally(() => (running = null)));
  const shortest = Math.min(...[o.staleMs, o.keepFinishedMs ?? 0].filter((ms) => ms > 0));
  const every = Math.max(1_000, Math.min(shortest / 2, 10 * 60_000));
  const timer = setInterval(() => void sweep(), every).unref();
  return {
    sweep,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
