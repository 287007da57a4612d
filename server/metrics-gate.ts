/**
 * Who may read /metrics: a client on this machine (loopback), or anyone presenting METRICS_TOKEN as
 * `Authorization: Bearer <token>`. The numbers name no player, but they tell an attacker how loaded the
 * server is and how well an attack works. Refusals are a 403 (docs/SECURITY.md "Operator endpoints").
 *
 * Behind a proxy we run (TRUST_PROXY) every peer is the proxy, usually on loopback: the client is then
 * the last X-Forwarded-For address, as for the limits (clientAddress in limits.ts), so the proxy does
 * not open the metrics to everyone.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface MetricsRequest {
  peer: string | undefined;
  forwardedFor: string | string[] | undefined;
  authorization: string | undefined;
}

/** The address the request comes from, as clientAddress picks it, before any grouping. */
function sourceAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: boolean): string {
  if (trustProxy && forwardedFor !== undefined) {
    const all = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((s) => s.trim()).filter(Boolean);
    const last = all[all.length - 1];
    if (last && isIP(last)) return last;
  }
  return peer ?? '';
}

const isLoopbackAddress = (addr: string): boolean => ipaddr.isValid(addr) && ipaddr.process(addr).range() === 'loopback';

/** Hashing first gives both sides one length, so the comparison's time says nothing about the token. */
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function metricsGate(o: { token?: string; trustProxy: boolean }): (r: MetricsRequest) => boolean {
  const expected = o.token ? digest(o.token) : null;
  return (r) => {
    if (isLoopbackAddress(sourceAddress(r.peer, r.forwardedFor, o.trustProxy))) return true;
    const m = expected && typeof r.authorization === 'string' ? /^Bearer +(\S+)\s*$/i.exec(r.authorization) : null;
    return m !== null && expected !== null && timingSafeEqual(digest(m[1]), expected);
  };
}
