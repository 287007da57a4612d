/**
 * Open game streams (GET /api/bot/game/stream/:matchID): NDJSON, one `gameFull` line, then a `gameState`
 * line for every new state of the match (heard through the match service's `onState`, whichever process
 * made the move), a `chatLine` for each line of the players' chat, `gameFinish` at the end. A newline every KEEP_ALIVE_MS keeps proxies from closing a
 * quiet stream, and each tick checks the streams' tokens are still valid: a token revoked here closes
 * its streams at once (`revoked`), one revoked through another process (or its account deleted) within a tick.
 */
import { PassThrough } from 'node:stream';
import type Koa from 'koa';
import type { PlayerID } from '../../../game/index';
import type { Logger } from '../../log';
import type { MatchService, MatchView } from '../../match/service';
import type { AccountStore } from '../../storage/accounts';
import type { ChatLine } from '../../storage/types';
import { HttpError } from '../../storage/errors';
import type { Bearer } from './tokens';
import { finishOf, started, stateLine, viewOf } from './view';

export const STREAMS = {
  /** Streams one token may hold open at once. */
  perToken: 8,
  /** Streams one address may hold open at once (all tokens together). */
  perAddress: 32,
  /** A keep-alive newline (and a check of the token) this often. */
  keepAliveMs: 20_000,
};

interface Open {
  matchID: string;
  seat: PlayerID;
  bearer: Bearer;
  address: string;
  /** The state id of the last line sent; -1 until gameFull is written (changes heard before are caught up then). */
  sent: number;
  /** Whether the last line sent said play had begun (both seats taken): the line that says it is sent even without a move. */
  started: boolean;
  out: PassThrough;
}

export class BotStreams {
  private readonly open = new Set<Open>();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly o: { service: MatchService; accounts: AccountStore; log: Logger; keepAliveMs?: number }) {
    o.service.onState((m) => {
      for (const s of this.open) if (s.matchID === m.matchID) this.send(s, m);
    });
    this.timer = setInterval(() => void this.tick(), o.keepAliveMs ?? STREAMS.keepAliveMs);
    this.timer.unref();
  }

  /** Answers the request with the seat's stream (the caller found the seat its bot account holds). */
  async start(ctx: Koa.Context, b: Bearer, matchID: string, seat: PlayerID, address: string): Promise<void> {
    const count = (f: (s: Open) => boolean) => [...this.open].filter(f).length;
    if (count((s) => s.bearer.token.id === b.token.id) >= STREAMS.perToken) throw new HttpError(429, `at most ${STREAMS.perToken} open streams per token`);
    if (count((s) => s.address === address) >= STREAMS.perAddress) throw new HttpError(429, `at most ${STREAMS.perAddress} open streams per address`);
    // Read before anything is held open: a refusal here (storage away) is an ordinary error answer.
    const now = await this.o.service.current(matchID);
    if (!now) throw new HttpError(404, 'no such match');
    const s: Open = { matchID, seat, bearer: b, address, sent: -1, started: false, out: new PassThrough() };
    this.open.add(s);
    this.o.service.follow(matchID, 1);
    ctx.req.socket.setTimeout(0);
    // The response's close: the client went away (or the stream ended).
    ctx.res.on('close', () => this.close(s));
    ctx.compress = false; // a compressor would hold lines back until its buffer fills
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.type = 'application/x-ndjson';
    ctx.body = s.out;
    this.write(s, stateLine('gameFull', matchID, seat, now.state, now.metadata));
    s.sent = now.state._stateID;
    s.started = started(now.metadata);
    this.finishIfOver(s, now);
    // A move saved since the read above was skipped by `send` (sent was -1): caught up here.
    const latest = this.o.service.peek(matchID);
    if (latest) this.send(s, latest);
  }

  /** A line of the players' chat (storage/types.ts ChatLine) to the match's streams that have begun. */
  chat(matchID: string, line: unknown): void {
    const c = line as Partial<ChatLine>;
    if (typeof c.sender !== 'string' || typeof c.payload !== 'string') return;
    for (const s of this.open) if (s.matchID === matchID && s.sent >= 0) this.write(s, { type: 'chatLine', seat: c.sender, text: c.payload, at: c.at });
  }

  private send(s: Open, m: MatchView): void {
    const begins = !s.started && started(m.metadata);
    if (s.sent < 0 || (m.state._stateID <= s.sent && !begins) || !this.open.has(s)) return;
    s.sent = m.state._stateID;
    s.started = started(m.metadata);
    this.write(s, stateLine('gameState', m.matchID, s.seat, m.state, m.metadata));
    this.finishIfOver(s, m);
  }

  private finishIfOver(s: Open, m: MatchView): void {
    const over = finishOf(m.state);
    if (!over || !this.open.has(s)) return;
    this.write(s, { type: 'gameFinish', stateID: m.state._stateID, view: viewOf(m.state, s.seat), status: over });
    this.close(s);
  }

  private write(s: Open, line: unknown): void {
    if (!s.out.writableEnded) s.out.write(`${JSON.stringify(line)}\n`);
  }

  private close(s: Open): void {
    if (!this.open.delete(s)) return;
    this.o.service.follow(s.matchID, -1);
    s.out.end();
  }

  /** The token was revoked: its streams close now. */
  revoked(tokenID: string): void {
    for (const s of [...this.open]) if (s.bearer.token.id === tokenID) this.close(s);
  }

  private async tick(): Promise<void> {
    const hashes = new Set([...this.open].map((s) => s.bearer.hash));
    for (const hash of hashes) {
      const still = await this.o.accounts.tokenByHash(hash, Date.now()).catch(() => 'unknown' as const);
      if (still === undefined) for (const s of [...this.open]) if (s.bearer.hash === hash) this.close(s);
    }
    for (const s of this.open) s.out.write('\n');
  }

  closeAll(): void {
    clearInterval(this.timer);
    for (const s of [...this.open]) this.close(s);
  }
}
