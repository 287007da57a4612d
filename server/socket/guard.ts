/**
 * How much one socket client may ask (server/limits.ts), and how refusals are told: every refusal is a
 * `watergate:error` to that socket and a line in the refusal log (debug, summed up once a minute); a
 * malformed or over-the-limit request also counts against the socket, which is closed past its limit.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'socket.io';
import { ERROR_EVENT, type GuardError } from '../../protocol/index';
import { clientAddress, TooManyRequests, type Limiter, type LimitName } from '../limits';
import type { Logger } from '../log';
import type { RefusalLog } from '../refusals';

export class SocketGuard {
  constructor(private readonly o: { limiter: Limiter; refusals: RefusalLog; log: Logger; trustProxy: boolean }) {}

  /** The key of a client's per-address limits. */
  address(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    return clientAddress(peer, forwardedFor, this.o.trustProxy);
  }

  /** A new connection (socket.io's allowRequest): null, or why not (too many from its address). */
  async admit(req: IncomingMessage): Promise<string | null> {
    const addr = this.address(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    const wait = await this.wait('connect', addr);
    if (!wait) return null;
    this.o.refusals.note('socket', 'rate-limited', { limit: 'connect', addr });
    return new TooManyRequests('connect', wait).message;
  }

  /** How long `key` must wait before one more `name` (0: go ahead). A limiter fault lets it through. */
  private async wait(name: LimitName, key: string): Promise<number> {
    try {
      return await this.o.limiter.take(name, key);
    } catch (e) {
      this.o.log.error({ err: e, limit: name }, 'rate limiter failed: request let through');
      return 0;
    }
  }

  fail(socket: Socket, e: GuardError): void {
    socket.emit(ERROR_EVENT, e);
    this.o.refusals.note('socket', e.type, { socket: socket.id, matchID: e.matchID, reason: e.message });
  }

  /** A malformed or unwanted request: refused, and counted; past the limit the socket is closed. */
  async bad(socket: Socket, e: GuardError): Promise<void> {
    this.fail(socket, e);
    const wait = await this.wait('badSocket', socket.id);
    if (!wait || !socket.connected) return;
    this.fail(socket, { type: 'rate-limited', message: `${new TooManyRequests('badSocket', wait).message}: closing this connection`, retryAfterSeconds: Math.ceil(wait / 1000) });
    socket.disconnect(true);
  }

  /** Counts one `name` for `key`: true (and the client told, and it counted as bad) when over the limit. */
  async limited(socket: Socket, name: LimitName, key: string, matchID?: string): Promise<boolean> {
    const wait = await this.wait(name, key);
    if (!wait) return false;
    const e = new TooManyRequests(name, wait);
    await this.bad(socket, { matchID, type: 'rate-limited', message: e.message, retryAfterSeconds: e.retryAfterSeconds });
    return true;
  }
}
