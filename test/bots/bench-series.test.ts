/**
 * The expert-vs-hard measurement as an operator runs it: every bot decision of a benchmark game carries
 * the decider's win-chance estimate (what the series stores), and `npm run bench:bots -- --only
 * expert-vs-hard --games 0` rebuilds the win table and the calibration table from the stored games
 * alone, leaving the rest of docs/BOTS.md as it was.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { playMatch } from '../../bots/arena';
import { watergateBot } from '../../bots/bgio';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the expert-vs-hard series', () => {
  it('gets a win-chance estimate with every searched decision of a benchmark game', async () => {
    const bot = watergateBot({ level: 'easy', deterministic: true, seed: 3 });
    const seen: { iterations: number; winChance?: number }[] = [];
    const r = await playMatch({ seats: { '0': bot, '1': bot }, seed: 'est', onDecision: (_s, _t, md) => seen.push(md as (typeof seen)[number]) });
    expect(['0', '1']).toContain(r.winner);
    const searched = seen.filter((m) => m.iterations > 0);
    expect(searched.length).toBeGreaterThan(20);
    for (const m of searched) {
      expect(m.winChance).toBeGreaterThanOrEqual(0);
      expect(m.winChance).toBeLessThanOrEqual(1);
    }
    // Forced moves carry no estimate: nothing was searched.
    for (const m of seen.filter((x) => x.iterations === 0)) expect(m.winChance).toBeUndefined();
  }, 120_000);

  it('rebuilds its tables from the stored games with --games 0', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-bench-'));
    fs.mkdirSync(path.join(dir, 'docs/bots-data'), { recursive: true });
    const before = '# Bots\n\nText kept.\n\n<!-- bots-expert-vs-hard:start -->\nold\n<!-- bots-expert-vs-hard:end -->\n\n<!-- bots-calibration-expert-vs-hard:start -->\nold\n<!-- bots-calibration-expert-vs-hard:end -->\n\nMore text kept.\n';
    fs.writeFileSync(path.join(dir, 'docs/BOTS.md'), before);
    const result = (winner: string) => ({ winner, reason: 'connected', rounds: 7, moves: 100, aborted: false });
    const think = (est: number[]) => ({ times: est.map(() => 100), its: est.map(() => 16000), est });
    const rows = [
      // Expert (ours) won as the Editor: its 0.72 and 0.81 came true, hard's 0.31 did not.
      { game: 0, seat: '0', result: result('0'), ours: think([0.72, 0.81]), theirs: { ...think([0.31]), its: [8000] }, run: 'r' },
      { game: 0, seat: '1', result: result('1'), ours: think([0.75]), theirs: think([0.22, 0.35]), run: 'r' },
      { game: 1, seat: '0', result: result('1'), ours: think([0.58]), theirs: think([0.44]), run: 'r' },
      { game: 1, seat: '1', result: result('1'), ours: think([0.91]), theirs: think([0.05]), run: 'r' },
      // Stored before estimates were: counted in the win table, absent from the calibration.
      { game: 2, seat: '0', result: result('0'), ours: { times: [1], its: [1] }, theirs: { times: [1], its: [1] }, run: 'r' },
    ];
    fs.writeFileSync(path.join(dir, 'docs/bots-data/expert-vs-hard.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    execFileSync(process.execPath, ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, path.join(ROOT, 'tools/bench-bots.ts'), '--only', 'expert-vs-hard', '--games', '0'], { cwd: dir, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
    const text = fs.readFileSync(path.join(dir, 'docs/BOTS.md'), 'utf8');
    expect(text.startsWith('# Bots\n\nText kept.\n')).toBe(true);
    expect(text.endsWith('\nMore text kept.\n')).toBe(true);
    expect(text).not.toContain('old');
    expect(text).toContain('| Editor vs hard | 3 | 2 | 66.7% |');
    expect(text).toContain('| Nixon vs hard | 2 | 2 | 100.0% |');
    expect(text).toContain('| both seats | 5 | 4 | **80.0%** |');
    // Deal by deal: seed 0 expert won in both seats, seed 1 Nixon won both, seed 2 was played in one seat only.
    expect(text).toContain('By deal (2 seeds played in both seats): the Editor won both games of 0, Nixon both of 1; expert won both of 1, hard both of 0 (sign test on those 1: p = 1.00).');
    // Expert's calibration: 0.58 lost; 0.72, 0.75 won; 0.81 won; 0.91 won.
    const calibration = text.slice(text.indexOf('bots-calibration-expert-vs-hard:start'));
    const expert = calibration.slice(calibration.indexOf('**expert:**'), calibration.indexOf('**hard:**'));
    const hard = calibration.slice(calibration.indexOf('**hard:**'));
    expect(expert).toContain('| 50–60% | 1 | 58.0% | 0.0% |');
    expect(expert).toContain('| 70–80% | 2 | 73.5% | 100.0% |');
    expect(expert).toContain('| 90–100% | 1 | 91.0% | 100.0% |');
    expect(expert).toContain('5 decisions;');
    // Hard's side is the other seat: as Nixon in game 0/Editor, as the Editor in 0/Nixon, and so on.
    expect(hard).toContain('| 0–10% | 1 | 5.0% | 0.0% |');
    expect(hard).toContain('| 20–30% | 1 | 22.0% | 0.0% |');
    expect(hard).toContain('| 30–40% | 2 | 33.0% | 0.0% |');
    expect(hard).toContain('| 40–50% | 1 | 44.0% | 100.0% |');
    expect(hard).toContain('5 decisions;');
  }, 120_000);

  it('with --missing plays only what is not stored: a range stored whole plays nothing and adds nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-bench-'));
    fs.mkdirSync(path.join(dir, 'docs/bots-data'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'docs/BOTS.md'), '# Bots\n');
    const row = (game: number, seat: string) => ({ game, seat, result: { winner: seat, reason: 'connected', rounds: 5, moves: 80, aborted: false }, ours: { times: [1], its: [1] }, theirs: { times: [1], its: [1] }, run: 'r' });
    const stored = [0, 1, 2].flatMap((g) => [row(g, '0'), row(g, '1')]).map((r) => JSON.stringify(r)).join('\n') + '\n';
    const file = path.join(dir, 'docs/bots-data/expert-vs-hard.jsonl');
    fs.writeFileSync(file, stored);
    // Without --missing these would be six games of expert against hard, minutes each.
    execFileSync(process.execPath, ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, path.join(ROOT, 'tools/bench-bots.ts'), '--only', 'expert-vs-hard', '--first', '0', '--games', '3', '--missing'], { cwd: dir, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' }, timeout: 60_000 });
    expect(fs.readFileSync(file, 'utf8')).toBe(stored);
    expect(fs.readFileSync(path.join(dir, 'docs/BOTS.md'), 'utf8')).toContain('| both seats | 6 | 6 | **100.0%** |');
  }, 120_000);
});
