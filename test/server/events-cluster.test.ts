/**
 * Events survive kill -9 and several processes (real server processes, as `npm start` runs them):
 * on SQLite a process killed between rounds and started again on its file goes on with the event; on
 * PostgreSQL two processes both find the event due at the same moment and pair each round exactly once
 * (every match of the event is one the stored rounds name), and after one of them is killed between
 * rounds the other runs the event to its end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { as } from './account-helpers';
import Database from 'better-sqlite3';
import { checkEvent, getEvent, playRound, playToEnd, signUpPlayers, type EventPlayers, type PublicEvent } from './event-helpers';
import { dropSchema, PG_URL, postgresAvailable, TEST_PASSWORD_COST, uniqueSchema, until } from './helpers';

const hasPg = await postgresAvailable();
const procs: ServerProcess[] = [];
afterAll(() => {
  for (const p of procs) if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
});

const start = async (env: Record<string, string>) => {
  const p = await startServerProcess({ LOG_LEVEL: 'info', PASSWORD_COST: String(TEST_PASSWORD_COST), EVENT_TICK_MS: '50', ...env }, await freePort());
  procs.push(p);
  return p;
};
const killHard = async (p: ServerProcess) => {
  p.proc.kill('SIGKILL');
  await p.exited;
};
/** The same accounts (their session cookies) talking to another process. */
const moveTo = (ep: EventPlayers, url: string): EventPlayers => {
  const players = ep.players.map((p) => as(url, p.username, p.cookie));
  return { players, byName: new Map(players.map((p) => [p.username, p])) };
};
const paired = (p: ServerProcess) => p.lines.filter((l) => l.includes('events: round paired')).length;
const namedMatches = (e: PublicEvent) => e.rounds.flat().flatMap((g) => ('matchID' in g ? [g.matchID] : []));
const started = (p: ServerProcess) => p.lines.filter((l) => l.includes('events: round started')).length;

describe('events across kill -9 (embedded)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wg-events-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a 9-player event: the process is killed between rounds 1 and 2, the next one on the file runs it to the end', async () => {
    const a = await start({ DATA_DIR: dir });
    let ep = await signUpPlayers(a.url, 9, 'kill');
    const id = (await ep.players[0].call('/api/tournaments', { name: 'Crash cup', rounds: 3, clock: 'none', rated: false })).body.id as string;
    for (const p of ep.players) await p.call(`/api/tournaments/${id}/join`, {});
    await ep.players[0].call(`/api/tournaments/${id}/start`, {});
    await until(async () => (await getEvent(ep.players[0], id)).round === 1, 'round 1');
    await playRound(a.url, ep.players[0], ep, id, 1);
    await killHard(a); // round 1's games are over; round 2 may or may not be paired yet
    const b = await start({ DATA_DIR: dir });
    ep = moveTo(ep, b.url);
    await until(async () => (await getEvent(ep.players[0], id)).round === 2, 'round 2 paired after the restart', 60_000);
    const e = await playToEnd(b.url, ep.players[0], ep, id);
    checkEvent(e, 9, false);
    // Never twice (a log line may be lost to the kill, so at most, not exactly): the stored matches are the proof.
    expect(paired(a) + paired(b)).toBeLessThanOrEqual(3);
    expect(started(a) + started(b)).toBeLessThanOrEqual(3);
    b.proc.kill('SIGTERM');
    await b.exited;
    const db = new Database(join(dir, 'watergate.sqlite'), { readonly: true });
    try {
      const rows = db.prepare("SELECT match_id FROM wg_matches WHERE json_extract(metadata, '$.event') = ?").all(id) as { match_id: string }[];
      expect(rows.map((r) => r.match_id).sort()).toEqual(namedMatches(e).sort());
      expect(rows).toHaveLength(12);
    } finally {
      db.close();
    }
  });
});

describe.skipIf(!hasPg)('events on two processes (PostgreSQL)', () => {
  const schema = uniqueSchema();
  afterAll(async () => dropSchema(schema));

  it('an 8-player event due on both at once is paired once a round; one killed between rounds, the other finishes', async () => {
    const env = { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema };
    const [a, b] = [await start(env), await start(env)];
    let ep = await signUpPlayers(a.url, 8, 'clu');
    // Both processes' ticks (every 50 ms) find it due at the same moment: its start time.
    const startsAt = Date.now() + 4000;
    const id = (await ep.players[0].call('/api/tournaments', { name: 'Two-process cup', rounds: 3, clock: 'none', rated: false, startsAt })).body.id as string;
    for (const p of ep.players) await p.call(`/api/tournaments/${id}/join`, {});
    await until(async () => (await getEvent(ep.players[0], id)).round === 1, 'round 1', 30_000);
    await playRound(b.url, ep.players[0], ep, id, 7);
    await until(async () => (await getEvent(ep.players[0], id)).round === 2, 'round 2', 30_000);
    await killHard(a);
    ep = moveTo(ep, b.url);
    const e = await playToEnd(b.url, ep.players[0], ep, id);
    checkEvent(e, 8, false);
    expect(paired(a) + paired(b)).toBeLessThanOrEqual(3);
    expect(started(a) + started(b)).toBeLessThanOrEqual(3);
    // Every match made for the event is a game its rounds name: no second pairing left matches behind.
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      const { rows } = await c.query(`SELECT match_id FROM "${schema}".wg_matches WHERE metadata::jsonb->>'event' = $1`, [id]);
      expect(rows.map((r) => r.match_id).sort()).toEqual(namedMatches(e).sort());
      expect(rows).toHaveLength(12);
    } finally {
      await c.end();
    }
  });
});

