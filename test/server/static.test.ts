/**
 * The built client as a browser and a cache receive it: brotli or gzip as asked, the
 * same bytes once decoded, a year's immutable caching for hashed files and none for the page, a real 404
 * for files that do not exist, robots.txt, and the first paint's font preloaded. Over real HTTP (node:http:
 * fetch would decode the body and ask for its own encodings) against `vite build`'s real output.
 */
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtClient } from '../e2e/helpers/build';
import { api, createAndJoin, startTestServer, type TestServer } from './helpers';

const YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';

function get(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url + path, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const decode = (r: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
  r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;

describe('the built client on the wire', () => {
  let dir: string;
  let t: TestServer;
  let html: string;
  beforeAll(async () => {
    dir = await builtClient();
    html = readFileSync(join(dir, 'index.html'), 'utf8');
    t = await startTestServer('embedded', { clientDir: dir });
  }, 300_000);
  afterAll(async () => {
    await t?.stop();
  });

  const mainScript = () => /<script type="module" crossorigin src="\.(\/assets\/index-[^"]+\.js)"/.exec(html)![1];

  it('sends the main script as brotli, gzip or as it is, whichever the browser accepts, the same bytes once decoded', async () => {
    const path = mainScript();
    const file = readFileSync(join(dir, path));
    for (const [accept, encoding] of [['br', 'br'], ['gzip, deflate, br, zstd', 'br'], ['gzip', 'gzip'], ['gzip, br;q=0', 'gzip'], ['', undefined], ['identity', undefined]] as const) {
      const r = await get(t.url, path, accept ? { 'accept-encoding': accept } : {});
      expect(r.status, accept).toBe(200);
      expect(r.headers['content-encoding'], accept).toBe(encoding);
      expect(r.headers['content-type'], accept).toMatch(/^(application|text)\/javascript/);
      expect(r.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(decode(r).equals(file), accept).toBe(true);
      if (encoding) expect(r.body.length, accept).toBeLessThan(file.length / 2);
    }
  });

  it('caches every hashed file (scripts, styles, fonts) for a year as immutable, and the page not at all', async () => {
    const assets = readdirSync(join(dir, 'assets')).filter((f) => !/\.(br|gz)$/.test(f));
    expect(assets.some((f) => f.endsWith('.woff2'))).toBe(true);
    for (const f of assets) {
      const r = await get(t.url, `/assets/${f}`, { 'accept-encoding': 'br, gzip' });
      expect(r.status, f).toBe(200);
      expect(r.headers['cache-control'], f).toBe(YEAR_IMMUTABLE);
    }
    for (const page of ['/', '/index.html']) {
      const r = await get(t.url, page, { 'accept-encoding': 'gzip, deflate, br' });
      expect(r.status, page).toBe(200);
      expect(r.headers['content-type'], page).toMatch(/^text\/html/);
      expect(r.headers['cache-control'], page).toBe('no-cache');
      expect(decode(r).toString('utf8'), page).toBe(html);
    }
  });

  it('preloads the regular Latin text font in the page, at a file the server has', async () => {
    const home = decode(await get(t.url, '/', { 'accept-encoding': 'br' })).toString('utf8');
    const link = /<link rel="preload" as="font" type="font\/woff2" href="\.(\/assets\/noto-serif-latin-wght-normal-[A-Za-z0-9_-]{8}\.woff2)" crossorigin>/.exec(home);
    expect(link, 'a font preload link').not.toBeNull();
    const font = await get(t.url, link![1], { 'accept-encoding': 'gzip, deflate, br' });
    expect(font.status).toBe(200);
    expect(font.headers['content-type']).toBe('font/woff2');
    // Already compressed: sent as it is.
    expect(font.headers['content-encoding']).toBeUndefined();
    expect(font.body.equals(readFileSync(join(dir, link![1])))).toBe(true);
  });

  it('has the service worker and the manifest asked again at every load (a new version is found), the icons cached an hour', async () => {
    for (const [path, type] of [['/sw.js', /^(application|text)\/javascript/], ['/manifest.webmanifest', /^application\/manifest\+json/]] as const) {
      const r = await get(t.url, path, { 'accept-encoding': 'gzip, br' });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toMatch(type);
      expect(r.headers['cache-control'], path).toBe('no-cache');
    }
    const icon = await get(t.url, '/icons/icon-192.png');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers robots.txt, and a plain 404 (never the page) for a file that was not built', async () => {
    const robots = await get(t.url, '/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body.toString('utf8')).toMatch(/^User-agent: \*$/m);
    expect(robots.body.toString('utf8')).toMatch(/^Disallow: \/games\/$/m);
    for (const path of ['/x.js', '/assets/missing-AAAAAAAA.js', '/nothing.webmanifest', '/favicon.ico', '/match/abc123']) {
      const r = await get(t.url, path, { accept: 'text/html,*/*', 'accept-encoding': 'gzip, br' });
      expect(r.status, path).toBe(404);
      expect(r.headers['content-type'], path).toMatch(/^text\/plain/);
      expect(r.body.length, path).toBeLessThan(64);
      expect(r.headers['cache-control'], path).toBeUndefined();
    }
  });

  it('compresses the Lobby API\'s larger JSON and /metrics on the fly; small answers and sockets as before', async () => {
    for (let i = 0; i < 12; i++) await createAndJoin(t.url);
    const list = await get(t.url, '/games/watergate', { 'accept-encoding': 'br' });
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode(list).toString('utf8')).matches.length).toBeGreaterThanOrEqual(12);
    const metrics = await get(t.url, '/metrics', { 'accept-encoding': 'gzip' });
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-encoding']).toBe('gzip');
    expect(decode(metrics).toString('utf8')).toContain('wg_active_matches');
    const health = await get(t.url, '/healthz', { 'accept-encoding': 'br' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString('utf8'))).toMatchObject({ status: 'ok' });
    expect((await api(t.url, '/games/watergate/nosuchmatch')).status).toBe(404);
    // engine.io answers its own requests before Koa: a polling handshake is untouched.
    const hello = await get(t.url, '/socket.io/?EIO=4&transport=polling', { 'accept-encoding': 'br' });
    expect(hello.status).toBe(200);
    expect(hello.headers['content-encoding']).not.toBe('br');
    expect(hello.body.toString('utf8')).toMatch(/^0\{"sid":/);
  });
});
