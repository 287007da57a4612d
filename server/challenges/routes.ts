/**
 * Challenges by name (docs/BOT-API.md "Challenges"), for people (session cookie) and bots (a `bot`-scoped
 * token) alike: send one to a player, accept, decline or cancel it, list yours. The rules, each refused
 * with a 4xx that names it:
 * - a block either way refuses the challenge as "not accepting challenges from you" (no more is said);
 * - a game between a human and a bot account is always casual: `rated: true` across is refused (400);
 *   bots are rated among bots (ratings/rules.ts unratedBecause says 'computer' for any such pair);
 * - a rated challenge is one of the rated time controls (protocol/rated.ts), take-backs off;
 * - at most CHALLENGES.maxPendingOut pending at once per challenger; LIMITS.challenge per account;
 * - a challenge expires CHALLENGES.liveMs (live clock) or CHALLENGES.correspondenceMs (untimed or
 *   relaxed) after it was sent: after that it cannot be accepted and is no longer listed.
 */
import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { Game } from 'boardgame.io';
import { TIME_CONTROL_NAMES, type TimeControl } from '../../protocol/rated';
import { address } from '../accounts/routes';
import { enforce, type Limiter } from '../limits';
import * as v from '../lobby/validate';
import type { MatchService } from '../match/service';
import { newMatchID } from '../lobby/matches';
import { accountByName, caller } from '../social/blocks';
import type { Account } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { Challenge, ChallengeSide } from '../storage/social';
import type { MatchStore } from '../storage/types';
import type { AccountEvents } from './events';
import { createChallengeMatch, setupOf } from './match';
import { challengeOut } from './wire';

export const CHALLENGES = {
  /** A challenge with the live clock waits this long for an answer. */
  liveMs: 20 * 60_000,
  /** An untimed or relaxed (correspondence) challenge waits this long. */
  correspondenceMs: 24 * 3_600_000,
  /** Pending challenges one account may have sent at once. */
  maxPendingOut: 10,
};

const SIDES: readonly ChallengeSide[] = ['editor', 'nixon', 'random'];
const NOT_ACCEPTING = 'this player is not accepting challenges from you';
const idOf = (raw: string): string => {
  if (!/^[A-Za-z0-9_-]{16}$/.test(raw)) throw new HttpError(404, 'no such challenge');
  return raw;
};

/** Tells the challenged account by its notice channels (server/notices/ noticeChallenge: e-mail, push). */
export type ChallengeNoticeHook = (n: { accountID: string; from: string }) => void;

export function addChallengeRoutes(o: { router: Router; json: Router.Middleware; store: MatchStore; service: MatchService; game: Game; limiter: Limiter; events: AccountEvents; notice?: ChallengeNoticeHook }): void {
  const { router, json, store, limiter, events } = o;
  const accounts = store.accounts;
  const social = store.social;

  router.get('/api/stream/event', async (ctx) => {
    const { account, bearer } = await caller(ctx, accounts);
    await enforce(limiter, 'eventStream', account.id);
    const pending = await social.challenges(account.id, Date.now());
    await events.start(ctx, account.id, bearer?.hash ?? null, address(ctx), pending);
  });

  router.get('/api/challenge', async (ctx) => {
    const { account } = await caller(ctx, accounts);
    const all = await social.challenges(account.id, Date.now());
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { in: all.filter((c) => c.toID === account.id).map(challengeOut), out: all.filter((c) => c.fromID === account.id).map(challengeOut) };
  });

  router.post('/api/challenge/:username', json, async (ctx) => {
    const { account } = await caller(ctx, accounts);
    await enforce(limiter, 'challenge', account.id);
    const b = v.body(ctx.request.body ?? {});
    v.allowOnly(b, ['side', 'rated', 'clock', 'takeBacks']);
    const side = b.side ?? 'random';
    if (!(SIDES as readonly unknown[]).includes(side)) throw new HttpError(400, 'side must be "editor", "nixon" or "random"');
    const clock = b.clock ?? 'none';
    if (!(TIME_CONTROL_NAMES as readonly unknown[]).includes(clock)) throw new HttpError(400, `clock must be ${TIME_CONTROL_NAMES.map((n) => `"${n}"`).join(', ')}`);
    const rated = v.optionalBoolean(b.rated, 'rated') ?? false;
    const takeBacks = v.optionalBoolean(b.takeBacks, 'takeBacks') ?? false;
    const them = await accountByName(accounts, ctx.params.username);
    if (them.id === account.id) throw new HttpError(400, 'you cannot challenge yourself');
    if (rated && them.bot !== account.bot) throw new HttpError(400, 'a game between a human and a bot is always casual: leave rated out');
    if (rated) setupOf({ clock: clock as TimeControl, rated, takeBacks }); // a 400 naming what a rated match may not have
    const now = Date.now();
    const c = {
      id: randomBytes(12).toString('base64url'),
      fromID: account.id,
      toID: them.id,
      side: side as ChallengeSide,
      clock: clock as TimeControl,
      rated,
      takeBacks,
      createdAt: now,
      expiresAt: now + (clock === 'live' ? CHALLENGES.liveMs : CHALLENGES.correspondenceMs),
    };
    const added = await social.addChallenge(c, CHALLENGES.maxPendingOut);
    if (added === 'blocked') throw new HttpError(403, NOT_ACCEPTING);
    if (added === 'too-many') throw new HttpError(409, `at most ${CHALLENGES.maxPendingOut} pending challenges at once: cancel one, or wait for answers`);
    const stored = (await social.challenge(c.id))!;
    events.challenge('challenge', stored);
    o.notice?.({ accountID: them.id, from: account.username });
    ctx.body = { id: c.id, challenge: challengeOut(stored) };
  });

  /** The challenge for an answer by `account` in role `as`: 404 to anyone else, 409 once it is not open. */
  const open = async (rawID: string, account: Account, as: 'to' | 'from'): Promise<Challenge> => {
    const c = await social.challenge(idOf(rawID));
    if (!c || (c.toID !== account.id && c.fromID !== account.id)) throw new HttpError(404, 'no such challenge');
    if ((as === 'to' ? c.toID : c.fromID) !== account.id) throw new HttpError(403, as === 'to' ? 'only the challenged player answers a challenge' : 'only the challenger cancels a challenge');
    if (c.status !== 'pending') throw new HttpError(409, `this challenge was ${c.status}`);
    if (c.expiresAt <= Date.now()) throw new HttpError(410, 'this challenge has expired');
    return c;
  };
  const settled = (c: Challenge | undefined): Challenge => {
    if (!c) throw new HttpError(409, 'this challenge was answered meanwhile');
    return c;
  };

  router.post('/api/challenge/:id/accept', async (ctx) => {
    const { account } = await caller(ctx, accounts);
    await enforce(limiter, 'challengeAnswer', account.id);
    const c = await open(ctx.params.id, account, 'to');
    // A block made after the challenge was sent refuses it too.
    if (await social.blockedEither(c.fromID, c.toID)) throw new HttpError(403, NOT_ACCEPTING);
    const from = await accounts.byID(c.fromID);
    if (!from) throw new HttpError(404, 'no such challenge');
    const { password: _p, ...challenger } = from;
    // Claimed first, with the match's id (once, whichever process and request): only then is the match made.
    const matchID = newMatchID();
    const mine = settled(await social.settle(c.id, 'accepted', Date.now(), matchID));
    const made = await createChallengeMatch({ game: o.game, store, service: o.service }, matchID, mine, challenger, account);
    events.gameStart(made.matchID, made.metadata);
    ctx.body = { matchID: made.matchID, playerID: made.seat, playerCredentials: made.credentials };
  });

  router.post('/api/challenge/:id/decline', async (ctx) => {
    const { account } = await caller(ctx, accounts);
    await enforce(limiter, 'challengeAnswer', account.id);
    const c = await open(ctx.params.id, account, 'to');
    events.challenge('challengeDeclined', settled(await social.settle(c.id, 'declined', Date.now())));
    ctx.body = { ok: true };
  });

  router.post('/api/challenge/:id/cancel', async (ctx) => {
    const { account } = await caller(ctx, accounts);
    await enforce(limiter, 'challengeAnswer', account.id);
    const c = await open(ctx.params.id, account, 'from');
    events.challenge('challengeCanceled', settled(await social.settle(c.id, 'canceled', Date.now())));
    ctx.body = { ok: true };
  });
}
