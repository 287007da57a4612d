/**
 * The server as one ES module made by esbuild from server/main.ts (our sources and boardgame.io, whose
 * subpath imports plain Node cannot resolve) and the bot worker beside it (bots/pool.ts looks for
 * `worker.js` next to the code that runs it); every other package loads from node_modules, so the
 * bundle needs the production dependencies only (test/server/production-start.test.ts checks it).
 *
 * Two uses of the same build:
 * - `npm run build:server` (and `npm start`, when the build is missing or older than the sources:
 *   scripts/start.mjs) writes dist/server/main.js and worker.js: `npx tsx tools/server-bundle.ts --out DIR`.
 * - Tests and tools start their server processes from `serverBundle()`: built once per version of the
 *   sources, into node_modules/.cache (found by Node's resolution of the packages left outside), under a
 *   name made from their hash, so test files in parallel share one build and a build that lost the race
 *   to another process is dropped. A process so started is listening after about 0.7 s of CPU instead of
 *   2.7 s under tsx's loader, and a test run starts some eighty of them (docs/BENCHMARKS.md, "Test
 *   suite"). The server's own tests import the sources directly.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const SOURCES = ['server', 'game', 'protocol', 'bots'];
const FILES = ['package-lock.json', 'tools/server-bundle.ts'];

function hashOf(root: string): string {
  const h = createHash('sha256');
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const f of readdirSync(p).sort()) walk(join(p, f));
    else h.update(p).update(readFileSync(p));
  };
  for (const d of SOURCES) walk(join(root, d));
  for (const f of FILES) walk(join(root, f));
  return h.digest('hex').slice(0, 16);
}

/** Every package but boardgame.io stays a package: loaded from node_modules at run time. */
const packagesOutside: Plugin = {
  name: 'packages-outside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (a) => (a.path === 'boardgame.io' || a.path.startsWith('boardgame.io/') || a.path.startsWith('node:') ? undefined : { path: a.path, external: true }));
  },
};

const built = new Map<string, Promise<string>>();

/** The bundled server's entry file for the checkout at `root`, built if this version has not been. */
export function serverBundle(root = resolve(import.meta.dirname, '..')): Promise<string> {
  const hash = hashOf(root);
  let made = built.get(hash);
  if (!made) built.set(hash, (made = make(root, hash)));
  return made;
}

/** Builds the server's bundle (main.js, worker.js) into `outdir`. */
export async function buildServer(root: string, outdir: string): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'server/main.ts', worker: 'bots/worker.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [packagesOutside],
    // boardgame.io is CommonJS: its require() of the packages left outside needs one in an ES module.
    banner: { js: "import { createRequire as __wgCreateRequire } from 'node:module'; const require = __wgCreateRequire(import.meta.url);" },
    logLevel: 'error',
  });
}

async function make(root: string, hash: string): Promise<string> {
  const out = join(root, 'node_modules', '.cache', 'watergate-server', hash);
  const main = join(out, 'main.js');
  if (!existsSync(main)) {
    const tmp = `${out}.${process.pid}.${Date.now()}`;
    await buildServer(root, tmp);
    mkdirSync(join(out, '..'), { recursive: true });
    try {
      renameSync(tmp, out);
    } catch {
      // Another process built the same version first: use its build.
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return main;
}

// `npm run build:server`: the bundle into dist/server (or --out DIR).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = resolve(import.meta.dirname, '..');
  const i = process.argv.indexOf('--out');
  const out = resolve(i > 0 && process.argv[i + 1] ? process.argv[i + 1] : join(root, 'dist', 'server'));
  // Written beside, then swapped in: a server starting meanwhile never finds half a bundle.
  const tmp = `${out}.${process.pid}.tmp`;
  await buildServer(root, tmp);
  rmSync(out, { recursive: true, force: true });
  renameSync(tmp, out);
  console.log(`server bundle: ${out}/main.js, worker.js`);
}
