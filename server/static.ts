/**
 * The built client (dist/client, made by `vite build`): files as they are, and index.html for any other
 * GET that a browser navigates to (the client routes itself), never for API or socket paths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import type Koa from 'koa';
import serve from 'koa-static';
import type { Logger } from './log';

const API = /^\/(games|socket\.io|healthz)(\/|$)/;

export function clientMiddleware(dir: string): Koa.Middleware[] {
  const files = serve(dir, { index: 'index.html', maxage: 0, gzip: false, brotli: false });
  const fallback: Koa.Middleware = async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || ctx.body != null || ctx.method !== 'GET' || API.test(ctx.path) || !ctx.accepts('html')) return;
    const index = join(dir, 'index.html');
    if (!existsSync(index)) return;
    ctx.type = 'html';
    ctx.body = readFileSync(index);
  };
  const onlyPages: Koa.Middleware = (ctx, next) => (API.test(ctx.path) ? next() : files(ctx, next));
  return [fallback, onlyPages];
}

/** `npm start` on a fresh clone: build the client once if dist/client/index.html is missing. */
export function ensureClientBuilt(dir: string, log: Logger): void {
  if (existsSync(join(dir, 'index.html'))) return;
  log.info({ dir }, 'client not built yet: running vite build');
  const r = spawnSync('npx', ['vite', 'build'], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`vite build did not produce ${join(dir, 'index.html')}`);
}
