/**
 * `npm run build:lib`: the game interface (game/api.ts) as a library in dist/lib — one ES module with no
 * dependencies (esbuild bundles the rules and the Alea generator) and its type declarations (tsc). The
 * declarations' relative imports get their `.js` extension, which TypeScript's NodeNext resolution
 * requires of a consumer's dependencies. docs/BOT-API.md "Using it from another project" says how to use it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
/** Where to build: dist/lib, or the folder given as the first argument (the tests build into a temporary one). */
const OUT = resolve(process.argv[2] ?? join(ROOT, 'dist/lib'));
rmSync(OUT, { recursive: true, force: true });
await build({ entryPoints: [join(ROOT, 'game/api.ts')], bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', outfile: join(OUT, 'game.js'), logLevel: 'warning' });
execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.lib.json'), '--outDir', join(OUT, 'types')], { stdio: 'inherit' });
const types = join(OUT, 'types');
for (const f of readdirSync(types).filter((f) => f.endsWith('.d.ts'))) {
  const text = readFileSync(join(types, f), 'utf8');
  writeFileSync(join(types, f), text.replace(/(from\s+'|import\(')(\.\.?\/[^']+?)(?<!\.js)'/g, "$1$2.js'"));
}
console.log(`${OUT}: game.js and ${readdirSync(types).length} declaration files`);
