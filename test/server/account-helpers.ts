/** Signed-in clients for the server tests: the session cookie kept by hand, every change sent with the page's Origin as a browser does. */
import { afterAll } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { api, apiFrom, dropSchema, PG_URL, TEST_PASSWORD_COST, uniqueSchema } from './helpers';

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

/** `headers`: e.g. an X-Forwarded-For, for a server behind a trusted proxy to see the sign-up from that address. */
export async function signUp(url: string, username: string, password = 'correct horse battery', headers: Record<string, string> = {}): Promise<Signed> {
  const r = await api(url, '/auth/signup', { username, password }, { origin: url, ...headers });
  if (r.status !== 200) throw new Error(`sign-up of ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  return as(url, username, sessionCookie(r.headers)!);
}

/**
 * A sign-up from another loopback address (127.0.0.2, …): the account is seen there, as a player at
 * another address is ("Play now" never pairs two accounts seen from one address or device).
 */
export async function signUpFrom(localAddress: string, url: string, username: string, password = 'correct horse battery'): Promise<Signed> {
  const r = await apiFrom(localAddress, url, '/auth/signup', { username, password }, { origin: url });
  if (r.status !== 200) throw new Error(`sign-up of ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  const set = ([] as string[]).concat(r.headers['set-cookie'] ?? []).find((c) => /^(__Host-)?wg_session=/.test(c));
  return as(url, username, set!.split(';')[0]);
}

export async function logIn(url: string, username: string, password = 'correct horse battery', headers: Record<string, string> = {}): Promise<Signed> {
  const r = await api(url, '/auth/login', { username, password }, { origin: url, ...headers });
  if (r.status !== 200) throw new Error(`login of ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  return as(url, username, sessionCookie(r.headers)!);
}

/**
 * Two server processes (as `npm start` runs them) on one PostgreSQL schema and one Redis prefix of their
 * own, killed and the schema dropped after the file.
 */
export function twoProcesses(extraEnv: Record<string, string> = {}): () => Promise<ServerProcess[]> {
  const schema = uniqueSchema();
  const procs: ServerProcess[] = [];
  let used = false;
  afterAll(async () => {
    for (const p of procs) if (p.proc.exitCode === null) p.proc.kill('SIGKILL');
    if (used) await dropSchema(schema);
  });
  return async () => {
    used = true;
    const env = { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL: process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379', REDIS_PREFIX: `${schema}:`, LOG_LEVEL: 'warn', PASSWORD_COST: String(TEST_PASSWORD_COST), ...extraEnv };
    for (let i = 0; i < 2; i++) procs.push(await startServerProcess(env, await freePort()));
    return procs;
  };
}
