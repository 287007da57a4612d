/**
 * Stale matches go (STALE_HOURS, docs/ARCHITECTURE.md "Operations"): a match that is not over, that
 * nothing happened to for that long (joins, leaves and moves set `updatedAt`; presence does not) and
 * where no human seat is connected is deleted. Finished matches stay (replays need them).
 *
 * The check is made again inside the deleting transaction, so a join or a move that lands between the
 * listing and the delete keeps the match, and several processes sweeping the same storage at once are
 * harmless: the first deletes, the others find nothing.
 */
import { botLevelOf } from '../../protocol/index';
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

export function startStaleSweeper(o: { store: MatchStore; service: MatchService; log: Logger; metrics?: Metrics; staleMs: number }): StaleSweeper {
  let running: Promise<number> | null = null;
  const pass = async (): Promise<number> => {
    const cutoff = Date.now() - o.staleMs;
    const stale = (m: MatchData) => m.gameover === undefined && m.updatedAt < cutoff && !humanHere(m);
    let removed = 0;
    for (const matchID of await o.store.listMatches({ where: { isGameover: false, updatedBefore: cutoff } })) {
      const out = await o.store.updateMetadata(matchID, (m) => (stale(m) ? null : m));
      if (out !== null) continue; // kept (someone is here), or already gone
      removed++;
      o.metrics?.staleRemoved.inc();
      o.log.info({ matchID, staleHours: o.staleMs / 3_600_000 }, 'stale match removed');
      await o.service.metadataChanged(matchID);
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
  const every = Math.max(1_000, Math.min(o.staleMs / 2, 10 * 60_000));
  const timer = setInterval(() => void sweep(), every).unref();
  return {
    sweep,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
