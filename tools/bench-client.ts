/**
 * `npm run bench:client`: the production size of the play page's JavaScript, gzip-compressed as a server
 * would send it. Builds the client into a temp folder, follows the entry's static imports (what the page
 * loads before it can show a match; the play page is part of the entry), plus the one language chunk the
 * player's language loads (each of English, Português, 中文 is its own chunk). Budget: 150 KB. Writes its section of docs/BENCHMARKS.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { machine, today, writeSection } from './machine';

const BUDGET_KB = 150;
const ROOT = resolve(import.meta.dirname, '..');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const out = mkdtempSync(join(tmpdir(), 'watergate-bench-client-'));
try {
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir: out, emptyOutDir: true, manifest: true } });
  const manifest = JSON.parse(readFileSync(join(out, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const gz = (file: string) => gzipSync(readFileSync(join(out, file))).length;
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const loaded = new Set<string>();
  const walk = (key: string) => {
    if (loaded.has(key)) return;
    loaded.add(key);
    for (const k of manifest[key].imports ?? []) walk(k);
  };
  walk(entryKey);
  const rows = [...loaded].map((k) => ({ file: manifest[k].file, bytes: gz(manifest[k].file) }));
  const base = rows.reduce((n, r) => n + r.bytes, 0);
  const langs = ['en', 'pt-BR', 'zh-CN'].map((code) => {
    const chunk = Object.values(manifest).find((c) => c.src?.endsWith(`i18n/locales/${code}.ts`));
    if (!chunk) throw new Error(`no chunk for language ${code}`);
    return { code, bytes: gz(chunk.file) };
  });
  const debug = Object.values(manifest).find((c) => /local\/LocalPage\.tsx$/.test(c.src ?? ''));
  const kb = (b: number) => (b / 1000).toFixed(1);
  const worst = base + Math.max(...langs.map((l) => l.bytes));
  const ok = worst <= BUDGET_KB * 1000;
  const body = [
    '## Client bundle (`npm run bench:client`)',
    `Measured ${today()} on ${machine()}; \`vite build\` (production), each file gzip-compressed (zlib default level).`,
    '',
    '| what the play page loads | gzip KB |',
    '|---|---:|',
    ...rows.map((r) => `| \`${r.file.replace(/-[\w-]{8}\.js$/, '.js')}\` | ${kb(r.bytes)} |`),
    ...langs.map((l) => `| **play page JS in ${l.code}** (+ its language chunk, ${kb(l.bytes)}) | **${kb(base + l.bytes)}** |`),
    '',
    `Budget: ≤ ${BUDGET_KB} KB gzip in every language — ${ok ? `within budget (largest: ${kb(worst)} KB)` : `**over budget** (${kb(worst)} KB)`}. Not counted: the local developer mode with boardgame.io's Debug panel (${debug ? kb(gz(debug.file)) : '?'} KB, loaded only on #/local), the lobby, rules and local pages' own chunks and their words (locales/pages), and CSS.`,
  ].join('\n');
  writeSection(join(ROOT, 'docs/BENCHMARKS.md'), 'client', body);
  console.log(body);
  if (!ok) process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
