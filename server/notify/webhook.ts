/**
 * Sending one turn notification to a player's webhook: `POST {"content": "…"}` (Discord's shape).
 *
 * A webhook address is chosen by a player, so the server must not become their way into its own
 * network: only http(s), and only to public unicast addresses unless `allowLocal` (tests). The address
 * is checked where the connection is made — a `lookup` of our own for names, a check of IP literals
 * (which Node connects to without a lookup) — so a name that resolves to a public address when
 * registered and to 127.0.0.1 when sent (DNS rebinding) is still refused. Redirects are not followed.
 *
 * Fire and forget: the caller never waits; a slow or failing webhook costs timers, never a move.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

const WEBHOOK_MAX_LENGTH = 500;

/** Why this webhook address cannot be used (for a 400), or null. Addresses are checked when sending. */
export function webhookProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return 'must be a string (an http or https URL)';
  if (raw.length > WEBHOOK_MAX_LENGTH) return `must be at most ${WEBHOOK_MAX_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be an http or https URL';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must start with https:// or http://';
  if (u.username || u.password) return 'must not contain a user name or password';
  if (!u.hostname) return 'must name a host';
  return null;
}

/**
 * May the server connect to this IP address? Only ipaddr.js's 'unicast' range: no loopback, private,
 * link-local, unique-local, carrier-grade NAT, multicast, reserved or unspecified address, and an
 * IPv4-mapped IPv6 address is judged as the IPv4 address it is.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  return ipaddr.process(ip).range() === 'unicast';
}

export class RefusedAddress extends Error {
  readonly code = 'EWEBHOOKADDRESS';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that leaves out addresses the server may not reach (net asks with or without `all`). */
export function guardedLookup(allowLocal: boolean) {
  return (hostname: string, options: dns.LookupOptions, cb: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, '');
      const ok = allowLocal ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (ok.length === 0) return cb(new RefusedAddress(`${hostname} resolves to no public address`), '');
      if (options.all) cb(null, ok);
      else cb(null, ok[0].address, ok[0].family);
    });
  };
}

export interface SendOptions {
  allowLocal: boolean;
  /** Per attempt, connecting included. */
  timeoutMs?: number;
  attempts?: number;
  /** Wait before the second attempt; doubled before each later one. */
  retryDelayMs?: number;
  /** Aborts waiting and the attempt in flight (the server shutting down). */
  signal?: AbortSignal;
}

export type SendResult = 'sent' | 'failed' | 'refused';

/** One POST; resolves to the HTTP status. */
function attempt(url: URL, body: string, o: SendOptions, timeoutMs: number): Promise<number> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !o.allowLocal && !isPublicAddress(host)) return Promise.reject(new RefusedAddress(`${host} is not a public address`));
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'watergate-server' },
      lookup: guardedLookup(o.allowLocal) as never,
      // No shared pool: a kept-alive socket opened under other rules must never be reused.
      agent: false,
      signal: o.signal,
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })), timeoutMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve(res.statusCode ?? 0);
      res.destroy(); // the answer's body is of no use
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(body);
  });
}

/** A pause that ends early on abort; its listener goes with it (the signal lives as long as the server). */
const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    t.unref();
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * POSTs `{"content": text}`, retrying network errors, timeouts, 408, 429 and 5xx with exponential
 * backoff. `reasons` gets why each failed attempt failed: error codes and statuses, never the address.
 */
export async function sendWebhook(address: string, text: string, o: SendOptions, reasons: string[] = []): Promise<SendResult> {
  const url = new URL(address);
  const body = JSON.stringify({ content: text });
  const attempts = o.attempts ?? 3;
  for (let i = 0; i < attempts && !o.signal?.aborted; i++) {
    if (i > 0) await wait((o.retryDelayMs ?? 1000) * 2 ** (i - 1), o.signal);
    if (o.signal?.aborted) break;
    try {
      const status = await attempt(url, body, o, o.timeoutMs ?? 5000);
      if (status >= 200 && status < 300) return 'sent';
      reasons.push(`HTTP ${status}`);
      // Another 4xx will not change by asking again (gone, forbidden, bad request).
      if (status < 500 && status !== 408 && status !== 429) return 'failed';
    } catch (e) {
      if (e instanceof RefusedAddress) {
        reasons.push(e.message);
        return 'refused';
      }
      const err = e as NodeJS.ErrnoException;
      reasons.push(err.code ?? err.name);
    }
  }
  return 'failed';
}
