/**
 * Presence is a lease: after kill -9 of the server process holding a player's socket, the seat no longer
 * shows connected — and is marked away — without that player coming back. Embedded: the next process on
 * the file clears it at start. PostgreSQL: another live process's sweep clears it once the dead one's
 * lease (PRESENCE_LEASE_SECONDS, 2 s here) has run out, while a seat also held by a live process stays
 * connected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { STATUS_EVENT, type MatchStatus } from '../../protocol/index';
import { openStore } from '../../server/storage/index';
import { freePort, startServerProcess, type ServerProcess as Child } from '../../tools/cluster';
import { api, createAndJoin, dropSchema, next, PG_URL, postgresAvailable, rawSocket, uniqueSchema, until } from './helpers';

const hasPg = await postgresAvailable();
const children: Child[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) (c.proc.kill('SIGKILL'), await c.exited);
});

const start = async (env: Record<string, string>) => {
  const c = await startServerProcess({ PRESENCE_LEASE_SECONDS: '2', ...env }, await freePort());
  children.push(c);
  return c;
};
const crash = async (c: Child) => {
  c.proc.kill('SIGKILL');
  await c.exited;
};

async function seated(url: string, matchID: string, seat: '0' | '1' | null, credentials?: string) {
  const s = await rawSocket(url);
  sockets.push(s);
  const status = next<[MatchStatus]>(s, STATUS_EVENT);
  const got = next(s, 'sync');
  s.emit('sync', matchID, seat, credentials, 2);
  await got;
  return { s, status: (await status)[0] };
}

const connected = async (url: string, matchID: string) => {
  const { body } = await api(url, `/games/watergate/${matchID}`);
  return (body.players as { id: number; isConnected?: boolean }[]).map((p) => p.isConnected ?? false);
};

describe('presence leases after kill -9', () => {
  it('embedded: the next process on the file shows the dead one\'s seats away at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-presence-'));
    try {
      const a = await start({ DATA_DIR: dir });
      const { matchID, creds } = await createAndJoin(a.url);
      await seated(a.url, matchID, '0', creds['0']);
      await seated(a.url, matchID, '1', creds['1']);
      await until(async () => (await connected(a.url, matchID)).every(Boolean), 'both seats connected');
      const killedAt = Date.now();
      await crash(a);

      const b = await start({ DATA_DIR: dir });
      expect(await connected(b.url, matchID)).toEqual([false, false]);
      const { status } = await seated(b.url, matchID, null);
      for (const seat of ['0', '1'] as const) {
        expect(status.away[seat], `seat ${seat} away`).toBeTypeOf('number');
        expect(status.away[seat]!).toBeLessThanOrEqual(killedAt + 1000);
      }
      // The player coming back holds the seat through the live process.
      await seated(b.url, matchID, '0', creds['0']);
      await until(async () => (await connected(b.url, matchID))[0], 'seat 0 connected again');
      await crash(b);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it.skipIf(!hasPg)('PostgreSQL: a live process sweeps the dead one\'s seats within seconds; a seat it also holds stays', async () => {
    const schema = uniqueSchema();
    try {
      const env = { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema };
      const [a, b] = await Promise.all([start(env), start(env)]);
      const { matchID, creds } = await createAndJoin(a.url);
      const store = await openStore({ databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' });
      const holders = async () => (await store.head(matchID))!.metadata.holders ?? {};
      await seated(a.url, matchID, '0', creds['0']);
      await seated(a.url, matchID, '1', creds['1']);
      await until(async () => (await connected(b.url, matchID)).every(Boolean), 'both seats connected');
      // Seat 1 also on the process that lives: already shown connected, still this process must hold it.
      await seated(b.url, matchID, '1', creds['1']);
      await until(async () => (await holders())['1']?.length === 2, 'seat 1 held by both processes');
      await crash(a);

      await until(async () => !(await connected(b.url, matchID))[0], 'seat 0 shown away', 30_000);
      expect(await connected(b.url, matchID)).toEqual([false, true]);
      const head = await store.head(matchID);
      await store.close();
      expect(head!.metadata.away?.['0']).toBeTypeOf('number');
      expect(head!.metadata.away?.['1']).toBeUndefined();
      expect(head!.metadata.holders).toEqual({ '1': [expect.any(String)] });
    } finally {
      await dropSchema(schema);
    }
  }, 120_000);
});
