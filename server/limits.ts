/**
 * How much one client may ask of the server (docs/SECURITY.md "Limits"): points per window for each kind
 * of request, counted per address (or per socket), with rate-limiter-flexible — in this process's memory,
 * or in Redis when the deployment has one, so that several processes count one client together. With
 * Redis away, each process falls back to counting in its own memory (the insurance limiter): limits
 * stay on, only less precise, and no request waits for Redis.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** One limit: at most `points` in `seconds` (a fixed window per key). */
export interface Limit {
  points: number;
  seconds: number;
}

/** Every limit with its default, by name. Counted per address unless the name says socket. */
export const LIMITS = {
  /** Matches made: create, vs-computer and play again. */
  create: { points: 20, seconds: 600 },
  /** Seats taken (join). */
  join: { points: 60, seconds: 600 },
  /** Every Lobby API request, reads included. */
  api: { points: 600, seconds: 60 },
  /** socket.io connections opened. */
  connect: { points: 60, seconds: 60 },
  /** Chat lines sent. */
  chat: { points: 10, seconds: 10 },
  /** Finished games' analyses started on the server (server/analysis/): each costs minutes of a bot thread. */
  analyse: { points: 10, seconds: 3600 },
  /** Syncs asked for (a page load, a reconnection): per socket. */
  syncSocket: { points: 20, seconds: 10 },
  /** Syncs asked for: per address. */
  sync: { points: 120, seconds: 60 },
  /** Moves refused because they were made on an old state (each costs a resync): per socket. */
  staleSocket: { points: 10, seconds: 10 },
  /** Requests refused as malformed or unknown on a socket, and moves the rules or the seat refuse: per socket (then the socket is closed). */
  badSocket: { points: 20, seconds: 10 },
  /** Accounts made (sign-up). */
  signup: { points: 10, seconds: 3600 },
  /** Sign-in attempts (password or passkey), per address. */
  login: { points: 20, seconds: 600 },
  /**
   * Wrong passwords for one username from one address: this many are free in the window, then each
   * further one doubles the wait before the next try (GUESS_WAIT). Counted per (username, address), so a
   * guesser elsewhere never makes the owner wait; a right password forgets them.
   */
  loginGuess: { points: 5, seconds: 3600 },
  /**
   * Wrong passwords for one username from every address together: the ceiling on a spread-out guesser.
   * High enough that reaching it takes many addresses at once (each slowed by loginGuess and `login`),
   * so it is no cheap way to lock the owner out (docs/SECURITY.md "Accounts").
   */
  loginName: { points: 100, seconds: 600 },
  /** Take-backs asked for or answered. */
  undo: { points: 30, seconds: 60 },
  /** "Play now" asks (each a waiting ticket that may be paired into a match; polls are not counted). */
  pair: { points: 30, seconds: 600 },
  /** Bot API moves and resignations (POST /api/bot/game/:id/move, resign): per token. */
  botMove: { points: 10, seconds: 1 },
  /** Seats taken with a bot API token (the Lobby's join route, POST /games/:name/:id/join): per token, on top of `join` per address. */
  botJoin: { points: 30, seconds: 600 },
  /** Bot API game streams opened (GET /api/bot/game/stream/:id): per token (how many may be open at once: server/bots/api/streams.ts). */
  botStream: { points: 30, seconds: 60 },
  /** Bot API chat lines: per token (the match's own chat limit applies too). */
  botChat: { points: 10, seconds: 10 },
  /** Personal API tokens made (POST /auth/tokens): per account. */
  token: { points: 20, seconds: 3600 },
  /** E-mail asked for (a verification link, a password reset): per address of the asker. */
  mail: { points: 10, seconds: 3600 },
  /** E-mails sent to one account (verification resent, resets), whoever asks: per account; past it nothing more is sent (the answer stays the same). */
  mailTo: { points: 3, seconds: 3600 },
  /** Challenges by name sent (POST /api/challenge/:username): per account (pending ones at once: server/challenges/ CHALLENGES). */
  challenge: { points: 30, seconds: 600 },
  /** Challenges answered (accept, decline, cancel): per account. */
  challengeAnswer: { points: 60, seconds: 600 },
  /** Blocks and unblocks (POST and DELETE /api/block/:username): per account. */
  block: { points: 60, seconds: 600 },
  /** Event streams opened (GET /api/stream/event): per account (how many may be open at once: server/challenges/events.ts). */
  eventStream: { points: 30, seconds: 60 },
  /** Follows, unfollows and push subscriptions changed: per account. */
  social: { points: 60, seconds: 600 },
} as const satisfies Record<string, Limit>;
export type LimitName = keyof typeof LIMITS;

/** loginGuess's slowdown: the first wait past the free guesses, doubled with each further wrong one, at most `maxSeconds`. */
export const GUESS_WAIT = { firstSeconds: 2, maxSeconds: 900 } as const;

export interface LimiterOptions {
  /** Shared counting (REDIS_URL); absent: this process's memory. */
  redis?: Redis;
  /** Key prefix in Redis (REDIS_PREFIX + "rl:"). */
  prefix?: string;
  /** Replaced limits (tests, operators). */
  limits?: Partial<Record<LimitName, Limit>>;
  /** No limits at all (tools that need to measure the server alone). */
  off?: boolean;
}

export interface Limiter {
  /** Counts `points` against `key` for `name`: 0 when allowed, else how many ms until it would be. */
  take(name: LimitName, key: string, points?: number): Promise<number>;
  /** Counts one against `key` for `name` (allowed or not) and returns the count in the window, this one included. */
  count(name: LimitName, key: string): Promise<number>;
  /** Without counting: ms until `key` is back under `name`'s points (0: it is). */
  spent(name: LimitName, key: string): Promise<number>;
  /** ms left of a hold on `key` for `name` (0: none). */
  held(name: LimitName, key: string): Promise<number>;
  /** Makes `key` wait `ms` before its next `name`, whatever its count (held says so). */
  hold(name: LimitName, key: string, ms: number): Promise<void>;
  /** Forgets `key`'s count and hold for `name`. */
  forget(name: LimitName, key: string): Promise<void>;
  readonly limits: Readonly<Record<LimitName, Limit>>;
}

export function createLimiter(o: LimiterOptions = {}): Limiter {
  const limits = { ...LIMITS, ...o.limits } as Record<LimitName, Limit>;
  const made = new Map<string, RateLimiterAbstract>();
  // A limit's count, or (held) its holds: one point, blocked for as long as hold says.
  const limiter = (name: LimitName, held = false): RateLimiterAbstract => {
    const id = held ? `${name}:held` : name;
    let l = made.get(id);
    if (l) return l;
    const { points, seconds } = held ? { points: 1, seconds: limits[name].seconds } : limits[name];
    const keyPrefix = `${o.prefix ?? 'wg:rl:'}${id}`;
    const memory = new RateLimiterMemory({ points, duration: seconds, keyPrefix });
    l = o.redis ? new RateLimiterRedis({ storeClient: o.redis, points, duration: seconds, keyPrefix, insuranceLimiter: memory, rejectIfRedisNotReady: true }) : memory;
    made.set(id, l);
    return l;
  };
  return {
    limits,
    async take(name, key, points = 1) {
      if (o.off) return 0;
      try {
        await limiter(name).consume(key, points);
        return 0;
      } catch (e) {
        if (e instanceof RateLimiterRes) return Math.max(1, e.msBeforeNext);
        throw e;
      }
    },
    async count(name, key) {
      if (o.off) return 0;
      try {
        return (await limiter(name).consume(key)).consumedPoints;
      } catch (e) {
        if (e instanceof RateLimiterRes) return e.consumedPoints;
        throw e;
      }
    },
    async spent(name, key) {
      if (o.off) return 0;
      const r = await limiter(name).get(key);
      return r && r.consumedPoints >= limits[name].points ? Math.max(1, r.msBeforeNext) : 0;
    },
    async held(name, key) {
      if (o.off) return 0;
      const r = await limiter(name, true).get(key);
      return r && r.consumedPoints > 1 ? Math.max(1, r.msBeforeNext) : 0;
    },
    async hold(name, key, ms) {
      if (!o.off) await limiter(name, true).block(key, Math.max(1, Math.ceil(ms / 1000)));
    },
    async forget(name, key) {
      if (o.off) return;
      await limiter(name).delete(key);
      await limiter(name, true).delete(key);
    },
  };
}

/** A refused request: 429 with Retry-After (seconds) over HTTP, a `rate-limited` error on a socket. */
export class TooManyRequests extends Error {
  readonly status = 429;
  readonly expose = true;
  readonly retryAfterSeconds: number;
  constructor(name: LimitName, retryAfterMs: number) {
    const s = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(`${WHAT[name]}: try again in ${s} second${s === 1 ? '' : 's'}`);
    this.retryAfterSeconds = s;
  }
}

const WHAT: Record<LimitName, string> = {
  create: 'too many new matches from your address',
  join: 'too many seats taken from your address',
  api: 'too many requests from your address',
  connect: 'too many connections from your address',
  chat: 'too many chat messages',
  analyse: 'too many game analyses started from your address',
  syncSocket: 'too many syncs on this connection',
  sync: 'too many syncs from your address',
  staleSocket: 'too many moves on an old state',
  badSocket: 'too many refused or malformed requests',
  signup: 'too many new accounts from your address',
  login: 'too many sign-in attempts from your address',
  loginGuess: 'too many wrong passwords for this username from your address',
  loginName: 'too many wrong passwords for this username',
  undo: 'too many take-backs from your address',
  pair: 'too many "Play now" asks from your address',
  botMove: 'too many moves with this token',
  botJoin: 'too many seats taken with this token',
  botStream: 'too many game streams opened with this token',
  botChat: 'too many chat lines with this token',
  token: 'too many API tokens made for this account',
  mail: 'too many e-mail requests from your address',
  mailTo: 'too many e-mails to this account',
  challenge: 'too many challenges sent from this account',
  challengeAnswer: 'too many challenges answered from this account',
  block: 'too many blocks from this account',
  eventStream: 'too many event streams opened for this account',
  social: 'too many follows or push changes for this account',
};

/** Throws TooManyRequests unless `key` may make one more request of `name` (worth `points`). */
export async function enforce(l: Limiter, name: LimitName, key: string, points = 1): Promise<void> {
  const wait = await l.take(name, key, points);
  if (wait > 0) throw new TooManyRequests(name, wait);
}

/**
 * The client's address, the key of its limits: the peer address, or — behind a proxy we trust
 * (TRUST_PROXY) — the last address of X-Forwarded-For (the one our proxy added; anything before it
 * the client may have written). IPv4-mapped IPv6 is read as IPv4; IPv6 is counted per /64, the
 * block one household or server gets.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: boolean): string {
  let addr = peer ?? '';
  if (trustProxy && forwardedFor !== undefined) {
    const all = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((s) => s.trim()).filter(Boolean);
    const last = all[all.length - 1];
    if (last && isIP(last)) addr = last;
  }
  if (!ipaddr.isValid(addr)) return addr || 'unknown';
  const ip = ipaddr.process(addr);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
