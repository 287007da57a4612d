/**
 * Limits on two processes behind HAProxy (as `npm run cluster` runs them, with a schema and a Redis
 * prefix of this test's own): a client flooding creates and joins through HAProxy is limited across
 * both processes together (the limits are counted in Redis, the address read from the header HAProxy
 * adds), while a client at another address (127.0.0.2) creates, joins and plays through the same proxy.
 * With Redis unreachable a process still limits, in its own memory, and keeps serving.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { freePort, HAPROXY, startCluster, startServerProcess, type Cluster, type ServerProcess } from '../../tools/cluster';
import { apiFrom, dropSchema, PG_URL, play, player, postgresAvailable, uniqueSchema } from './helpers';

const hasPg = await postgresAvailable();
const hasHaproxy = spawnSync(HAPROXY, ['-v']).status === 0;
if (!hasHaproxy && process.env.REQUIRE_CLUSTER === '1') throw new Error(`REQUIRE_CLUSTER=1 but HAProxy is missing (${HAPROXY}): bash scripts/ensure-haproxy.sh`);
const REDIS = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

const CREATE = 4;
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
      env: { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL: REDIS, REDIS_PREFIX: `${schema}:`, LOG_LEVEL: 'info', LIMITS: `create=${CREATE}/600,join=${JOIN}/600` },
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
    // Both processes refused some: the count was shared, not each process's own.
    const refusedBy = cluster.servers.map((s) => s.lines.filter((l) => l.includes('"path":"/games/watergate/create"') && l.includes('"status":429')).length);
    expect(refusedBy.every((n) => n > 0)).toBe(true);

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
    try {
      await play(players, 10);
      expect(players['1'].state()!._stateID).toBeGreaterThanOrEqual(10);
    } finally {
      players['0'].stop();
      players['1'].stop();
    }
    // The flooder is still refused meanwhile.
    expect((await apiFrom('127.0.0.1', url, '/games/watergate/create', {})).status).toBe(429);
  });
});

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
