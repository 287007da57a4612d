/**
 * Matches survive crashes: the real server process plays some moves, is killed with SIGKILL, starts
 * again on the same storage, and the match resumes with identical state and the same credentials —
 * on the embedded backend (SQLite under DATA_DIR) and on PostgreSQL (DATABASE_URL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, createAndJoin, dropSchema, PG_URL, play, player, postgresAvailable, uniqueSchema, until } from './helpers';
import { freePort, startServerProcess, type ServerProcess as Child } from '../../tools/cluster';

/** The real server as `npm start` runs it (one process, so signals reach the server itself). */
const startChild = async (env: Record<string, string>) => startServerProcess(env, await freePort());

/** kill -9: no shutdown code runs, as in a crash or OOM kill. */
async function crash(c: Child): Promise<void> {
  c.proc.kill('SIGKILL');
  await c.exited;
}

const hasPg = await postgresAvailable();
type Seat = '0' | '1';
type Player = ReturnType<typeof player>;

async function connect(url: string, matchID: string, creds: Record<Seat, string>) {
  const players = { '0': player(url, matchID, '0', creds['0']), '1': player(url, matchID, '1', creds['1']) };
  await until(() => players['0'].state() !== null && players['1'].state() !== null, 'both players synced');
  return players;
}

const snapshot = (p: Player) => {
  const s = p.state()!;
  return JSON.parse(JSON.stringify({ G: s.G, ctx: s.ctx, _stateID: s._stateID }));
};

function crashSuite(name: string, env: () => Record<string, string>, cleanup: () => Promise<void>) {
  const children: Child[] = [];
  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) await crash(c);
    await cleanup();
  });

  it(`${name}: a match resumes after kill -9 with identical state and the same credentials`, async () => {
    const first = await startChild(env());
    children.push(first);
    const { matchID, creds } = await createAndJoin(first.url);
    let players = await connect(first.url, matchID, creds);
    await play(players, 12);
    const before = { '0': snapshot(players['0']), '1': snapshot(players['1']) };
    const meta = (await api(first.url, `/games/watergate/${matchID}`)).body;
    players['0'].stop();
    players['1'].stop();
    await crash(first);

    const second = await startChild(env());
    children.push(second);
    players = await connect(second.url, matchID, creds);
    expect(snapshot(players['0'])).toEqual(before['0']);
    expect(snapshot(players['1'])).toEqual(before['1']);
    const after = (await api(second.url, `/games/watergate/${matchID}`)).body;
    expect(after.players.map((p: { name: string }) => p.name)).toEqual(meta.players.map((p: { name: string }) => p.name));
    // Same credentials still rule the seats: the match goes on.
    await play(players, 3);
    expect(players['0'].state()!._stateID).toBeGreaterThan(before['0']._stateID);

    // Kill it in the middle of a burst of moves: whatever was saved is whole.
    const id = players['0'].state()!._stateID;
    const halt = { now: false };
    const burst = play(players, 50, halt).catch(() => undefined);
    await until(() => players['0'].state()!._stateID >= id + 2, 'a few more moves');
    await crash(second);
    halt.now = true;
    await burst;
    // Clients are only told of a move once it is saved, so everything they saw must still be there.
    const seen = Math.max(players['0'].state()!._stateID, players['1'].state()!._stateID);
    players['0'].stop();
    players['1'].stop();
    const third = await startChild(env());
    children.push(third);
    players = await connect(third.url, matchID, creds);
    const resumed = players['0'].state()!;
    expect(resumed._stateID).toBeGreaterThanOrEqual(seen);
    expect(resumed._stateID).toBeLessThanOrEqual(seen + 1); // at most one saved move whose news died with the server
    // The log and the state agree (no half-written move), and play continues.
    const sync = players['0'].received.find((m) => m.event === 'sync')!.args[1] as { log: { _stateID: number }[] };
    expect(sync.log.length).toBeGreaterThan(0);
    expect(Math.max(...sync.log.map((e) => e._stateID))).toBe(resumed._stateID - 1);
    await play(players, 2);
    players['0'].stop();
    players['1'].stop();

    // SIGTERM: a clean, prompt shutdown.
    third.proc.kill('SIGTERM');
    const exit = await third.exited;
    expect(exit, third.lines.slice(-15).join('\n')).toEqual({ code: 0, signal: null });
    expect(third.lines.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  }, 300_000);
}

describe('persistence across kill -9 (embedded)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wg-persist-'));
  crashSuite('embedded', () => ({ DATA_DIR: dir }), async () => rmSync(dir, { recursive: true, force: true }));
});

describe.skipIf(!hasPg)('persistence across kill -9 (PostgreSQL)', () => {
  const schema = uniqueSchema();
  crashSuite('postgres', () => ({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema }), () => dropSchema(schema));
});
