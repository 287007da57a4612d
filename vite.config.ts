/**
 * The browser client: one page (client/index.html) built into dist/client, which the server serves.
 * `npm run dev` serves the same page with Vite; local mode (#/local) needs no server.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

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
 * `npm run dev` proxies the lobby and socket to `npm start`'s server, which allows only its own origin
 * (never judged from Host): a request from Vite's own page is presented as the server's; any other
 * page's Origin goes through unchanged and is refused there.
 */
const SERVER = 'http://127.0.0.1:8000';
const DEV_PAGES = ['http://127.0.0.1:5173', 'http://localhost:5173'];
const asServer = (proxy: { on(event: string, fn: (req: { getHeader(n: string): unknown; setHeader(n: string, v: string): void }) => void): void }) => {
  const rewrite = (req: { getHeader(n: string): unknown; setHeader(n: string, v: string): void }) => {
    if (DEV_PAGES.includes(String(req.getHeader('origin')))) req.setHeader('origin', SERVER);
  };
  proxy.on('proxyReq', rewrite);
  proxy.on('proxyReqWs', rewrite);
};

export default defineConfig(({ command }) => ({
  root,
  base: './',
  plugins: [react()],
  resolve: {
    alias: [
      // The browser applies JSON Patches with our small module (protocol/json-patch.ts), not rfc6902's CommonJS build.
      { find: /^rfc6902$/, replacement: here('./protocol/json-patch.ts') },
      ...(command === 'build' ? preact : []),
    ],
  },
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
      // Accounts, profiles, the leaderboard and quick pairing (server/accounts/).
      ...Object.fromEntries(['/auth', '/me', '/players', '/leaderboard', '/pair'].map((p) => [p, { target: SERVER, configure: asServer as never }])),
      '/socket.io': { target: SERVER, ws: true, configure: asServer as never },
    },
  },
  preview: { host: '127.0.0.1' },
}));
