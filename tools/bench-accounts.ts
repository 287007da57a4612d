/**
 * `npm run bench:accounts`: what accounts cost, side by side in one run, written to docs/BENCHMARKS.md.
 * - A password hash at the shipped scrypt parameters beside the same hash with one lane (p=1): the
 *   time a sign-up or sign-in spends, and what p adds.
 * - The write of a rated game's last move (the move, both records and both side ratings in one
 *   transaction) beside an ordinary move's write, on SQLite and (with DATABASE_URL) PostgreSQL.
 * Medians of the runs; ratios against the baseline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { scrypt, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { State } from 'boardgame.io';
import { Watergate } from '../game/index';
import { KDF, PASSWORD_COST } from '../server/accounts/password';
import { buildMatch } from '../server/lobby/matches';
import { openStore } from '../server/storage/index';
import type { MatchStore, MoveCommit } from '../server/storage/types';
import { machine, today, writeSection } from './machine';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => x.toFixed(2);

/** N as shipped (PASSWORD_COST's default). */
const N = 2 ** PASSWORD_COST.default;

async function hashMs(p: number): Promise<number> {
  const t0 = performance.now();
  await new Promise((ok, fail) => scrypt('correct horse battery staple', randomBytes(16), KDF.keyLength, { N, r: KDF.r, p, maxmem: 256 * N * KDF.r + 2 ** 20 }, (e) => (e ? fail(e) : ok(null))));
  return performance.now() - t0;
}

const successor = (s: State): State => ({ ...s, _stateID: s._stateID + 1 });
const commit = (prev: State, next: State, seat: string, gameover?: unknown): MoveCommit => ({
  prevStateID: prev._stateID,
  seatsVersion: 0,
  state: next,
  action: { type: 'MAKE_MOVE', payload: { type: gameover ? 'resign' : 'play', args: [], playerID: seat } },
  log: [],
  updatedAt: Date.now(),
  snapshot: false,
  gameover,
});

/** Per match: the time of its 7th ordinary move's write and of its rated last move's write. */
async function writes(store: MatchStore, games: number): Promise<{ move: number[]; end: number[] }> {
  const out = { move: [] as number[], end: [] as number[] };
  for (let g = 0; g < games; g++) {
    const tag = randomBytes(6).toString('hex');
    const ids = [`${tag}e`, `${tag}n`];
    for (const id of ids) await store.accounts.create({ id, username: id, key: id, password: null, createdAt: 1 });
    const { initialState, metadata } = buildMatch(Watergate, undefined, true);
    metadata.rated = true;
    ids.forEach((id, i) => ((metadata.players as Record<string, object>)[String(i)] = { id: i, name: id, credentials: 'c', data: { account: { id, username: id } } }));
    await store.createMatch({ matchID: tag, initialState, metadata });
    let s = initialState;
    for (let i = 0; i < 7; i++) {
      const next = successor(s);
      const t0 = performance.now();
      await store.commitMove(tag, commit(s, next, String(i % 2)));
      if (i === 6) out.move.push(performance.now() - t0);
      s = next;
    }
    const t0 = performance.now();
    await store.commitMove(tag, commit(s, successor(s), '1', { winner: '0', reason: 'resigned' }));
    out.end.push(performance.now() - t0);
  }
  return out;
}

const lines: string[] = [];
const hashes = { shipped: [] as number[], oneLane: [] as number[] };
for (let i = 0; i < 7; i++) {
  hashes.oneLane.push(await hashMs(1));
  hashes.shipped.push(await hashMs(KDF.p));
}
lines.push(
  '| what | median ms | × baseline |',
  '|---|---:|---:|',
  `| scrypt N=2^${PASSWORD_COST.default}, r=${KDF.r}, p=1 (baseline; ${(128 * N * KDF.r) / 2 ** 20} MiB) | ${ms(median(hashes.oneLane))} | 1.00 |`,
  `| scrypt as shipped, p=${KDF.p} (a sign-up or sign-in) | ${ms(median(hashes.shipped))} | ${(median(hashes.shipped) / median(hashes.oneLane)).toFixed(2)} |`,
);

const dir = mkdtempSync(join(tmpdir(), 'wg-bench-accounts-'));
const backends: [string, () => Promise<{ store: MatchStore; done: () => Promise<void> }>][] = [
  ['SQLite', async () => ({ store: await openStore({ dataDir: dir }), done: async () => rmSync(dir, { recursive: true, force: true }) })],
];
const url = process.env.DATABASE_URL;
if (url) {
  const schema = `wg_bench_${randomBytes(4).toString('hex')}`;
  backends.push([
    'PostgreSQL',
    async () => ({
      store: await openStore({ databaseUrl: url, databaseSchema: schema, dataDir: '' }),
      done: async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`DROP SCHEMA "${schema}" CASCADE`);
        await c.end();
      },
    }),
  ]);
}
for (const [name, open] of backends) {
  const { store, done } = await open();
  await writes(store, 5); // warm-up
  const w = await writes(store, 40);
  await store.close();
  await done();
  lines.push(
    `| ${name}: an ordinary move's write (baseline) | ${ms(median(w.move))} | 1.00 |`,
    `| ${name}: a rated game's last move (move + 2 records + 2 side ratings, one transaction) | ${ms(median(w.end))} | ${(median(w.end) / median(w.move)).toFixed(2)} |`,
  );
}

const body = [
  '## Accounts (`npm run bench:accounts`)',
  `Measured ${today()} on ${machine()}; medians of 7 hashes and of 40 games per backend${url ? '' : ' (PostgreSQL: set DATABASE_URL)'}, in one run, on a machine shared with other work.`,
  '',
  ...lines,
].join('\n');
writeSection(resolve(import.meta.dirname, '../docs/BENCHMARKS.md'), 'accounts', body);
console.log(body);
