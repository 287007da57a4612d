/**
 * Which browser origins may use the API and the socket: the server's own origin (same Host) and the
 * configured ORIGINS. A pattern may use `*` for one DNS label or port (`https://*.example.org`,
 * `http://localhost:*`); every pattern is anchored, so `localhost:3000.evil.example` never passes.
 */
const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

export function originPatterns(origins: string[]): RegExp[] {
  return origins.map((o) => new RegExp('^' + escape(o.replace(/\/+$/, '')).replace(/\*/g, '[A-Za-z0-9-]+') + '$'));
}

export function isAllowedOrigin(origin: string | undefined, host: string | undefined, patterns: RegExp[]): boolean {
  if (origin === undefined) return true; // not a browser cross-origin request (CLI, bots, same-origin GET)
  if (host && (origin === `http://${host}` || origin === `https://${host}`)) return true;
  return patterns.some((p) => p.test(origin));
}
