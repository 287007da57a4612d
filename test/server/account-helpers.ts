/** Signed-in clients for the server tests: the session cookie kept by hand, every change sent with the page's Origin as a browser does. */
import { api } from './helpers';

export interface Signed {
  username: string;
  cookie: string;
  /** GET (no body) or POST (a body) with the session and the server's own Origin. */
  call(path: string, body?: unknown, headers?: Record<string, string>): ReturnType<typeof api>;
}

/** The session cookie a response set (name=value), or null. */
export function sessionCookie(headers: Headers): string | null {
  const set = headers.getSetCookie().find((c) => /^(__Host-)?wg_session=/.test(c));
  return set ? set.split(';')[0] : null;
}

export function as(url: string, username: string, cookie: string): Signed {
  return { username, cookie, call: (path, body, headers = {}) => api(url, path, body, { cookie, origin: url, ...headers }) };
}

export async function signUp(url: string, username: string, password = 'correct horse battery'): Promise<Signed> {
  const r = await api(url, '/auth/signup', { username, password }, { origin: url });
  if (r.status !== 200) throw new Error(`sign-up of ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  return as(url, username, sessionCookie(r.headers)!);
}

export async function logIn(url: string, username: string, password = 'correct horse battery'): Promise<Signed> {
  const r = await api(url, '/auth/login', { username, password }, { origin: url });
  if (r.status !== 200) throw new Error(`login of ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  return as(url, username, sessionCookie(r.headers)!);
}
