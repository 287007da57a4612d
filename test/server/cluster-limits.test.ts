/**
 * Limits on two processes behind HAProxy (as `npm run cluster` runs them, with a schema and a Redis
 * prefix of this test's own): a client flooding creates and joins through HAProxy is limited across
 * both processes together (the limits are counted in Redis, the address read from the header HAProxy
 * adds), then floods syncs, stale moves and chat over sockets, while a client at another address
 * (127.0.0.2) creates, joins and plays through the same proxy, each move in seconds at most.
 * With Redis unreachable a process still limits, in its own memory, and keeps serving.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { io as ioClient, type Socket } from 'socket.io-client';
import type { WatergateState } from '../../game/index';
import type { GuardError } from '../../protocol/index';
import { freePort, HAPROXY, startCluster, startServerProcess, type Cluster, type ServerProcess } from '../../tools/cluster';
import { apiFrom, dropSchema, PG_URL, play, player, postgresAvailable, uniqueSchema, until } from './helpers';

const hasPg = await postgresAvailable();
const hasHaproxy = spawnSync(HAPROXY, ['-v']).status === 0;
if (!hasHaproxy && process.env.REQUIRE_CLUSTER === '1') throw new Error(`REQUIRE_CLUSTER=1 but HAProxy is missing (${HAPROXY}): bash scripts/ensure-haproxy.sh`);
const REDIS = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

const CREATE = 4;
/** The refusals the socket flood must meet: syncs, moves on an old state, chat. */
const FLOODED = [/too many syncs/, /too many moves on an old state/, /too many chat messages/];
const JOIN = 6;

describe.skipIf(!hasPg || !hasHaproxy)('limits on two processes behind HAProxy', () => {
  const schema = uniqueSchema();
  let cluster: Cluster | undefined;
  afterAll(async () => {
    await cluster?.stop();
    await dropSchema(schema);
    const r = new Redis(REDIS);
    const keys = await r.keys(`${schema}:*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
  });

  it('a flooder is limited across both processes; another address plays meanwhile', async () => {
    cluster = await startCluster({
      processes: 2,
      env: { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL: REDIS, REDIS_PREFIX: `${schema}:`, LOG_LEVEL: 'debug', LIMITS: `create=${CREATE}/600,join=${JOIN}/600` },
    });
    const url = cluster.url;
    // One at a time, so that HAProxy's round robin hands them to both processes in turn.
    const creates = [];
    for (let i = 0; i < 12; i++) creates.push(await apiFrom('127.0.0.1', url, '/games/watergate/create', {}));
    expect(creates.filter((r) => r.status === 200)).toHaveLength(CREATE);
    for (const r of creates.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.body.error).toMatch(/^too many new matches from your address: try again in [0-9]+ seconds?$/);
    }
    // Both processes refused some: the count was shared, not each process's own. (Their log lines come
    // through a pipe: on a busy host a refusal's line can arrive after its answer, so wait for them.)
    const refusedBy = () => cluster!.servers.map((s) => s.lines.filter((l) => l.includes('"path":"/games/watergate/create"') && l.includes('"status":429')).length);
    await expect.poll(() => refusedBy().every((n) => n > 0), { timeout: 15_000 }).toBe(true);

    const target = creates.find((r) => r.status === 200)!.body.matchID as string;
    const joins = [];
    for (let i = 0; i < 10; i++) joins.push(await apiFrom('127.0.0.1', url, `/games/watergate/${target}/join`, { playerName: 'Flood' }));
    expect(joins.filter((r) => r.status === 429)).toHaveLength(10 - JOIN);
    expect(joins.filter((r) => r.status === 429).every((r) => /^too many seats taken/.test(r.body.error))).toBe(true);

    // Another client, through the same proxy.
    const made = await apiFrom('127.0.0.2', url, '/games/watergate/create', {});
    expect(made.status).toBe(200);
    const matchID = made.body.matchID as string;
    const a = await apiFrom('127.0.0.2', url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Woodward' });
    const b = await apiFrom('127.0.0.2', url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Nixon' });
    expect([a.status, b.status]).toEqual([200, 200]);
    const players = {
      '0': player(url, matchID, '0', a.body.playerCredentials, { localAddress: '127.0.0.2' }),
      '1': player(url, matchID, '1', b.body.playerCredentials, { localAddress: '127.0.0.2' }),
    };
    // Meanwhile the flooder, seated in its own match, floods syncs, moves on an old state and chat over
    // sockets through the same proxy.
    const flood = await floodSockets(url, target, joins[0].body.playerCredentials as string, joins[1].body.playerCredentials as string);
    const took: number[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        await play(players, 1);
        took.push(performance.now() - t0);
      }
      expect(players['1'].state()!._stateID).toBeGreaterThanOrEqual(10);
      // Each flood's refusal may still be on its way back through the proxy when the other client's
      // moves are done (a fast run): waited for, not cut off by closing the sockets.
      await until(() => FLOODED.every((m) => flood.errors().some((e) => e.type === 'rate-limited' && m.test(e.message))), 'a refusal of each flood', 15_000).catch(() => undefined);
    } finally {
      players['0'].stop();
      players['1'].stop();
      flood.stop();
    }
    const refused = flood.errors();
    for (const message of FLOODED)
      expect(refused.some((e) => e.type === 'rate-limited' && message.test(e.message) && e.retryAfterSeconds! >= 1), String(message)).toBe(true);
    // Each of the other client's moves reached both of its boards at a person's pace, not after the flood.
    took.sort((x, y) => x - y);
    console.log(`moves of the other client during the socket flood: median ${took[5].toFixed(0)} ms, slowest ${took[9].toFixed(0)} ms`);
    expect(took[9]).toBeLessThan(3_000);
    // The flooder is still refused meanwhile.
    expect((await apiFrom('127.0.0.1', url, '/games/watergate/create', {})).status).toBe(429);
  });
});

/**
 * A seated flooder: a socket for each kind of flood (through HAProxy, routed by matchID like a page's),
 * sending syncs, moves on an old state or chat lines as fast as it can until stopped — each on its own
 * connection, so that one kind's refusals never close the connection of another before its limit.
 */
async function floodSockets(url: string, matchID: string, cred0: string, cred1: string) {
  const sockets: { s: Socket; timer?: ReturnType<typeof setInterval> }[] = [];
  const errors: GuardError[] = [];
  for (const [kind, seat, cred] of [['sync', '0', cred0], ['stale', '0', cred0], ['chat', '1', cred1]] as const) {
    const s = ioClient(`${url}/watergate`, { transports: ['websocket'], forceNew: true, reconnection: false, query: { matchID } });
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
    s.on('watergate:error', (e: GuardError) => errors.push(e));
    const synced = new Promise<{ G: WatergateState; _stateID: number }>((r) => s.once('sync', (_m: string, d: { state: { G: WatergateState; _stateID: number } }) => r(d.state)));
    s.emit('sync', matchID, seat, cred, 2);
    const state = await synced;
    // Any move will do: made on an old state, it is refused as stale before the rules look at it.
    const stale = { type: 'MAKE_MOVE', payload: { type: 'play', args: [{ card: 'E01', as: 'action' }], playerID: seat, credentials: cred } };
    let n = 0;
    const timer = setInterval(() => {
      for (let i = 0; i < 10; i++, n++) {
        if (kind === 'sync') s.emit('sync', matchID, seat, cred, 2);
        else if (kind === 'stale') s.emit('update', stale, state._stateID - 1, matchID, seat);
        else s.emit('chat', matchID, { id: `f${n}`, sender: seat, payload: `flood ${n}` });
      }
    }, 20);
    sockets.push({ s, timer });
  }
  return {
    errors: () => errors,
    stop: () => {
      for (const { s, timer } of sockets) {
        clearInterval(timer);
        s.close();
      }
    },
  };
}

describe.skipIf(!hasPg)('limits with Redis unreachable', () => {
  const schema = uniqueSchema();
  let p: ServerProcess | undefined;
  afterAll(async () => {
    p?.proc.kill('SIGKILL');
    await dropSchema(schema);
  });

  it('each process counts in its own memory: the flooder is still refused, others served', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    p = await startServerProcess({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL: nobody, REDIS_PREFIX: `${schema}:`, LIMITS: 'create=2/600' }, await freePort());
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await apiFrom('127.0.0.1', p.url, '/games/watergate/create', {})).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await apiFrom('127.0.0.2', p.url, '/games/watergate/create', {})).status).toBe(200);
    expect(p.proc.exitCode).toBeNull();
    expect(p.lines.some((l) => l.includes('redis unavailable for limits'))).toBe(true);
  });
});
