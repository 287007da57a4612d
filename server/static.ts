/**
 * The built client (dist/client, made by `vite build`) and how every answer travels: compressed when the
 * browser takes it, cached as long as its name allows. One page (index.html, `/`) routes itself with
 * hash routes (#/match/ID, …), so a path that names no built file is a plain 404, never the page.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { spawnSync } from 'node:child_process';
import { constants as zlib } from 'node:zlib';
import type Koa from 'koa';
import compress from 'koa-compress';
import serve from 'koa-static';
import type { Logger } from './log';

const API = /^\/(games|socket\.io|healthz)(\/|$)/;

/** Vite's output names: `assets/<name>-<8-character hash>.<ext>` (vite.config.ts keeps the default). */
const HASHED = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

/** A changed hash is a new URL, so a hashed file never needs asking again. */
const CACHE_HASHED = 'public, max-age=31536000, immutable';
/** The page names the current hashes: a browser asks again each time (a deployment shows at once). */
const CACHE_PAGE = 'no-cache';
/** favicon.svg, robots.txt: unhashed but rarely changed; an hour of staleness after a deployment at most. */
const CACHE_OTHER = 'public, max-age=3600';

/**
 * Asked again on every use, like the page: the service worker (a new version must be found at the next
 * load; client/sw.ts) and the manifest (an installed app's name and icons follow a deployment).
 */
const ALWAYS_FRESH = /^\/(sw\.js|manifest\.webmanifest)$/;

/** The Cache-Control of a built file, by its URL path (`/index.html`, `/assets/index-BaYNlRh8.js`). */
function cacheControl(path: string): string {
  if (path.endsWith('.html') || ALWAYS_FRESH.test(path)) return CACHE_PAGE;
  return HASHED.test(path) ? CACHE_HASHED : CACHE_OTHER;
}

/**
 * Brotli or gzip for every compressible answer of 1 KiB or more that is not compressed already: the
 * Lobby API's JSON, /metrics, and the built files that the build did not precompress (the build writes
 * .br and .gz next to its text files, served as they are by `clientMiddleware`). Brotli at quality 4,
 * koa-compress's own default: quality 11 (the build's) costs over a hundred times the CPU for about
 * 13 % less (docs/BENCHMARKS.md, "Static files"). No zstd: Node 20 has none, and one server answers alike on
 * every supported Node. socket.io's requests never reach Koa (engine.io answers them first).
 */
export function compression(): Koa.Middleware {
  return compress({ threshold: 1024, br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }, gzip: {}, deflate: false, zstd: false }) as Koa.Middleware;
}

/** The built files, the precompressed .br/.gz variant when the browser accepts it; never for API paths. */
export function clientMiddleware(dir: string): Koa.Middleware {
  const root = resolve(dir);
  // The rule follows the name the page asked for (x.js), not the variant sent (x.js.br).
  const urlPath = (file: string) => '/' + relative(root, file).split(sep).join('/').replace(/\.(br|gz)$/, '');
  const files = serve(root, { index: 'index.html', brotli: true, gzip: true, setHeaders: (res, file) => res.setHeader('Cache-Control', cacheControl(urlPath(file))) });
  return (ctx, next) => (API.test(ctx.path) ? next() : files(ctx, next));
}

/**
 * A server started from the sources (`npm run dev:server`) on a fresh clone: build the client once if
 * dist/client/index.html is missing. (`npm start` builds before the server starts: scripts/start.mjs.)
 */
export function ensureClientBuilt(dir: string, log: Logger): void {
  if (existsSync(join(dir, 'index.html'))) return;
  log.info({ dir }, 'client not built yet: running vite build');
  const r = spawnSync('npx', ['vite', 'build'], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`vite build did not produce ${join(dir, 'index.html')}`);
}
