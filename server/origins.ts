/**
 * Which browser origins may use the API and the socket: the server's own origins and the configured
 * ORIGINS. The own origins come from what the operator configured — PUBLIC_URL, else the address the
 * server listens on — and never from the request's Host header: with DNS rebinding a page on an
 * attacker's name resolved to this machine sends `Host: evil.example` and `Origin: http://evil.example`,
 * which a Host comparison would take for same-origin.
 *
 * A pattern may use `*` for one DNS label or port (`https://*.example.org`, `http://localhost:*`); every
 * pattern is anchored, so `localhost:3000.evil.example` never passes.
 */
import { networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

export function originPatterns(origins: string[]): RegExp[] {
  return origins.map((o) => new RegExp('^' + escape(o.replace(/\/+$/, '')).replace(/\*/g, '[A-Za-z0-9-]+') + '$'));
}

/** `http://host:port` as a browser writes it in Origin (IPv6 in brackets, the default port left out). */
function httpOrigin(host: string, port: number): string | null {
  try {
    return new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`).origin;
  } catch {
    return null; // an interface address a URL cannot hold (an IPv6 zone): no browser can name it either
  }
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const isLoopback = (h: string) => h === 'localhost' || h === '::1' || /^127\./.test(h);

/**
 * The server's own origins. With PUBLIC_URL, only its origin (that is the address players open; a router
 * or TLS terminator stands in front). Otherwise the listen address at the listen port; a wildcard
 * address (0.0.0.0, ::) stands for every interface address of this machine (read at start) and the
 * loopback names, a loopback address for the loopback names too.
 */
export function ownOrigins(o: { publicUrl?: string; host: string; port: number; interfaces?: () => string[] }): string[] {
  if (o.publicUrl) return [new URL(o.publicUrl).origin];
  const host = o.host.replace(/^\[|\]$/g, '');
  const interfaces = o.interfaces ?? (() => Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address)));
  let hosts: string[];
  if (host === '0.0.0.0') hosts = [...interfaces().filter((a) => isIP(a) === 4), ...LOOPBACK_NAMES];
  else if (host === '::' || host === '') hosts = [...interfaces(), ...LOOPBACK_NAMES];
  else if (isLoopback(host)) hosts = [host, ...LOOPBACK_NAMES];
  else hosts = [host];
  return [...new Set(hosts.map((h) => httpOrigin(h, o.port)).filter((x): x is string => x !== null))];
}

/** A request without Origin is no browser's cross-origin request (CLI, bots, a same-origin GET): it passes. */
export function isAllowedOrigin(origin: string | undefined, own: ReadonlySet<string>, patterns: RegExp[]): boolean {
  if (origin === undefined) return true;
  return own.has(origin) || patterns.some((p) => p.test(origin));
}
