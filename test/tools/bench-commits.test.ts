/**
 * `npm run bench:commits` measures what the embedded store writes for each move, one a transaction and
 * in the groups a busy turn of the event loop makes (server/storage/sqlite.ts, group commit): moves that
 * share a transaction share the pages they change, so a group writes fewer bytes a move.
 */
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';

it('reports each group size, and a group of moves writes fewer bytes a move than one at a time', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'tools/bench-commits.ts', '--matches', '20', '--moves', '64', '--repeats', '1', '--json'], { encoding: 'utf8' });
  const r = JSON.parse(out.trim().split('\n').pop()!) as { rows: { group: number; bytes: number; cpuUs: number; movesPerSecond: number }[] };
  expect(r.rows.map((x) => x.group)).toEqual([1, 4, 16]);
  for (const x of r.rows) expect(x.bytes).toBeGreaterThan(0);
  const [one, , sixteen] = r.rows;
  expect(sixteen.bytes).toBeLessThan(one.bytes / 2);
});
