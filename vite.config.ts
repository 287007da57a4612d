/**
 * The browser client: one page (client/index.html) built into dist/client, which the server serves.
 * `npm run dev` serves the same page with Vite; local mode (#/local) needs no server.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('./client', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  resolve: {
    // The browser applies JSON Patches with our small module (protocol/json-patch.ts), not rfc6902's CommonJS build.
    alias: { rfc6902: fileURLToPath(new URL('./protocol/json-patch.ts', import.meta.url)) },
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
      '/games': 'http://127.0.0.1:8000',
      '/socket.io': { target: 'http://127.0.0.1:8000', ws: true },
    },
  },
  preview: { host: '127.0.0.1' },
});
