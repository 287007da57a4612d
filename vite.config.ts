/**
 * The browser client: one page (client/index.html) built into dist/client, which the server serves.
 * `npm run dev` serves the same page with Vite; local mode (#/local) needs no server.
 */
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const root = fileURLToPath(new URL('./client', import.meta.url));

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The built client renders with Preact through preact/compat, its drop-in for React's API (same
 * components, hooks, lazy/Suspense, createRoot): React DOM alone is ~60 KB gzip, most of the play page's
 * 150 KB budget (docs/BENCHMARKS.md). `npm run dev` keeps React for Fast Refresh, and the component tests
 * (vitest.config.ts) render with React; the e2e tests run the built client, i.e. Preact.
 */
const preact = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

/**
 * `npm run dev` proxies the lobby, the API and the socket to `npm start`'s server (port 8000, or
 * WATERGATE_SERVER, e.g. a test's server on a free port), which allows only its own origin (never judged
 * from Host): a request from Vite's own page — a loopback name at the port Vite itself listens on, read
 * from the connection, not from a header — is presented as the server's; any other page's Origin goes
 * through unchanged and is refused there.
 */
const SERVER = process.env.WATERGATE_SERVER || 'http://127.0.0.1:8000';
type ProxyReq = { getHeader(n: string): unknown; setHeader(n: string, v: string): void };
const asServer = (proxy: { on(event: string, fn: (proxyReq: ProxyReq, req: { socket: { localPort?: number } }) => void): void }) => {
  const rewrite = (proxyReq: ProxyReq, req: { socket: { localPort?: number } }) => {
    const port = req.socket.localPort;
    const devPages = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
    if (devPages.includes(String(proxyReq.getHeader('origin')))) proxyReq.setHeader('origin', new URL(SERVER).origin);
  };
  proxy.on('proxyReq', rewrite);
  proxy.on('proxyReqWs', rewrite);
};

/**
 * The first paint's text font asked for with the page, not only once the CSS has been read: a preload
 * link to the hashed file Vite emitted for @fontsource's regular Latin subset (found by its source name,
 * so a new hash or version needs no edit). The build fails without it rather than dropping it silently.
 */
const FIRST_PAINT_FONT = /@fontsource-variable\/noto-serif\/files\/noto-serif-latin-wght-normal\.woff2$/;
const preloadFont = (): Plugin => ({
  name: 'watergate:preload-font',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(_html, { bundle }) {
      const font = Object.values(bundle ?? {}).find((f) => f.type === 'asset' && f.originalFileNames.some((n) => FIRST_PAINT_FONT.test(n)));
      if (!font) throw new Error(`no emitted asset matches ${FIRST_PAINT_FONT}: the font preload in index.html needs updating`);
      return [{ tag: 'link', attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `./${font.fileName}`, crossorigin: true }, injectTo: 'head' }];
    },
  },
});

/**
 * Brotli (quality 11) and gzip (level 9) copies of each text file of 1 KiB or more, written next to it
 * (x.js.br, x.js.gz) once the build is written: the server sends them as they are (server/static.ts), so
 * the smallest encodings cost no CPU per request. A copy no smaller than its file is not written.
 */
const TEXT_FILE = /\.(html|js|mjs|css|svg|json|txt|webmanifest|xml)$/;
const precompress = (): Plugin => {
  let outDir = '';
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'watergate:precompress',
    apply: 'build',
    configResolved(c) {
      outDir = resolve(c.root, c.build.outDir);
    },
    async closeBundle(error?: Error) {
      if (error) return;
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).map((f) => join(outDir, f));
      const texts = files.filter((f) => TEXT_FILE.test(f) && statSync(f).isFile() && statSync(f).size >= 1024);
      await Promise.all(
        texts.map(async (f) => {
          const raw = readFileSync(f);
          const params = { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length };
          for (const [ext, packed] of [['.br', await br(raw, { params })], ['.gz', await gz(raw, { level: 9 })]] as const) {
            if (packed.length < raw.length) writeFileSync(f + ext, packed);
          }
        }),
      );
    },
  };
};

/**
 * Installable and playable offline: the web app manifest (linked from the page by the plugin) and the
 * service worker made from client/sw.ts (injectManifest: our worker, Workbox's precache list injected).
 * Precached: everything a page may load (scripts, both bot workers, styles, icons) and the Latin text
 * fonts, ~1 MB gzip (docs/BENCHMARKS.md, "Offline"); the other fonts are kept as pages use them.
 * `npm run dev` has no worker (devOptions off): Vite's modules are not files to precache.
 */
const pwa = () =>
  VitePWA({
    strategies: 'injectManifest',
    srcDir: '.',
    filename: 'sw.ts',
    // client/pwa.ts registers it after the page has loaded, and takes a new version only at a page's start.
    injectRegister: false,
    registerType: 'prompt',
    devOptions: { enabled: false },
    // The plugin adds the manifest and its icons to the precache itself; the globs below take the rest.
    includeManifestIcons: true,
    manifest: {
      id: './',
      name: 'Watergate',
      short_name: 'Watergate',
      description: 'Watergate (Matthias Cramer, 2019): a two-player card game, online edition',
      lang: 'en',
      start_url: './',
      scope: './',
      display: 'standalone',
      theme_color: '#1c2633',
      background_color: '#f6f1e6',
      icons: [
        { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: 'icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    injectManifest: {
      rollupFormat: 'iife',
      globPatterns: ['**/*.{html,js,css,svg}', 'assets/noto-serif-latin-wght-*.woff2'],
    },
  });

export default defineConfig(({ command }) => ({
  root,
  base: './',
  plugins: [react(), preloadFont(), pwa(), precompress()],
  resolve: {
    alias: [
      // The browser applies JSON Patches with our small module (protocol/json-patch.ts), not rfc6902's CommonJS build.
      { find: /^rfc6902$/, replacement: here('./protocol/json-patch.ts') },
      ...(command === 'build' ? preact : []),
    ],
  },
  // client/pwa.ts registers the service worker only in a build (sw.js exists only there).
  define: { 'import.meta.env.WATERGATE_SW': JSON.stringify(command === 'build') },
  publicDir: 'public',
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Every browser we support (ES2022) has modulepreload or ignores it harmlessly.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
  // `npm run dev`: #/local needs nothing else; the lobby and online matches use `npm start`'s server.
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/games': { target: SERVER, configure: asServer as never },
      // Accounts, profiles, the leaderboard and quick pairing (server/accounts/); /api: challenges, follows,
      // blocks, events, seasons, push and the event stream.
      ...Object.fromEntries(['/auth', '/me', '/players', '/leaderboard', '/pair', '/api'].map((p) => [p, { target: SERVER, configure: asServer as never }])),
      '/socket.io': { target: SERVER, ws: true, configure: asServer as never },
    },
  },
  preview: { host: '127.0.0.1' },
}));
