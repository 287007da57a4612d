/**
 * What a move's commit costs the embedded store's process, one at a time and in groups (the moves of
 * several matches arriving in one turn of the event loop share one transaction: SqliteStore.commitMove).
 * 1,000 matches of real Watergate states; each round commits one move of `group` random matches at once
 * and waits for them; CPU (user and system) and bytes written per move from /proc/self/io, medians of
 * interleaved repeats. `npm run bench:commits [-- --dir DIR]` (DIR: the file system to measure, e.g. a
 * tmpfs; default the system's temporary folder; `--json`: one line of the medians). docs/LOAD.md
 * "Group commit" has the figures.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { State } from 'boardgame.io';
import { Watergate } from '../game/index';
import { buildMatch } from '../server/lobby/matches';
import { SqliteStore } from '../server/storage/sqlite';

const { values } = parseArgs({ options: { dir: { type: 'string' }, matches: { type: 'string', default: '1000' }, moves: { type: 'string', default: '6000' }, repeats: { type: 'string', default: '5' }, json: { type: 'boolean', default: false } } });
const MATCHES = Number(values.matches);
const MOVES = Number(values.moves);
const REPEATS = Number(values.repeats);
for (const [k, v] of [['matches', MATCHES], ['moves', MOVES], ['repeats', REPEATS]] as const) if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} must be a positive whole number`);
/** Moves a transaction: one at a time (a quiet server), then the turns of a busier one. */
const GROUPS = [1, 4, 16, 64].filter((g) => g <= MATCHES);

const written = (): number => Number(/wchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(values.dir ?? tmpdir(), 'wg-bench-commits-'));
  const store = new SqliteStore(dir);
  try {
    await store.connect();
    const live: { id: string; state: State }[] = [];
    for (let i = 0; i < MATCHES; i++) {
      const { initialState, metadata } = buildMatch(Watergate, undefined, false);
      const id = `bench${i.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      await store.createMatch({ matchID: id, initialState, metadata });
      live.push({ id, state: initialState });
    }
    // A move as the server stores one: its action and a log entry of the size a card play makes.
    const commit = (m: { id: string; state: State }) => {
      const next = { ...m.state, _stateID: m.state._stateID + 1 };
      const action = { type: 'MAKE_MOVE' as const, payload: { type: 'playCard', args: [{ card: 17, use: 'event', targets: ['s3', 's4'] }], playerID: '0' } };
      const log = [{ action, _stateID: m.state._stateID, turn: 3, phase: 'cards', metadata: { text: 'x'.repeat(120) } }];
      // A whole state every 20th move, as the server stores one (DEFAULT_SNAPSHOT_EVERY).
      const p = store.commitMove(m.id, { prevStateID: m.state._stateID, seatsVersion: 0, state: next, action, log: log as never, updatedAt: Date.now(), snapshot: next._stateID % 20 === 0 });
      m.state = next;
      return p;
    };
    const results = new Map<number, { cpu: number[]; user: number[]; sys: number[]; bytes: number[]; rate: number[] }>();
    for (let r = 0; r < REPEATS; r++) {
      for (const group of GROUPS) {
        const c0 = process.cpuUsage();
        const w0 = written();
        const t0 = performance.now();
        for (let done = 0; done < MOVES; done += group) {
          const picked = new Set<number>();
          while (picked.size < group) picked.add(Math.floor(Math.random() * MATCHES));
          await Promise.all([...picked].map((i) => commit(live[i])));
        }
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(c0);
        const row = results.get(group) ?? { cpu: [], user: [], sys: [], bytes: [], rate: [] };
        row.cpu.push((cpu.user + cpu.system) / MOVES);
        row.user.push(cpu.user / MOVES);
        row.sys.push(cpu.system / MOVES);
        row.bytes.push((written() - w0) / MOVES);
        row.rate.push(MOVES / (ms / 1000));
        results.set(group, row);
      }
    }
    if (values.json) {
      const rows = [...results].map(([group, r]) => ({ group, cpuUs: median(r.cpu), userUs: median(r.user), sysUs: median(r.sys), bytes: median(r.bytes), movesPerSecond: median(r.rate) }));
      return void console.log(JSON.stringify({ matches: MATCHES, moves: MOVES, repeats: REPEATS, rows }));
    }
    console.log(`${MATCHES} matches, ${MOVES} moves a run, medians of ${REPEATS} interleaved runs, ${dir.startsWith('/dev/shm') ? 'tmpfs' : dir}`);
    console.log('moves a transaction | CPU µs a move (user + system) | bytes written a move | moves/s');
    for (const [group, r] of results) console.log(`${group} | ${median(r.cpu).toFixed(0)} (${median(r.user).toFixed(0)} + ${median(r.sys).toFixed(0)}) | ${median(r.bytes).toFixed(0)} | ${median(r.rate).toFixed(0)}`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
