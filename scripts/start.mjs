/**
 * `npm start`: the production server (dist/server/main.js, plain Node, production dependencies only),
 * run in this very process (signals reach the server itself), after building what is missing:
 *
 * - on a fresh clone, or after a change of the sources (a file newer than the build), it builds first —
 *   the client with Vite into dist/client, the server with esbuild into dist/server — so the README's
 *   quick start stays `npm ci && npm start`;
 * - where the development tools are absent (`npm ci --omit=dev` on a server, after `npm run build`
 *   elsewhere: README "Production"), it runs the build it finds and builds nothing.
 *
 * DIST_DIR (default ./dist) moves the whole build; CLIENT_DIR the client alone, as for the server.
 * Development keeps tsx: `npm run dev:server` runs server/main.ts from the sources.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(process.env.DIST_DIR || join(ROOT, 'dist'));
const clientDir = resolve(process.env.CLIENT_DIR || join(DIST, 'client'));
const serverDir = join(DIST, 'server');
const built = { client: join(clientDir, 'index.html'), server: join(serverDir, 'main.js') };

/** What each part is made from: a file here newer than the build means it is out of date. */
const SOURCES = {
  client: ['client', 'game', 'protocol', 'bots', 'vite.config.ts', 'package-lock.json'],
  server: ['server', 'game', 'protocol', 'bots', 'tools/server-bundle.ts', 'package-lock.json'],
};

/** The newest modification time under these paths (0 when none exists: a production copy without sources). */
function newest(paths) {
  let t = 0;
  const walk = (p) => {
    const st = statSync(p);
    if (st.isDirectory()) for (const f of readdirSync(p)) walk(join(p, f));
    else t = Math.max(t, st.mtimeMs);
  };
  for (const p of paths) if (existsSync(join(ROOT, p))) walk(join(ROOT, p));
  return t;
}

const mtime = (f) => (existsSync(f) ? statSync(f).mtimeMs : -1);
const canBuild = existsSync(join(ROOT, 'node_modules', 'vite', 'package.json')) && existsSync(join(ROOT, 'node_modules', 'tsx', 'package.json'));
const say = (msg, extra = {}) => console.log(JSON.stringify({ level: 30, time: Date.now(), msg, ...extra }));

function run(what, args) {
  say(`building the ${what}`, { command: args.join(' ') });
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`npm start: building the ${what} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

for (const part of ['client', 'server']) {
  const missing = !existsSync(built[part]);
  if (!missing && newest(SOURCES[part]) <= mtime(built[part])) continue;
  if (!canBuild) {
    if (missing) {
      console.error(`npm start: no ${built[part]}, and no development tools here to build it: run \`npm ci && npm run build\` (README, "Production"), then copy dist/`);
      process.exit(1);
    }
    say(`the ${part} build is older than the sources and there are no development tools here to rebuild it: serving it as it is`);
    continue;
  }
  if (part === 'client') run('client', [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', clientDir, '--emptyOutDir']);
  else run('server', ['--import', 'tsx', join(ROOT, 'tools', 'server-bundle.ts'), '--out', serverDir]);
}

process.env.CLIENT_DIR = clientDir;
process.env.SKIP_CLIENT_BUILD = '1';
await import(pathToFileURL(built.server).href);
