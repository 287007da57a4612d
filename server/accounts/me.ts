/**
 * A signed-in player's own things: every seat the account holds, with its credentials (only to that
 * account: the seats' metadata must still name it), seats of this browser given to the account at
 * sign-in, and everything the server keeps about the account as JSON ("download my data").
 */
import type Router from '@koa/router';
import type { ClaimRequest, MyMatch, MyMatches } from '../../protocol/accounts';
import { seatEntry } from '../../protocol/index';
import { authenticateCredentials } from '../auth';
import { enforce, type Limiter } from '../limits';
import * as v from '../lobby/validate';
import type { MatchService } from '../match/service';
import { seatAccount, type AccountStore } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { MatchStore } from '../storage/types';
import { address } from './routes';
import { accountMark, linkOf, markedData } from './seat';
import { signedIn } from './session';

/** Seats one claim may give to the account. */
const CLAIM_MAX = 50;

export function addMeRoutes(o: { router: Router; json: Router.Middleware; store: MatchStore; service: MatchService; limiter: Limiter }): void {
  const { router, json, store, service, limiter } = o;
  const accounts: AccountStore = store.accounts;

  router.get('/me/matches', async (ctx) => {
    const a = signedIn(ctx);
    const matches: MyMatch[] = [];
    for (const l of await accounts.heldSeats(a.id)) {
      const seat = seatEntry(l.metadata.players, l.seat);
      // The metadata is the truth: a seat left or taken by someone else since is no longer the account's.
      if (!seat || seatAccount(seat)?.id !== a.id || !seat.credentials) {
        await accounts.unlink(l.matchID, l.seat);
        continue;
      }
      matches.push({ matchID: l.matchID, playerID: l.seat, playerCredentials: seat.credentials, name: seat.name ?? a.username, over: l.metadata.gameover !== undefined });
    }
    ctx.body = { matches } satisfies MyMatches;
  });

  // Seats held as a guest in this browser, proven by their credentials, become the account's (and take its username).
  router.post('/me/claim', json, async (ctx) => {
    signedIn(ctx);
    const b = v.body(ctx.request.body);
    v.allowOnly(b, ['seats']);
    if (!Array.isArray(b.seats) || b.seats.length > CLAIM_MAX) throw new HttpError(400, `seats must be a list of at most ${CLAIM_MAX} seats`);
    const seats = (b.seats as unknown[]).map((s, i) => {
      const x = v.body(s);
      v.allowOnly(x, ['matchID', 'playerID', 'credentials']);
      if (typeof x.matchID !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(x.matchID)) throw new HttpError(400, `seats[${i}].matchID must be a match id`);
      return { matchID: x.matchID, playerID: v.seat(x.playerID, true, `seats[${i}].playerID`)!, credentials: v.credentials(x.credentials) } satisfies ClaimRequest['seats'][number];
    });
    // Each seat asked for is a locked write: counted as a seat taken (`join`), so claims cannot flood the database.
    await enforce(limiter, 'join', address(ctx), Math.max(1, seats.length));
    const mark = (await accountMark(ctx, accounts))!;
    const claimed: string[] = [];
    for (const s of seats) {
      let took = false;
      await service
        .changeMetadata(s.matchID, (m) => {
          const seat = seatEntry(m.players, s.playerID);
          // Someone else's account already holds it, or these are not its credentials: left alone.
          if (!seat || !authenticateCredentials(s.credentials, seat) || seatAccount(seat)) return m;
          took = true;
          // Named by the account from now on, as every account seat is (its rating is shown beside that name only).
          const claimed = { ...seat, name: mark.username, data: markedData(seat.data as Record<string, unknown> | undefined, mark) };
          return { metadata: { ...m, players: { ...m.players, [s.playerID]: claimed } }, links: linkOf(s.matchID, s.playerID, mark) };
        })
        .catch((e: unknown) => {
          if (!(e instanceof HttpError)) throw e;
        });
      if (took) claimed.push(s.matchID);
    }
    ctx.body = { claimed };
  });

  // Everything kept about the account, as JSON: never its password hash, sessions or seat credentials.
  router.get('/me/data', async (ctx) => {
    const a = signedIn(ctx);
    const ratings = (await accounts.ratings([a.id])).get(a.id) ?? {};
    ctx.set('Content-Disposition', 'attachment; filename="watergate-account.json"');
    ctx.body = {
      account: { username: a.username, createdAt: new Date(a.createdAt).toISOString(), hasPassword: a.hasPassword, settings: a.settings },
      passkeys: (await accounts.passkeys(a.id)).map((p) => ({ id: p.id, name: p.name, createdAt: new Date(p.createdAt).toISOString(), lastUsedAt: p.lastUsedAt === null ? null : new Date(p.lastUsedAt).toISOString(), transports: p.transports })),
      // Where the account was seen (accounts/seen.ts): only the stored HMACs and when, never an address in clear.
      seen: (await accounts.seenOf(a.id)).map((x) => ({ kind: x.kind, hash: x.hash, seenAt: new Date(x.seenAt).toISOString() })),
      ratings: { editor: ratings['0'] ?? null, nixon: ratings['1'] ?? null },
      seats: (await accounts.seats(a.id)).map((l) => ({ matchID: l.matchID, playerID: l.seat })),
      results: await accounts.results(a.id, 10_000),
      // Whom the account follows and where its pushes go (the push service's host: the rest of the address is the browser's).
      following: (await store.follows.following(a.id)).map((f) => f.username),
      pushSubscriptions: (await store.follows.pushSubscriptions(a.id)).map((p) => ({ service: new URL(p.endpoint).host, lang: p.lang, createdAt: new Date(p.createdAt).toISOString() })),
      // E-mail (server/mail/): the address, whether confirmed, its language and notice settings.
      email: (await store.mail.address(a.id)) ?? null,
    };
  });
}
