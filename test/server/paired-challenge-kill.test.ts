/**
 * A paired challenge across kill -9 (embedded SQLite, real server processes as `npm start` runs them): the
 * process is killed the moment the first game of the pair is over (the runner reading that end), and, in
 * a second run, the moment the pair's document on the file names the second game (its match being made,
 * or just made) — which step it had reached is read from the file before the restart and reported. The next process on the same file makes the second
 * game exactly once (the only other match of the pair), on the same deal with sides swapped, both
 * accounts seated, and scores the pair when it ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { as, signUp, type Signed } from './account-helpers';
import { seatOf } from './event-helpers';
import { player, TEST_PASSWORD_COST, until } from './helpers';

const procs: ServerProcess[] = [];
afterAll(() => {
  for (const p of procs) if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
});
const start = async (dir: string) => {
  const p = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'info', PASSWORD_COST: String(TEST_PASSWORD_COST), EVENT_TICK_MS: '50' }, await freePort());
  procs.push(p);
  return p;
};

type Row = { match_id: string; metadata: string; initial: string };
/** What the file holds of the pair: its event document and the matches naming it (read-only, the server stopped). */
function onFile(dir: string, id: string): { doc: { rounds: { boards: { games: { matchID: string; ready?: boolean }[]; points?: [number, number] }[] }[] } | null; matches: Row[] } {
  const db = new Database(join(dir, 'watergate.sqlite'), { readonly: true });
  try {
    const ev = db.prepare('SELECT doc FROM wg_events WHERE id = ?').get(id) as { doc: string } | undefined;
    const matches = db.prepare("SELECT match_id, metadata, initial_state AS initial FROM wg_matches JOIN wg_states USING (match_id) WHERE json_extract(metadata, '$.event') = ?").all(id) as Row[];
    return { doc: ev ? JSON.parse(ev.doc) : null, matches };
  } finally {
    db.close();
  }
}

describe('a paired challenge across kill -9 (embedded)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wg-pair-kill-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** One pair: Ann challenges Bo; the process is killed at `when`; a new one on the file runs the pair to its end. */
  async function pairAcrossKill(when: 'over' | 'written', k: string): Promise<void> {
    const [A, B] = [`KillPairAnn${k}`, `KillPairBo${k}`];
    const a = await start(dir);
    const ann = await signUp(a.url, A);
    const bo = await signUp(a.url, B);
    const sent = await ann.call(`/api/challenge/${B}`, { paired: true, side: 'editor', clock: 'none' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const id = sent.body.id as string;
    const acc = await bo.call(`/api/challenge/${id}/accept`, {});
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    const first = acc.body.matchID as string;

    // Bo (Nixon) resigns the first game; the process dies as soon as Bo's board shows it over.
    const s1 = await seatOf(bo, first);
    const p = player(a.url, first, s1.playerID, s1.playerCredentials);
    try {
      await until(() => p.state() !== null, 'synced', 60_000);
      (p.client.moves as Record<string, () => void>).resign();
      await until(() => p.state()!.ctx.gameover !== undefined, 'over', 60_000);
      // 'written': the file is read in a tight (blocking) loop until the pair's document names the second game, then the kill.
      if (when === 'written') {
        const db = new Database(join(dir, 'watergate.sqlite'), { readonly: true });
        const read = db.prepare("SELECT json_array_length(doc, '$.rounds[0].boards[0].games') AS n FROM wg_events WHERE id = ?");
        for (const end = Date.now() + 20_000; Date.now() < end && (read.get(id) as { n: number }).n < 2; );
        a.proc.kill('SIGKILL');
        db.close();
      }
      a.proc.kill('SIGKILL');
    } finally {
      p.stop();
    }
    await a.exited;
    const before = onFile(dir, id);
    const games = before.doc!.rounds[0].boards[0].games;
    const reached = games.length === 1 ? 'the second game not yet written' : !games[1].ready ? `the second game written, ${before.matches.length === 2 ? 'its match made but not marked ready' : 'its match not made'}` : 'the second game made and ready';
    console.info(`paired challenge kill -9 (${when}): the process was killed with ${reached}`);
    expect(before.matches.map((m) => m.match_id)).toContain(first);
    if (when === 'written') expect(games).toHaveLength(2);

    const b = await start(dir);
    const [ann2, bo2]: Signed[] = [as(b.url, ann.username, ann.cookie), as(b.url, bo.username, bo.cookie)];
    await until(async () => (await ann2.call(`/api/challenge/${id}`)).body.pair?.games.length === 2, 'the second game of the pair after the restart', 60_000);
    const view = (await ann2.call(`/api/challenge/${id}`)).body;
    const [g1, g2] = view.pair.games as { matchID: string; editor: string; nixon: string; seed: string; result: string | null }[];
    expect(g1).toMatchObject({ matchID: first, editor: A, nixon: B, result: 'editor' });
    expect(g2).toMatchObject({ editor: B, nixon: A, result: null });
    expect(g2.seed).toBe(g1.seed);
    // Both seated in it: each finds the seat of their side in their matches.
    const sAnn = await seatOf(ann2, g2.matchID);
    const sBo = await seatOf(bo2, g2.matchID);
    expect([sAnn.playerID, sBo.playerID]).toEqual(['1', '0']);

    // Bo, now the Editor, resigns again: Ann won both games, the pair is hers 1 – 0.
    const q = player(b.url, g2.matchID, sBo.playerID, sBo.playerCredentials);
    try {
      await until(() => q.state() !== null, 'synced', 60_000);
      (q.client.moves as Record<string, () => void>).resign();
      await until(() => q.state()!.ctx.gameover !== undefined, 'over', 60_000);
    } finally {
      q.stop();
    }
    await until(async () => (await bo2.call(`/api/challenge/${id}`)).body.pair.score !== null, 'the pair scored', 60_000);
    const end = (await bo2.call(`/api/challenge/${id}`)).body.pair;
    expect(end.games.map((g: { result: string }) => g.result)).toEqual(['editor', 'nixon']);
    expect(end.score).toEqual({ [A]: 1, [B]: 0 });
    b.proc.kill('SIGTERM');
    await b.exited;

    // On the file: exactly the pair's two matches, on one seed, the second's seats the first's swapped.
    const after = onFile(dir, id);
    expect(after.matches.map((m) => m.match_id).sort()).toEqual([first, g2.matchID].sort());
    const byID = new Map(after.matches.map((m) => [m.match_id, m]));
    const seed = (m: Row) => JSON.parse(m.initial).plugins.random.data.seed;
    expect(seed(byID.get(g2.matchID)!)).toBe(seed(byID.get(first)!));
    const names = (m: Row) => [0, 1].map((i) => JSON.parse(m.metadata).players[i].name);
    expect(names(byID.get(g2.matchID)!)).toEqual(names(byID.get(first)!).reverse());
    expect(after.doc!.rounds[0].boards[0].points).toEqual([1, 0]);
  }

  it('killed as the first game ends: after the restart the second game exists once, same deal, sides swapped, and the pair is scored', () => pairAcrossKill('over', 'O'), 180_000);

  it('killed as the pair\'s document names the second game (its match being made): the same after the restart', () => pairAcrossKill('written', 'W'), 180_000);
});
