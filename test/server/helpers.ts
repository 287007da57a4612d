/** Real servers for the server tests: in-process (PGlite in a temp dir, or PostgreSQL) and child processes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Client } from 'boardgame.io/client';
import { SocketIO } from 'boardgame.io/multiplayer';
import { io as ioClient, type Socket } from 'socket.io-client';
import { legalMoves, Watergate, type WatergateState, type WatergateView } from '../../game/index';
import { STATUS_AFTER, STATUS_EVENT, type GuardError, type MatchStatus } from '../../protocol/index';
import { startServer, type RunningServer, type ServerOptions } from '../../server/app';
import { createLogger } from '../../server/log';
import { readMatch } from '../../server/match/replay';
import { resyncWhenBehind } from '../../client/net/resync';
import { openStore, type MatchStore } from '../../server/storage/index';
import { TEST_PASSWORD_COST } from '../helpers/password';

/** The test PostgreSQL (TEST_DATABASE_URL overrides it, e.g. to check the unreachable case). */
export const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Is the test PostgreSQL reachable? With REQUIRE_POSTGRES=1 (CI) an unreachable server is an error. */
export async function postgresAvailable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch (e) {
    if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${PG_URL} is unreachable: ${String(e)}`);
    console.warn(`PostgreSQL at ${PG_URL} is unreachable: PostgreSQL tests are SKIPPED (set REQUIRE_POSTGRES=1 to make this an error)`);
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** A schema of its own for each test run, so parallel runs never see each other's tables. */
export const uniqueSchema = () => `wg_test_${process.pid}_${randomBytes(4).toString('hex')}`;

export async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await c.end();
}

export type Backend = 'embedded' | 'postgres';

export async function openTestStore(backend: Backend): Promise<{ store: MatchStore; cleanup(): Promise<void> }> {
  if (backend === 'postgres') {
    const schema = uniqueSchema();
    const store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
    return { store, cleanup: () => dropSchema(schema) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'wg-store-'));
  const store = await openStore({ dataDir: dir });
  return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A match as storage holds it (snapshot and later moves replayed), in the shape of boardgame.io's
 * StorageAPI.fetch: `{}` when there is no such match.
 */
export async function stored(store: MatchStore, matchID: string): Promise<{ state?: any; metadata?: any; log?: any[]; initialState?: any }> {
  return (await readMatch(store, matchID)) ?? {};
}

/** Collects the server's JSON log lines (to check what they do and do not contain). */
export function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return { lines, log: createLogger('debug', stream as never) };
}

export interface TestServer {
  server: RunningServer;
  url: string;
  store: MatchStore;
  logs: string[];
  stop(): Promise<void>;
}

/**
 * Tests of other things make many matches from 127.0.0.1: the per-address HTTP limits are raised for
 * them (the other limits stay as shipped). A test of the limits passes its own.
 */
export const TEST_HTTP_LIMITS = Object.fromEntries(['create', 'join', 'api', 'signup', 'login', 'loginGuess', 'loginName', 'pair'].map((n) => [n, { points: 100_000, seconds: 60 }]));

export { TEST_PASSWORD_COST };

export async function startTestServer(backend: Backend = 'embedded', opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const { store, cleanup } = await openTestStore(backend);
  const { lines, log } = logCapture();
  const limits = opts.limits === 'off' ? 'off' : { ...TEST_HTTP_LIMITS, ...opts.limits };
  const server = await startServer({ store, port: 0, host: '127.0.0.1', log, passwordCost: TEST_PASSWORD_COST, ...opts, limits });
  return {
    server,
    url: server.url,
    store,
    logs: lines,
    stop: async () => {
      await server.close();
      await cleanup();
    },
  };
}

/** One Lobby API call; returns status and parsed JSON body. */
export async function api(url: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const send = () =>
    fetch(url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  // fetch reuses a kept-alive connection the server may be closing at that very moment (its idle
  // timeout, a busy test process late by a second): the request never reached the server, so it is sent
  // once more on a new connection, as browsers do.
  const res = await send().catch((e: { cause?: { code?: string } }) => {
    if (e.cause?.code === 'ECONNRESET' || e.cause?.code === 'UND_ERR_SOCKET') return send();
    throw e;
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json, headers: res.headers };
}

/**
 * One Lobby API call from a chosen loopback source address (127.0.0.2, …: another client as far as the
 * server's per-address limits go); node:http, since fetch cannot choose its source address.
 */
export function apiFrom(localAddress: string, url: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Record<string, string | string[] | undefined> }> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(url + path, { method: data === undefined ? 'GET' : 'POST', localAddress, agent: false, headers: { ...(data === undefined ? {} : { 'content-type': 'application/json' }), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: any = text;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body: json, headers: res.headers });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

export async function createAndJoin(url: string, setupData?: unknown) {
  const { body } = await api(url, '/games/watergate/create', { numPlayers: 2, ...(setupData ? { setupData } : {}) });
  const matchID: string = body.matchID;
  const a = await api(url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Woodward' });
  const b = await api(url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Nixon' });
  return { matchID, creds: { '0': a.body.playerCredentials as string, '1': b.body.playerCredentials as string } };
}

/**
 * Waits for a condition that events make true; fails with a message after `ms`. A condition read from
 * memory is polled every 10 ms. One that answers with a promise asks the server or the database each
 * time (an HTTP request, a query): its pause grows from 10 to 100 ms, since at 10 ms a wait of a minute
 * for an analysis was 100 requests a second against the very server doing the work, on a suite bound by
 * CPU (docs/BENCHMARKS.md, "Test suite"). It is still true at most ~100 ms after it becomes so.
 */
export async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  let pause = 10;
  for (;;) {
    const answer = cond();
    const asked = answer instanceof Promise;
    if (await answer) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pause));
    if (asked) pause = Math.min(100, Math.round(pause * 1.5));
  }
}

/** boardgame.io's own client over socket.io, with every raw message it receives recorded. */
export function player(url: string, matchID: string, playerID: string | null, credentials?: string, from?: { localAddress?: string }) {
  const client = Client({
    game: Watergate,
    // localAddress (127.0.0.2, …): another source address, as another client's (engine.io hands it to ws).
    multiplayer: SocketIO({ server: url, socketOpts: { transports: ['websocket'], forceNew: true, query: { matchID }, ...from } as never }),
    matchID,
    playerID: playerID ?? undefined,
    credentials,
    debug: false,
  });
  client.start();
  resyncWhenBehind(client);
  const socket = (client as unknown as { transport: { socket: Socket } }).transport.socket;
  const received: { event: string; args: unknown[] }[] = [];
  socket.onAny((event: string, ...args: unknown[]) => received.push({ event, args }));
  const state = () => client.getState() as null | { G: WatergateView; ctx: { gameover?: unknown }; _stateID: number };
  let stopped = false;
  const stop = () => {
    if (!stopped) client.stop();
    stopped = true;
  };
  return { client, socket, received, state, stop };
}

/** A bare socket.io connection to the game namespace, for sending what boardgame.io's client never would. */
export async function rawSocket(url: string, extraHeaders?: Record<string, string>): Promise<Socket> {
  const s = ioClient(`${url}/watergate`, { transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', (e) => reject(e));
  });
  return s;
}

/**
 * Resolves with the id of the next state the server sends this socket: a whole `update` or a `patch`
 * (the server sends a patch when it is smaller).
 */
export function nextState(s: Socket, ms = 20_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const done = (id: number) => {
      clearTimeout(timer);
      s.off('update', onUpdate);
      s.off('patch', onPatch);
      resolve(id);
    };
    const onUpdate = (_m: string, state: { _stateID: number }) => done(state._stateID);
    const onPatch = (_m: string, _prev: number, id: number) => done(id);
    const timer = setTimeout(() => reject(new Error(`no new state within ${ms} ms`)), ms);
    s.on('update', onUpdate);
    s.on('patch', onPatch);
  });
}

/** Resolves with the next `event` on the socket (or rejects after ms). */
export function next<T = unknown[]>(s: Socket, event: string, ms = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${event}" within ${ms} ms`)), ms);
    s.once(event, (...args: unknown[]) => {
      clearTimeout(timer);
      resolve(args as T);
    });
  });
}

/** The match status a message carries: its own event, or the last argument of a move's patch or update. */
export const statusIn = (r: { event: string; args: unknown[] }): MatchStatus | undefined =>
  (r.event === STATUS_EVENT ? r.args[0] : r.event === 'patch' || r.event === 'update' ? r.args[STATUS_AFTER[r.event]] : undefined) as MatchStatus | undefined;

/** Resolves with the next match status the socket hears, however it comes (or rejects after ms). */
export function nextStatus(s: Socket, ms = 20_000): Promise<MatchStatus> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no status within ${ms} ms`)), ms);
    const heard = (event: string, ...args: unknown[]) => {
      const st = statusIn({ event, args });
      if (!st) return;
      clearTimeout(timer);
      s.offAny(heard);
      resolve(st);
    };
    s.onAny(heard);
  });
}

type Seat = '0' | '1';
type Player = ReturnType<typeof player>;

/**
 * Plays `n` moves through the clients. Each player only knows its own view, so it picks from
 * legalMoves on that view; a choice the server refuses (the view hides what it depended on) is
 * simply replaced by the next option.
 */
export async function play(players: Record<Seat, Player>, n: number, halt = { now: false }): Promise<void> {
  for (let i = 0; i < n && !halt.now; i++) {
    await until(() => players['0'].state() !== null && players['1'].state() !== null, 'both players synced');
    const view = players['0'].state()!;
    if (view.ctx.gameover) return;
    const p = view.G.prompt!.player as Seat;
    const mine = players[p].state()!;
    const options = legalMoves(mine.G as unknown as WatergateState, p);
    const id = mine._stateID;
    let moved = false;
    for (const m of options) {
      const refused = new Promise<GuardError>((r) => players[p].socket.once('watergate:error', r));
      (players[p].client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
      const outcome = await Promise.race([
        until(() => halt.now || (players['0'].state()!._stateID > id && players['1'].state()!._stateID > id), `state past ${id}`).then(() => 'moved'),
        refused.then(() => 'refused'),
      ]);
      if (outcome === 'moved') {
        moved = true;
        break;
      }
    }
    if (!moved && !halt.now) throw new Error(`seat ${p} found no accepted move at state ${id}`);
  }
}

/** Who decides now in a match the test server holds (null: nobody, the game is over). */
export const decider = (s: TestServer, matchID: string) => (s.server.service.peek(matchID)?.state.G.prompt?.player ?? null) as '0' | '1' | null;

/**
 * The server plays whoever decides (legal moves of the true state, never resigning) until `seat` must decide
 * with the decision coming from the other seat: a turn start as the notice tests need it.
 */
/**
 * Both seats connect over sockets, each makes `decisions` moves of its own (a legal one of its own view,
 * never resign), then Nixon resigns: a game both sides decided in, ended by a resignation, as the rating
 * rules see it.
 */
export async function decideThenResign(url: string, matchID: string, creds: Record<'0' | '1', string>, decisions: number): Promise<void> {
  const ps = { '0': player(url, matchID, '0', creds['0']), '1': player(url, matchID, '1', creds['1']) };
  await until(() => ps['0'].state() !== null && ps['1'].state() !== null, 'synced');
  const made = { '0': 0, '1': 0 };
  while (made['0'] < decisions || made['1'] < decisions) {
    const s = ps['0'].state()!;
    const seat = s.G.prompt!.player as '0' | '1';
    const m = legalMoves(ps[seat].state()!.G as unknown as WatergateState, seat).find((x) => x.move !== 'resign')!;
    (ps[seat].client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
    await until(() => ps['0'].state()!._stateID > s._stateID, 'the move landed');
    made[seat]++;
  }
  (ps['1'].client.moves as Record<string, () => void>).resign();
  await until(() => ps['0'].state()!.ctx.gameover !== undefined, 'over');
  ps['0'].stop();
  ps['1'].stop();
}

export async function playUntil(s: TestServer, matchID: string, seat: '0' | '1'): Promise<void> {
  await s.server.service.current(matchID);
  for (let i = 0; i < 300; i++) {
    const p = decider(s, matchID);
    if (p === null) throw new Error('the game ended first');
    if (p === seat && i > 0) return;
    const options = legalMoves(s.server.service.peek(matchID)!.state.G as WatergateState, p).filter((m) => m.move !== 'resign');
    let refusal: string | null = 'no legal move';
    for (const m of options) if ((refusal = await s.server.move(matchID, p, m.move, m.args[0])) === null) break;
    if (refusal) throw new Error(refusal);
  }
  throw new Error(`seat ${seat} never came to decide`);
}
