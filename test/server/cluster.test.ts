/**
 * Several server processes on one PostgreSQL and one Redis (each test with its own schema and key
 * prefix), as `npm run cluster` runs them: a match played with its seats on different processes, a
 * process killed with SIGKILL behind HAProxy, Redis going away and coming back (a redis-server of the
 * test's own, never the machine's), a stale write across processes, and exactly one process playing a
 * match's bot.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, HAPROXY, startCluster, startServerProcess, type Cluster, type ServerProcess } from '../../tools/cluster';
import { api, createAndJoin, dropSchema, next, nextState, PG_URL, play, player, postgresAvailable, rawSocket, stored, uniqueSchema, until } from './helpers';
import { openStore } from '../../server/storage/index';
import { legalMoves, type WatergateState } from '../../game/index';
import { NEXT_EVENT, type GuardError, type NextMatch } from '../../protocol/index';

const hasPg = await postgresAvailable();
const hasHaproxy = spawnSync(HAPROXY, ['-v']).status === 0;
if (!hasHaproxy && process.env.REQUIRE_CLUSTER === '1') throw new Error(`REQUIRE_CLUSTER=1 but HAProxy is missing (${HAPROXY}): bash scripts/ensure-haproxy.sh`);
const REDIS = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

type Seat = '0' | '1';
type Player = ReturnType<typeof player>;

const schemas: string[] = [];
const processes: ServerProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c().catch(() => undefined);
  for (const p of processes) if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
  for (const s of schemas) await dropSchema(s);
});

/** The environment of one deployment: its own schema and Redis prefix. */
function deployment(redisUrl = REDIS) {
  const schema = uniqueSchema();
  schemas.push(schema);
  return { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL: redisUrl, REDIS_PREFIX: `${schema}:`, LOG_LEVEL: 'info' };
}

async function server(env: Record<string, string>): Promise<ServerProcess> {
  const p = await startServerProcess(env, await freePort());
  processes.push(p);
  return p;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });

const metric = async (url: string, name: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
};

const stopAll = (ps: Record<Seat, Player>) => {
  ps['0'].stop();
  ps['1'].stop();
};

async function playToEnd(players: Record<Seat, Player>, max = 2000): Promise<void> {
  await until(() => players['0'].state() !== null && players['1'].state() !== null, 'both players synced');
  for (let i = 0; i < max && !players['0'].state()!.ctx.gameover; i++) await play(players, 1);
  expect(players['0'].state()!.ctx.gameover).toBeDefined();
  await until(() => players['1'].state()!.ctx.gameover !== undefined, 'both clients see the end');
}

describe.skipIf(!hasPg)('several server processes', () => {
  it('play one match with its seats on different processes, to the end', async () => {
    const env = deployment();
    const [a, b] = [await server(env), await server(env)];
    const { matchID, creds } = await createAndJoin(a.url);
    const players = { '0': player(a.url, matchID, '0', creds['0']), '1': player(b.url, matchID, '1', creds['1']) };
    try {
      await playToEnd(players);
      const store = await openStore({ databaseUrl: PG_URL, databaseSchema: env.DATABASE_SCHEMA, dataDir: '' });
      const { state } = await stored(store, matchID);
      await store.close();
      for (const p of ['0', '1'] as Seat[]) expect(players[p].state()!._stateID).toBe(state._stateID);
      expect(players['1'].state()!.ctx.gameover).toEqual(state.ctx.gameover);
      // Each process saved the moves of its own seat, and heard of the other's through Redis.
      expect(await metric(a.url, 'wg_moves_total')).toBeGreaterThan(5);
      expect(await metric(b.url, 'wg_moves_total')).toBeGreaterThan(5);
      expect(await metric(a.url, 'wg_stale_writes_total')).toBe(0);
    } finally {
      stopAll(players);
    }
  }, 300_000);

  it('refuse a stale write across processes and resync the client (processes that do not hear each other)', async () => {
    const env = deployment();
    const a = await server(env);
    const b = await server({ ...env, REDIS_PREFIX: `${env.REDIS_PREFIX}other:` });
    const { matchID, creds } = await createAndJoin(a.url);
    const [s1, s2] = [await rawSocket(a.url), await rawSocket(b.url)];
    for (const s of [s1, s2]) {
      const synced = next(s, 'sync');
      s.emit('sync', matchID, '0', creds['0'], 2);
      await synced;
    }
    const { state } = await (async () => {
      const store = await openStore({ databaseUrl: PG_URL, databaseSchema: env.DATABASE_SCHEMA, dataDir: '' });
      try {
        return await stored(store, matchID);
      } finally {
        await store.close();
      }
    })();
    const m = legalMoves(state.G as WatergateState, '0')[0];
    const action = { type: 'MAKE_MOVE', payload: { type: m.move, args: m.args, playerID: '0', credentials: creds['0'] } };
    const moved = nextState(s1);
    s1.emit('update', action, state._stateID, matchID, '0');
    expect(await moved).toBe(state._stateID + 1);
    // The second process never heard of that move: it takes the same move on the old state.
    const refused = next<[GuardError]>(s2, 'watergate:error');
    const caughtUp = nextState(s2);
    const resync = next<[string, { state: { _stateID: number } }]>(s2, 'sync');
    s2.emit('update', action, state._stateID, matchID, '0');
    expect((await refused)[0]).toMatchObject({ type: 'stale', message: 'another move was saved first: resyncing' });
    expect(await caughtUp).toBe(state._stateID + 1);
    expect((await resync)[1].state._stateID).toBe(state._stateID + 1);
    expect(await metric(b.url, 'wg_stale_writes_total')).toBe(1);
    s1.close();
    s2.close();
  }, 120_000);

  it('let exactly one process play a match\'s bot, and another take it over when that one dies', async () => {
    const env = deployment();
    const [a, b] = [await server(env), await server(env)];
    const res = await api(a.url, '/games/watergate/vs-computer', { botSeat: '0', level: 'easy' });
    const { matchID, humanSeat } = res.body as { matchID: string; humanSeat: Seat };
    const join = await api(a.url, `/games/watergate/${matchID}/join`, { playerID: humanSeat, playerName: 'Ann' });
    const creds = join.body.playerCredentials as string;
    // The human on one process, a spectator on the other: both hold the match, one plays the bot.
    const human = player(a.url, matchID, humanSeat, creds);
    const spectator = player(b.url, matchID, null);
    const stateID = () => human.state()?._stateID ?? -1;
    try {
      await until(() => human.state() !== null && spectator.state() !== null, 'both synced');
      // The bot (the Editor) moves first; then the human answers whenever asked, for a while.
      for (let i = 0; i < 4; i++) {
        await until(() => human.state()!.G.prompt?.player === humanSeat || human.state()!.ctx.gameover !== undefined, 'the human\'s decision');
        if (human.state()!.ctx.gameover) break;
        await play({ '0': human, '1': human }, 1);
      }
      const thinkA = await metric(a.url, 'wg_bot_think_seconds_count');
      const thinkB = await metric(b.url, 'wg_bot_think_seconds_count');
      expect(thinkA + thinkB).toBeGreaterThan(1);
      expect(Math.min(thinkA, thinkB)).toBe(0);
      // The process playing the bot dies; the survivor takes the bot over and the human plays on there.
      const [owner, survivor] = thinkA > 0 ? [a, b] : [b, a];
      expect(human.state()!.ctx.gameover).toBeUndefined();
      human.stop();
      owner.proc.kill('SIGKILL');
      await owner.exited;
      const again = player(survivor.url, matchID, humanSeat, creds);
      try {
        await until(() => again.state() !== null, 'the human back on the survivor');
        // The human answers whenever asked (their own moves alone prove nothing) until the survivor's bot has moved.
        const botMoves = () => metric(survivor.url, 'wg_bot_think_seconds_count');
        await until(async () => {
          const s = again.state()!;
          if (s.ctx.gameover) return true;
          if (s.G.prompt?.player === humanSeat) await play({ '0': again, '1': again }, 1);
          return (await botMoves()) > 0;
        }, 'the survivor to play the bot', 60_000);
        expect(await botMoves()).toBeGreaterThan(0);
      } finally {
        again.stop();
      }
    } finally {
      human.stop();
      spectator.stop();
    }
    expect(stateID()).toBeGreaterThan(0);
  }, 300_000);

  it('tell another process of a join (its bot starts) and of a next match (its sockets get NEXT_EVENT)', async () => {
    const env = deployment();
    const [a, b] = [await server(env), await server(env)];
    // The computer is the Editor; only b holds the match (a spectator there) when the human joins on a.
    const vs = (await api(a.url, '/games/watergate/vs-computer', { botSeat: '0', level: 'easy' })).body as { matchID: string; humanSeat: Seat };
    const spectator = player(b.url, vs.matchID, null);
    try {
      await until(() => spectator.state() !== null, 'spectator synced on b');
      const before = spectator.state()!._stateID;
      await new Promise((r) => setTimeout(r, 300));
      expect(spectator.state()!._stateID).toBe(before); // no move while the human's seat is open
      expect((await api(a.url, `/games/watergate/${vs.matchID}/join`, { playerID: vs.humanSeat, playerName: 'Ann' })).status).toBe(200);
      await until(() => spectator.state()!._stateID > before, 'the bot to move after the join', 30_000);
    } finally {
      spectator.stop();
    }

    const { matchID, creds } = await createAndJoin(a.url);
    const s = await rawSocket(b.url);
    const synced = next(s, 'sync');
    s.emit('sync', matchID, '1', creds['1'], 2);
    await synced;
    const told = next<[NextMatch]>(s, NEXT_EVENT);
    const asked = await api(a.url, `/games/watergate/${matchID}/playAgain`, { playerID: '0', credentials: creds['0'] });
    expect(asked.status).toBe(200);
    expect(await told).toEqual([{ matchID, nextMatchID: asked.body.nextMatchID }]);
    // The opponent accepts through the other process: the seat left.
    const accepted = await api(b.url, `/games/watergate/${matchID}/playAgain`, { playerID: '1', credentials: creds['1'] });
    expect(accepted.body).toMatchObject({ nextMatchID: asked.body.nextMatchID, playerID: '0' });
    s.close();
  }, 120_000);

  it('end a game on time exactly once when two processes hold the match, each with its timer', async () => {
    const env = deployment();
    const [a, b] = [await server(env), await server(env)];
    const { matchID, creds } = await createAndJoin(a.url, { clock: { initialSeconds: 3, incrementSeconds: 0, onTimeout: 'lose' } });
    // Each process serves a seat's socket: both hold the match in memory and arm a timer for the deadline.
    const players = { '0': player(a.url, matchID, '0', creds['0']), '1': player(b.url, matchID, '1', creds['1']) };
    try {
      await until(() => players['0'].state()?.ctx.gameover !== undefined && players['1'].state()?.ctx.gameover !== undefined, 'both see the game over on time', 20_000);
      expect(players['1'].state()!.ctx.gameover).toEqual({ winner: '1', reason: 'time' });
      const store = await openStore({ databaseUrl: PG_URL, databaseSchema: env.DATABASE_SCHEMA, dataDir: '' });
      try {
        const moves = await store.movesAfter(matchID, -1);
        expect(moves.map((m) => m.action.payload.type)).toEqual(['timeout']);
      } finally {
        await store.close();
      }
      // Both timers fired (or the scan found it); one write went through, the other was refused as stale.
      const ended = [...a.lines, ...b.lines].filter((l) => l.includes('clock ran out: game over'));
      expect(ended).toHaveLength(1);
    } finally {
      stopAll(players);
    }
  }, 60_000);

  it('keep serving when Redis goes away (degraded), and resubscribe and catch up when it is back', async () => {
    const port = await freePort();
    const startRedis = () => {
      const r = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      return r;
    };
    let redis: ChildProcess = startRedis();
    cleanups.push(async () => void redis.kill('SIGKILL'));
    await until(() => listening(port), 'redis up');
    const env = deployment(`redis://127.0.0.1:${port}`);
    const [a, b] = [await server(env), await server(env)];
    await until(async () => (await api(a.url, '/healthz')).body.bus === 'redis: connected', 'bus up');
    const one = await createAndJoin(a.url);
    const local = { '0': player(a.url, one.matchID, '0', one.creds['0']), '1': player(a.url, one.matchID, '1', one.creds['1']) };
    const split = await createAndJoin(a.url);
    const across = { '0': player(a.url, split.matchID, '0', split.creds['0']), '1': player(b.url, split.matchID, '1', split.creds['1']) };
    try {
      await play(across, 2);
      redis.kill('SIGKILL');
      await until(async () => (await api(a.url, '/healthz')).body.status === 'degraded', 'healthz says degraded', 10_000);
      expect((await api(a.url, '/healthz')).body).toEqual({ status: 'degraded', storage: 'postgres', bus: 'redis: down' });
      // A match on one process plays on.
      await play(local, 4);
      // Across processes, a move saved while the bus is down reaches the other process's client once it is back.
      const p = across['0'].state()!.G.prompt!.player as Seat;
      const id = across[p].state()!._stateID;
      const m = legalMoves(across[p].state()!.G as unknown as WatergateState, p);
      (across[p].client.moves as Record<string, (a: unknown) => void>)[m[0].move](m[0].args[0]);
      await until(() => across[p].state()!._stateID > id, 'the mover\'s process saved the move');
      expect(across[p === '0' ? '1' : '0'].state()!._stateID).toBe(id);
      redis = startRedis();
      await until(async () => (await api(a.url, '/healthz')).body.status === 'ok' && (await api(b.url, '/healthz')).body.status === 'ok', 'bus back', 20_000);
      await until(() => across['0'].state()!._stateID === across['1'].state()!._stateID, 'a caught up with b', 20_000);
      await play(across, 4);
      expect(across['0'].state()!._stateID).toBe(across['1'].state()!._stateID);
    } finally {
      stopAll(local);
      stopAll(across);
    }
  }, 300_000);
});

describe.skipIf(!hasPg || !hasHaproxy)('several processes behind HAProxy', () => {
  let cluster: Cluster;
  it('route a match to one process; after kill -9 of it, the clients reconnect to another and the match finishes', async () => {
    cluster = await startCluster({ processes: 2, env: deployment() });
    cleanups.push(() => cluster.stop());
    const { matchID, creds } = await createAndJoin(cluster.url);
    const players = { '0': player(cluster.url, matchID, '0', creds['0']), '1': player(cluster.url, matchID, '1', creds['1']) };
    try {
      await play(players, 10);
      // Both sockets reached the same process.
      const sockets = await Promise.all(cluster.servers.map((s) => metric(s.url, 'wg_open_sockets')));
      expect([...sockets].sort()).toEqual([0, 2]);
      const owner = cluster.servers[sockets.indexOf(2)];
      const seen = players['0'].state()!._stateID;
      const heard = { '0': players['0'].received.length, '1': players['1'].received.length };
      owner.proc.kill('SIGKILL');
      await owner.exited;
      // Both clients come back through HAProxy to the other process (each on its own reconnection backoff)
      // before play goes on: a move made while the other seat is still away is only seen after its return.
      // Back means synced by the other process since the kill: a client may not have noticed the kill yet
      // (still "connected"), and a move sent into the dying connection is lost with it.
      const back = (seat: Seat) => {
        const p = players[seat];
        return p.received.slice(heard[seat]).some((r) => r.event === 'sync') && p.state()!._stateID >= seen && p.client.getState()?.isConnected === true;
      };
      await until(() => back('0') && back('1'), 'both reconnected', 60_000);
      await playToEnd(players);
      expect(players['0'].state()!._stateID).toBeGreaterThan(seen);
    } catch (e) {
      // What the surviving process said (and each client last received) is what a failure here is read from.
      for (const s of cluster.servers) console.error(`process ${s.port}:\n${s.lines.slice(-80).join('\n')}`);
      for (const seat of ['0', '1'] as const) console.error(`client ${seat}: state ${players[seat].state()?._stateID}, last events ${JSON.stringify(players[seat].received.slice(-6).map((r) => r.event))}`);
      throw e;
    } finally {
      stopAll(players);
    }
  }, 300_000);
});
