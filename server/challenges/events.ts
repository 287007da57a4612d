/**
 * An account's event stream (GET /api/stream/event, docs/BOT-API.md "The event stream"), after Lichess's:
 * NDJSON lines `challenge`, `challengeCanceled`, `challengeDeclined`, `gameStart`, `gameFinish`, and an
 * empty line every EVENTS.keepAliveMs. On opening, a `challenge` line for each pending challenge to the
 * account and a `gameStart` for each unfinished match it holds a seat of, so a bot that reconnects
 * misses nothing. Lines for an account reach its streams in this process at once and, through the bus
 * (channel `~account:<id>`, subscribed while this process holds one of its streams), those in others.
 * `gameFinish` is sent by the process that saved the game's last move (the match service's onState
 * with reason `move`), once per match.
 * A stream lasts as long as what opened it: the API token or the session. Each keep-alive tick looks
 * them up again, so a token revoked, a session ended or an account deleted through any process closes
 * its streams within a tick; the process that ends an account's sessions (sign-out, sign-out everywhere,
 * a new password, a reset, the account deleted) checks that account's streams at once (`recheck`).
 */
import { PassThrough } from 'node:stream';
import type Koa from 'koa';
import { seatEntry } from '../../protocol/index';
import type { Bus, BusMessage } from '../bus/index';
import type { Logger } from '../log';
import type { MatchService } from '../match/service';
import { seatAccount, type AccountStore } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { MatchData } from '../storage/types';
import type { Challenge } from '../storage/social';
import { challengeOut } from './wire';

export const EVENTS = {
  /** Event streams one account may hold open at once (its tokens and sessions together). */
  perAccount: 4,
  /** Event streams one address may hold open at once. */
  perAddress: 32,
  /** An empty line this often: proxies keep the stream, and a client knows it is alive. */
  keepAliveMs: 20_000,
};

export type EventLine =
  | { type: 'challenge' | 'challengeCanceled' | 'challengeDeclined'; id: string; challenge: ReturnType<typeof challengeOut> }
  | { type: 'gameStart'; matchID: string; seat: '0' | '1' }
  | { type: 'gameFinish'; matchID: string; seat: '0' | '1'; winner: '0' | '1' | null; reason: string };

/** What opened a stream: an API token or a session, each by its stored key (hash). */
export type Opener = { token: string } | { session: string };

interface Open {
  accountID: string;
  /** The stored key of the API token or the session that opened it: the stream ends with it. */
  opener: Opener;
  address: string;
  out: PassThrough;
}

const channel = (accountID: string) => `~account:${accountID}`;

/** The seats of a match held by accounts: account id → seat. */
function accountSeats(metadata: MatchData): Map<string, '0' | '1'> {
  const seats = new Map<string, '0' | '1'>();
  for (const s of ['0', '1'] as const) {
    const a = seatAccount(seatEntry(metadata.players, s));
    if (a) seats.set(a.id, s);
  }
  return seats;
}

export class AccountEvents {
  private readonly open = new Set<Open>();
  private readonly timer: ReturnType<typeof setInterval>;
  /** Matches whose gameFinish this process sent (bounded): a later state of a finished match sends none. */
  private readonly finished = new Set<string>();

  constructor(private readonly o: { bus: Bus; service: MatchService; accounts: AccountStore; log: Logger; keepAliveMs?: number }) {
    o.bus.onMessage((m: BusMessage) => {
      if (m.t === 'account' && m.matchID.startsWith('~account:')) this.deliver(m.matchID.slice('~account:'.length), m.line);
    });
    o.service.onState((m) => {
      const over = m.state.ctx.gameover as { winner?: unknown; reason?: unknown } | undefined;
      if (m.reason !== 'move' || over === undefined || this.finished.has(m.matchID)) return;
      this.finished.add(m.matchID);
      if (this.finished.size > 10_000) this.finished.delete(this.finished.values().next().value!);
      const winner = over.winner === '0' || over.winner === '1' ? over.winner : null;
      for (const [id, seat] of accountSeats(m.metadata)) this.send(id, { type: 'gameFinish', matchID: m.matchID, seat, winner, reason: typeof over.reason === 'string' ? over.reason : '' });
    });
    this.timer = setInterval(() => void this.tick(), o.keepAliveMs ?? EVENTS.keepAliveMs);
    this.timer.unref();
  }

  /** A line for an account: to its streams here, and to every other process (which delivers it to its own). */
  send(accountID: string, line: EventLine): void {
    this.deliver(accountID, line);
    this.o.bus.publish({ t: 'account', matchID: channel(accountID), line });
  }

  /** A challenge's news to both its accounts. */
  challenge(type: 'challenge' | 'challengeCanceled' | 'challengeDeclined', c: Challenge): void {
    const line: EventLine = { type, id: c.id, challenge: challengeOut(c) };
    this.send(c.toID, line);
    this.send(c.fromID, line);
  }

  /** A match both accounts were seated in: a gameStart to each. */
  gameStart(matchID: string, metadata: MatchData): void {
    for (const [id, seat] of accountSeats(metadata)) this.send(id, { type: 'gameStart', matchID, seat });
  }

  /** Answers the request with the account's stream. */
  async start(ctx: Koa.Context, accountID: string, opener: Opener, address: string, challenges: Challenge[]): Promise<void> {
    const count = (f: (s: Open) => boolean) => [...this.open].filter(f).length;
    if (count((s) => s.accountID === accountID) >= EVENTS.perAccount) throw new HttpError(429, `at most ${EVENTS.perAccount} open event streams per account`);
    if (count((s) => s.address === address) >= EVENTS.perAddress) throw new HttpError(429, `at most ${EVENTS.perAddress} open event streams per address`);
    // Read before anything is held open: a refusal here (storage away) is an ordinary error answer.
    const held = await this.o.accounts.heldSeats(accountID);
    const s: Open = { accountID, opener, address, out: new PassThrough() };
    const first = count((x) => x.accountID === accountID) === 0;
    this.open.add(s);
    if (first) await this.o.bus.subscribe(channel(accountID));
    ctx.req.socket.setTimeout(0);
    ctx.res.on('close', () => this.close(s));
    // A client that goes away mid-stream resets its connection (unread keep-alives): that is the stream's
    // end, not a server error for Koa to print.
    const onerror = ctx.onerror.bind(ctx);
    ctx.onerror = (err) => (err && (err as { code?: string }).code === 'ECONNRESET' ? undefined : onerror(err));
    ctx.compress = false; // a compressor would hold lines back until its buffer fills
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.type = 'application/x-ndjson';
    ctx.body = s.out;
    // An empty line at once: the answer (its headers) leaves now, so the client knows the stream is open
    // even when nothing is pending and the first keep-alive is a tick away.
    s.out.write('\n');
    for (const c of challenges) if (c.toID === accountID) this.write(s, { type: 'challenge', id: c.id, challenge: challengeOut(c) });
    for (const l of held) {
      const seat = seatEntry(l.metadata.players, l.seat);
      // The metadata is the truth (as GET /me/matches reads it): a seat left since is not the account's.
      if (l.metadata.gameover === undefined && seatAccount(seat)?.id === accountID) this.write(s, { type: 'gameStart', matchID: l.matchID, seat: l.seat });
    }
  }

  private async tick(): Promise<void> {
    await this.closeEnded([...this.open]);
    for (const s of this.open) if (!s.out.writableEnded) s.out.write('\n');
  }

  /**
   * Closes the streams whose token or session is gone (revoked, ended, expired, or its account deleted:
   * both lookups join the account). Each opener is looked up once; a lookup that fails (storage away)
   * closes nothing: the next tick asks again.
   */
  private async closeEnded(streams: Open[]): Promise<void> {
    const key = (o: Opener) => ('token' in o ? `t:${o.token}` : `s:${o.session}`);
    const openers = new Map(streams.map((s) => [key(s.opener), s.opener]));
    for (const [k, o] of openers) {
      const now = Date.now();
      const still = await ('token' in o ? this.o.accounts.tokenByHash(o.token, now) : this.o.accounts.session(o.session, now)).catch(() => 'unknown' as const);
      if (still === undefined) for (const s of [...this.open]) if (key(s.opener) === k) this.close(s);
    }
  }

  /** The account's sessions (or the account) may have ended here: its streams opened by them close now. */
  async recheck(accountID: string): Promise<void> {
    await this.closeEnded([...this.open].filter((s) => s.accountID === accountID));
  }

  private deliver(accountID: string, line: unknown): void {
    for (const s of this.open) if (s.accountID === accountID) this.write(s, line);
  }

  private write(s: Open, line: unknown): void {
    if (!s.out.writableEnded) s.out.write(`${JSON.stringify(line)}\n`);
  }

  private close(s: Open): void {
    if (!this.open.delete(s)) return;
    s.out.end();
    if (![...this.open].some((x) => x.accountID === s.accountID)) this.o.bus.unsubscribe(channel(s.accountID));
  }

  /** The account's streams end (a token revoked, the account deleted). */
  closeAccount(accountID: string): void {
    for (const s of [...this.open]) if (s.accountID === accountID) this.close(s);
  }

  closeAll(): void {
    clearInterval(this.timer);
    for (const s of [...this.open]) this.close(s);
  }
}
