/**
 * `tsx tools/bench-scans.ts [--vs DIR] [--matches N] [--repeats R] [--backends embedded,postgres] [--no-write]`
 *
 * The storage's periodic scans on a server that has kept its games: N matches of which 1% are not over
 * (the rest finished over the last 200 days), beside a baseline checkout (`--vs`, e.g.
 * `git worktree add /tmp/base HEAD~1`) in the same run. Every process scans its storage for clock
 * deadlines every 30 s (`timedMatches`) and sweeps stale matches every 10 minutes (`listMatches` of the
 * unfinished, and of the finished ones past KEEP_FINISHED_DAYS when set: here the oldest 1%, as a server
 * that purges finds at each sweep); the embedded backend does it
 * on the event loop, so a slow scan is a pause for every player of the process. A move's commit is timed
 * as well (CPU in this process for SQLite; for PostgreSQL the round trip and the database's own CPU, summed
 * over its local processes), because every index a move
 * touches is paid on every move. Each repeat builds both sides' data afresh, each side in a process of
 * its own, in turn; the figures are medians. Written to docs/LOAD.md ("scans").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { machine, option, today, writeSection } from './machine';

const args = process.argv.slice(2);
const MATCHES = Number(option('matches', '200000'));
const REPEATS = Number(option('repeats', '3'));
const BACKENDS = option('backends', 'embedded,postgres').split(',');
const VS = option('vs', '');
const CHILD = option('child', '');
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const OPEN = Math.max(1, Math.round(MATCHES / 100));
const COMMIT_MATCHES = 100;
const COMMITS = 2000;
const DAY = 86_400_000;

interface Run {
  /** Milliseconds, median of 9: clocks' scan, stale sweep's listing, purge's listing (the oldest 1% past the limit). */
  timed: number;
  stale: number;
  purge: number;
  /** A move's commit: µs of this process's CPU (SQLite) or of wall time (PostgreSQL), the mean of COMMITS. */
  commitUs: number;
  /** PostgreSQL only: the database's own CPU per commit, µs (every `postgres` process on this machine). */
  dbUs: number;
  found: [number, number];
}

/** CPU seconds so far of every process named `postgres` here (the database is local; nothing else uses it meanwhile). */
function postgresCpu(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const f = stat.slice(close + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms9 = async (f: () => Promise<unknown>) => {
  const t: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    await f();
    t.push(performance.now() - t0);
  }
  return median(t);
};

/** The copies of one stored match: 1% unfinished, updated a day ago; the rest finished over 200 days. */
const copies = (n: number, now: number, series: string) =>
  `SELECT 'x' || i, game_name, snapshot_id, state_id, metadata,
     CASE WHEN i % 100 = 0 THEN ${series === 'pg' ? 'false' : '0'} ELSE ${series === 'pg' ? 'true' : '1'} END,
     CASE WHEN i % 100 = 0 THEN NULL ELSE '{"winner":"0"}' END,
     CASE WHEN i % 100 = 0 THEN ${now - DAY} ELSE ${now} - (CAST(i AS bigint) * ${Math.floor((200 * DAY) / n)}) END, listed`;

/** In a child process: the data built and the scans timed with the storage code of checkout `root`. */
async function measure(root: string, backend: string): Promise<Run> {
  const load = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  const { openStore } = await load('server/storage/index.ts');
  const { buildMatch } = await load('server/lobby/matches.ts');
  const { Watergate } = await load('game/index.ts');
  const now = Date.now();
  const schema = `wg_bench_scans_${process.pid}`;
  const dir = mkdtempSync(join(tmpdir(), 'wg-scans-'));
  const cfg = backend === 'postgres' ? { databaseUrl: PG_URL, databaseSchema: schema, dataDir: dir } : { dataDir: dir };
  const cols = 'match_id, game_name, snapshot_id, state_id, metadata, gameover, result, updated_at, listed';
  try {
    let store = await openStore(cfg);
    const real: { id: string; state: { _stateID: number } }[] = [];
    for (let i = 0; i < COMMIT_MATCHES; i++) {
      const { initialState, metadata } = buildMatch(Watergate, undefined, false);
      await store.createMatch({ matchID: `live${i}`, initialState, metadata });
      real.push({ id: `live${i}`, state: initialState });
    }
    if (backend === 'postgres') {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`INSERT INTO "${schema}".wg_matches (${cols}) ${copies(MATCHES, now, 'pg')} FROM generate_series(1, ${MATCHES}) i, "${schema}".wg_matches WHERE match_id = 'live0'`);
      await c.query(`ANALYZE "${schema}".wg_matches`);
      await c.end();
    } else {
      await store.close(); // the embedded file belongs to one connection at a time
      const db = new Database(join(dir, 'watergate.sqlite'));
      db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MATCHES})
        INSERT INTO wg_matches (${cols}) ${copies(MATCHES, now, 'sqlite')} FROM n, wg_matches WHERE match_id = 'live0'`);
      db.close();
      store = await openStore(cfg);
    }
    const staleCut = now - DAY / 2;
    // A server that purges finds at each sweep only what aged past the limit since the last: the oldest 1%.
    const purgeCut = now - 198 * DAY;
    const found: [number, number] = [(await store.listMatches({ where: { isGameover: false, updatedBefore: staleCut } })).length, (await store.listMatches({ where: { isGameover: true, updatedBefore: purgeCut } })).length];
    const timed = await ms9(() => store.timedMatches());
    const stale = await ms9(() => store.listMatches({ where: { isGameover: false, updatedBefore: staleCut } }));
    const purge = await ms9(() => store.listMatches({ where: { isGameover: true, updatedBefore: purgeCut } }));
    const c0 = process.cpuUsage();
    const db0 = backend === 'postgres' ? postgresCpu() : 0;
    const t0 = performance.now();
    for (let k = 0; k < COMMITS; k++) {
      const m = real[k % COMMIT_MATCHES];
      const next = { ...m.state, _stateID: m.state._stateID + 1 };
      const action = { type: 'MAKE_MOVE', payload: { type: 'play', args: [k], playerID: '0' } };
      await store.commitMove(m.id, { prevStateID: m.state._stateID, seatsVersion: 0, state: next, action, log: [{ action, _stateID: m.state._stateID, turn: 1, phase: 'cards' }], updatedAt: Date.now(), snapshot: false });
      m.state = next;
    }
    const cpu = process.cpuUsage(c0);
    const dbUs = backend === 'postgres' ? ((postgresCpu() - db0) * 1e6) / COMMITS : 0;
    const commitUs = backend === 'postgres' ? ((performance.now() - t0) * 1000) / COMMITS : (cpu.user + cpu.system) / COMMITS;
    await store.close();
    return { timed, stale, purge, commitUs, dbUs, found };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (backend === 'postgres') {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  }
}

function child(root: string, backend: string): Run {
  const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1], '--child', root, '--backend', backend, '--matches', String(MATCHES)], { encoding: 'utf8', env: process.env, maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split('\n').pop()!) as Run;
}

if (CHILD) {
  console.log(JSON.stringify(await measure(CHILD, option('backend', 'embedded'))));
} else {
  const here = resolve('.');
  const sides = VS ? [here, resolve(VS)] : [here];
  const commit = (root: string) => execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const lines: string[] = [];
  const ratios: string[] = [];
  for (const backend of BACKENDS) {
    const runs: Run[][] = sides.map(() => []);
    for (let r = 0; r < REPEATS; r++) sides.forEach((root, i) => runs[i].push(child(root, backend)));
    const f = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());
    sides.forEach((root, i) => {
      const rs = runs[i];
      const m = (k: keyof Omit<Run, 'found'>) => f(median(rs.map((x) => x[k])));
      lines.push(`| ${backend} | ${i === 0 ? `this checkout (${commit(root)})` : `baseline (${commit(root)})`} | ${m('timed')} ms | ${m('stale')} ms | ${m('purge')} ms | ${m('commitUs')} µs${backend === 'postgres' ? ` (database CPU ${m('dbUs')} µs)` : ''} |`);
    });
    if (VS) {
      const ratio = (k: keyof Omit<Run, 'found'>) => median(runs[0].map((x, j) => x[k] / runs[1][j][k])).toFixed(2);
      ratios.push(`${backend}: clocks' scan ${ratio('timed')}×, stale listing ${ratio('stale')}×, purge listing ${ratio('purge')}×, commit ${ratio('commitUs')}×${backend === 'postgres' ? ` (database CPU ${ratio('dbUs')}×)` : ''}`);
    }
    const [open, old] = runs[0][0].found;
    if (!runs.every((rs) => rs.every((x) => x.found[0] === open && x.found[1] === old))) throw new Error(`the two sides listed different matches on ${backend}`);
  }
  const body = [
    `Machine: ${machine()}; ${today()}; ${MATCHES.toLocaleString('en')} matches (${OPEN.toLocaleString('en')} unfinished and idle for a day, the rest finished over 200 days); ${REPEATS} repeats, each side in a process of its own, in turn, its data built afresh; medians. Both sides list the same matches.`,
    '',
    "| storage | code | clocks' scan (every 30 s) | stale sweep's listing | purge's listing (the oldest 1%) | a move's commit |",
    '|---|---|---|---|---|---|',
    ...lines,
    ...(VS ? ['', `This checkout ÷ baseline, repeat by repeat (median): ${ratios.join('; ')}.`] : []),
  ].join('\n');
  console.log(body);
  if (!args.includes('--no-write')) writeSection('docs/LOAD.md', 'scans', body);
}
