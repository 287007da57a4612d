/**
 * A finished match's result as its players see it at the end and on their profiles: each account seat's
 * rating change (before, after, provisional) or why the game was not rated (a code the client words,
 * docs/RATINGS.md). The same answer for everyone, nothing private; an unlisted match's result is its
 * players' only (anyone else gets the empty answer of a match without one).
 */
import type Router from '@koa/router';
import type { MatchResult } from '../../protocol/accounts';
import { isProvisional } from '../ratings/rules';
import type { Account, ResultRow } from '../storage/accounts';
import type { MatchStore } from '../storage/types';

export const RESULT_PATH = /^\/games\/watergate\/[^/]+\/result$/;

export const seatResult = (r: ResultRow, username: string | null): MatchResult['seats'][number] => ({
  side: r.side,
  username,
  rated: r.rated,
  unratedReason: r.unratedReason,
  ratingBefore: r.ratingBefore,
  ratingAfter: r.ratingAfter,
  provisional: r.rdAfter !== null && isProvisional(r.rdAfter),
});

export function addResultRoute(o: { router: Router; store: MatchStore }): void {
  o.router.get('/games/watergate/:id/result', async (ctx) => {
    const matchID = ctx.params.id;
    // Nothing to show (no such match, not over, nobody with an account played it, or an unlisted match
    // asked by someone who did not play it) is one answer, an empty list: it tells nothing, and the
    // game-over dialog of every finished match asks without an error.
    const none = { matchID, seats: [] } satisfies MatchResult;
    if (matchID.length > 100) return void (ctx.body = none);
    const rows = await o.store.accounts.matchResults(matchID);
    if (rows.length === 0) return void (ctx.body = none);
    const head = await o.store.head(matchID);
    const me = ctx.state.account as Account | undefined;
    if (head?.metadata.unlisted && !rows.some((r) => r.accountID === me?.id)) return void (ctx.body = none);
    // Each seat's account by its username now (a deleted account's row is gone with it).
    const own = await Promise.all(rows.map((r) => o.store.accounts.byID(r.accountID).then((a) => a?.username ?? null)));
    ctx.body = { matchID, seats: rows.map((r, i) => seatResult(r, own[i])) } satisfies MatchResult;
  });
}
