/**
 * A game's end as a notice (server/notices/): in the process that saved the ending move, every seat
 * held by an account whose player has no connected socket hears how it ended, with the rating change
 * when rated (read from the record the same write made: storage/accounts.ts).
 */
import { seatEntry } from '../../protocol/index';
import type { MatchService } from '../match/service';
import type { AccountStore } from '../storage/accounts';
import { seatAccount } from '../storage/accounts';
import type { Notices } from './index';

export function noticeGameEnds(o: { service: MatchService; accounts: AccountStore; notices: Notices; link: (matchID: string) => string }): void {
  o.service.onState((m) => {
    if (m.reason !== 'move' || m.state.ctx.gameover === undefined) return;
    const absent = (['0', '1'] as const).filter((s) => {
      const p = seatEntry(m.metadata.players, s);
      return p && p.isConnected !== true && seatAccount(p) !== null;
    });
    if (absent.length === 0) return;
    o.notices.track(
      o.accounts.matchResults(m.matchID).then((rows) => {
        for (const seat of absent) {
          const accountID = seatAccount(seatEntry(m.metadata.players, seat))!.id;
          const r = rows.find((x) => x.side === seat && x.accountID === accountID);
          const over = m.state.ctx.gameover as { winner?: unknown };
          const outcome = over.winner === seat ? 'won' : over.winner === '0' || over.winner === '1' ? 'lost' : 'aborted';
          const rating = r?.rated && r.ratingBefore !== null && r.ratingAfter !== null ? { before: Math.round(r.ratingBefore), after: Math.round(r.ratingAfter) } : undefined;
          o.notices.gameEnd({ matchID: m.matchID, accountID, seat, outcome, rating, link: o.link(m.matchID) });
        }
      }),
      'gameEnd',
      m.matchID,
    );
  });
}
