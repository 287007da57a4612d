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
import { seeHere } from '../accounts/seen';
import { SEEN_TOGETHER } from '../ratings/rules';
import { SEEN_TOGETHER_REFUSAL } from '../../protocol/accounts';
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
import { createChallengeMatch, seatOfSide, setupOf } from './match';
import { challengeOut } from './wire';
import { seatEntry } from '../../protocol/index';
import type { EventGame } from '../../protocol/events';
import { pairedChallengeEvent } from '../events/duel';
import { publicEvent, type EventDoc } from '../events/event';

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

export function addChallengeRoutes(o: { router: Router; json: Router.Middleware; store: MatchStore; service: MatchService; game: Game; limiter: Limiter; events: AccountEvents; notice?: ChallengeNoticeHook; kick?: (eventID: string) => Promise<void> }): void {
  const { router, json, store, limiter, events } = o;
  const accounts = store.accounts;
  const social = store.social;

  router.get('/api/stream/event', async (ctx) => {
    const { account, bearer } = await caller(ctx, accounts);
    await enforce(limiter, 'eventStream', account.id);
    const pending = await social.challenges(account.id, Date.now());
    // A stream lasts as long as its token or session (events.ts): the session middleware set ctx.state.session.
    await events.start(ctx, account.id, bearer ? { token: bearer.hash } : { session: ctx.state.session as string }, address(ctx), pending);
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
    v.allowOnly(b, ['side', 'rated', 'clock', 'takeBacks', 'paired']);
    const side = b.side ?? 'random';
    if (!(SIDES as readonly unknown[]).includes(side)) throw new HttpError(400, 'side must be "editor", "nixon" or "random"');
    const clock = b.clock ?? 'none';
    if (!(TIME_CONTROL_NAMES as readonly unknown[]).includes(clock)) throw new HttpError(400, `clock must be ${TIME_CONTROL_NAMES.map((n) => `"${n}"`).join(', ')}`);
    const rated = v.optionalBoolean(b.rated, 'rated') ?? false;
    const takeBacks = v.optionalBoolean(b.takeBacks, 'takeBacks') ?? false;
    const paired = v.optionalBoolean(b.paired, 'paired') ?? false;
    // A pair is played under the events' fixed rules (server/events/runner.ts): no take-backs.
    if (paired && takeBacks) throw new HttpError(400, 'paired deals are played without take-backs: leave takeBacks out');
    const them = await accountByName(accounts, ctx.params.username);
    if (them.id === account.id) throw new HttpError(400, 'you cannot challenge yourself');
    if (rated && them.bot !== account.bot) throw new HttpError(400, 'a game between a human and a bot is always casual: leave rated out');
    if (rated) setupOf({ clock: clock as TimeControl, rated, takeBacks }); // a 400 naming what a rated match may not have
    await seeHere(ctx, account.id);
    if (rated) await refuseSeenTogether(account, them);
    const now = Date.now();
    const c = {
      id: randomBytes(12).toString('base64url'),
      fromID: account.id,
      toID: them.id,
      side: side as ChallengeSide,
      clock: clock as TimeControl,
      rated,
      takeBacks,
      paired,
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

  /**
   * A rated game between two human accounts seen together would end unrated (ratings/rules.ts
   * SEEN_TOGETHER): refused before it starts rather than surprising both players at its end.
   */
  const refuseSeenTogether = async (me: { id: string; bot?: boolean }, them: { id: string; bot?: boolean }) => {
    if (me.bot && them.bot) return;
    if (await accounts.seenTogether(me.id, them.id, Date.now() - SEEN_TOGETHER.windowMs)) throw new HttpError(409, SEEN_TOGETHER_REFUSAL);
  };

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
    await seeHere(ctx, account.id);
    if (c.rated) await refuseSeenTogether(account, from);
    if (c.paired) {
      // The pair is a hidden event of one paired round (events/duel.ts): the event runner deals, makes both matches and scores.
      const [editor, nixon] = seatOfSide(c.side) === '0' ? [challenger, account] : [account, challenger];
      const doc = pairedChallengeEvent({ id: c.id, clock: c.clock as TimeControl, rated: c.rated }, editor, nixon, Date.now());
      const first = doc.rounds[0].boards[0].games[0].matchID;
      settled(await social.settle(c.id, 'accepted', Date.now(), first));
      await store.events.insert({ id: doc.id, version: 0, status: doc.status, nextAt: Date.now(), createdAt: doc.createdAt, doc: JSON.stringify(doc) });
      await o.kick?.(doc.id);
      // The acceptor's seat and credentials once the runner has made the match (any process's next tick otherwise).
      const m = (await store.head(first))?.metadata;
      const seat = editor.id === account.id ? '0' : '1';
      const entry = m ? seatEntry(m.players, seat) : undefined;
      ctx.body = { matchID: first, playerID: seat, ...(entry?.credentials ? { playerCredentials: entry.credentials } : {}), paired: true };
      return;
    }
    // Claimed first, with the match's id (once, whichever process and request): only then is the match made.
    const matchID = newMatchID();
    const mine = settled(await social.settle(c.id, 'accepted', Date.now(), matchID));
    const made = await createChallengeMatch({ game: o.game, store, service: o.service }, matchID, mine, challenger, account);
    events.gameStart(made.matchID, made.metadata);
    ctx.body = { matchID: made.matchID, playerID: made.seat, playerCredentials: made.credentials };
  });

  // One challenge as its two players see it; a paired one with its pair: both games (matchID, sides, result, the deal's hash) and the pair's score.
  router.get('/api/challenge/:id', async (ctx) => {
    const { account } = await caller(ctx, accounts);
    const c = await social.challenge(idOf(ctx.params.id));
    if (!c || (c.toID !== account.id && c.fromID !== account.id)) throw new HttpError(404, 'no such challenge');
    ctx.set('Cache-Control', 'no-store');
    const row = c.paired && c.status === 'accepted' ? await store.events.get(c.id) : undefined;
    if (!row) return void (ctx.body = challengeOut(c));
    const d = JSON.parse(row.doc) as EventDoc;
    const board = d.rounds[0].boards[0];
    const games = publicEvent(d).rounds[0].filter((g): g is EventGame => 'matchID' in g);
    const points = board.points ? { [d.entrants.find((e) => e.id === board.editor)!.username]: board.points[0], [d.entrants.find((e) => e.id === board.nixon)!.username]: board.points[1] } : null;
    ctx.body = { ...challengeOut(c), pair: { games, score: points } };
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
