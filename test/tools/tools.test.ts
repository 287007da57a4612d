import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { playRandomGame } from '../../tools/random-game';
import { writeSection } from '../../tools/machine';

describe('simulation tools', () => {
  it('K14: no round cap in the rules: a game that reaches the simulation\'s limit is reported as aborted, never as a result', async () => {
    const cut = await playRandomGame('k14', { roundLimit: 1 });
    expect(cut).toMatchObject({ aborted: true, winner: null, reason: null });
    expect(cut.rounds).toBe(2);
    const full = await playRandomGame('k14');
    expect(full.aborted).toBe(false);
    expect(['0', '1']).toContain(full.winner);
    expect(['connected', 'momentum', 'supply']).toContain(full.reason);
    // Same seed, same game: the simulation is reproducible.
    expect(await playRandomGame('k14')).toEqual(full);
  });

  it('benchmark results replace their own section of the results file and keep the others', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wg-')), 'B.md');
    writeSection(file, 'engine', 'first');
    writeSection(file, 'client', 'bundle');
    writeSection(file, 'engine', 'second');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('second');
    expect(text).not.toContain('first');
    expect(text).toContain('bundle');
    expect(text.indexOf('second')).toBeLessThan(text.indexOf('bundle'));
  });
});
