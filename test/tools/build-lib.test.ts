/**
 * The package's game interface as another project gets it (`npm run build:lib`, package.json `exports`):
 * one ES module that plain Node runs without any dependency installed, and declarations that a TypeScript
 * project in NodeNext resolution accepts. Built into a temporary folder, used from a fresh process.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = mkdtempSync(join(tmpdir(), 'watergate-lib-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('npm run build:lib', () => {
  it('builds a module without dependencies that plain Node plays a whole game with, and declarations for every export', { timeout: 60_000 }, () => {
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools/build-lib.ts'), OUT], { cwd: ROOT, stdio: 'pipe' });
    const js = readFileSync(join(OUT, 'game.js'), 'utf8');
    // Nothing left to resolve: no import of a package (boardgame.io, seedrandom) in the bundle.
    expect(js.match(/^\s*import\s.*from\s+['"][^'"]+['"]/gm) ?? []).toEqual([]);
    const play = join(OUT, 'play.mjs');
    writeFileSync(
      play,
      `import { newState, legalActions, apply, currentPlayer, returns, view, informationState, TENSOR_SIZE } from './game.js';
      let s = newState('lib'); let n = 0;
      for (let p = currentPlayer(s); p !== null; p = currentPlayer(s), n++) {
        if (informationState(view(s, p)).tensor.length !== TENSOR_SIZE) throw new Error('tensor');
        s = apply(s, legalActions(s, p)[0]);
      }
      console.log(JSON.stringify({ n, returns: returns(s) }));`,
    );
    const out = JSON.parse(execFileSync(process.execPath, [play], { cwd: OUT, encoding: 'utf8' }));
    expect(out.n).toBeGreaterThan(20);
    expect(out.returns[0] + out.returns[1]).toBe(1);

    const types = readdirSync(join(OUT, 'types'));
    expect(types).toContain('api.d.ts');
    const api = readFileSync(join(OUT, 'types/api.d.ts'), 'utf8');
    for (const name of ['newState', 'legalActions', 'apply', 'view', 'informationState', 'resample', 'returns', 'actionOf', 'idOf']) expect(api).toMatch(new RegExp(`\\b${name}\\b`));
    // NodeNext needs the extension on every relative import of a declaration.
    for (const f of types) expect(readFileSync(join(OUT, 'types', f), 'utf8').match(/from '\.\.?\/[^']*(?<!\.js)'/g) ?? []).toEqual([]);
  });

  it('package.json exports the interface: the built module with its declarations, and the source', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./game']).toEqual({ types: './dist/lib/types/api.d.ts', default: './dist/lib/game.js' });
    expect(pkg.exports['./game/source']).toBe('./game/api.ts');
    expect(pkg.types).toBe('./dist/lib/types/api.d.ts');
    expect(pkg.private).toBe(true);
  });
});
