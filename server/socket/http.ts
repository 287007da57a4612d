/**
 * The HTTP server under Koa and socket.io, made for the open internet: every connection has an error
 * listener (a reset mid-request or mid-upgrade is a closed socket, never an uncaught exception), a bad
 * request is answered 400 (431 for oversized headers, 408 for a slow one) and cut, and a client that
 * sends its headers or body slowly (slowloris) or idles on a kept-alive connection is cut in seconds.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RefusalLog } from '../refusals';

/** Generous for a browser on a poor connection, short enough that holding sockets open costs a flooder. */
export const HTTP_LIMITS = {
  /** The whole request head must arrive within this. */
  headersTimeoutMs: 10_000,
  /** The whole request (head and body) must arrive within this. */
  requestTimeoutMs: 30_000,
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** Headers past this count are ignored (a browser sends about 20). */
  maxHeadersCount: 100,
  /** Bytes of request head: more is answered 431. */
  maxHeaderSize: 16 * 1024,
  /** How often Node looks for requests past their timeouts. */
  checkEveryMs: 1_000,
};
export type HttpLimits = typeof HTTP_LIMITS;

const answer = (socket: Duplex, status: string) => {
  if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
};

/**
 * The server; `handler` is asked for the request listener at the first request (Koa's `callback()`
 * composes the middleware, all of which is added after the transport is made). `socketPath` is where
 * socket.io answers upgrades: an upgrade anywhere else is refused at once.
 */
export function createHttpServer(
  handler: () => (req: IncomingMessage, res: ServerResponse) => void,
  socketPath: string,
  refusals: RefusalLog,
  limits: Partial<HttpLimits> = {},
): Server {
  const l = { ...HTTP_LIMITS, ...limits };
  let listener: ReturnType<typeof handler> | null = null;
  const server = createServer(
    { headersTimeout: l.headersTimeoutMs, requestTimeout: l.requestTimeoutMs, keepAliveTimeout: l.keepAliveTimeoutMs, maxHeaderSize: l.maxHeaderSize, connectionsCheckingInterval: l.checkEveryMs },
    (req, res) => (listener ??= handler())(req, res),
  );
  server.maxHeadersCount = l.maxHeadersCount;
  // Node removes its own error listener from a socket it hands to 'upgrade' listeners; this one stays.
  server.on('connection', (socket) => socket.on('error', () => socket.destroy()));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const code = err.code ?? 'unknown';
    if (code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    refusals.note('http', code);
    answer(socket, code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request');
  });
  // Before engine.io's own listener: it would leave an upgrade on another path open for a second.
  server.prependListener('upgrade', (req: IncomingMessage, socket: Duplex) => {
    if ((req.url ?? '').startsWith(socketPath)) return;
    refusals.note('upgrade', 'unknown-path');
    answer(socket, '404 Not Found');
  });
  return server;
}
