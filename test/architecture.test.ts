/**
 * One folder per concern, checked on the imports themselves: the rules import nothing but themselves;
 * the protocol imports nothing; the browser client reaches the server only through the protocol and the
 * bots only through their browser entry; bots/ is reached through its declared entries (bots/index.ts).
 * bots/ is a library below the server: the server plays its computer seats (server/bots/runner.ts) with
 * the search and the worker pool, and nothing in bots/ reaches back up into server/, client/ or tools/.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const BOT_ENTRIES = ['bots/index.ts', 'bots/browser.ts', 'bots/pool.ts', 'bots/bgio.ts', 'bots/arena.ts'];
/** What the server may use of bots/: the search (levels, seeds, the decision's type) and the worker pool. */
const SERVER_BOT_ENTRIES = ['bots/index.ts', 'bots/pool.ts'];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    return statSync(join(ROOT, p)).isDirectory() ? files(p) : /\.tsx?$/.test(f) && !f.endsWith('.d.ts') ? [p] : [];
  });
}

/** Each import of a file: the module as written, and the repository file it resolves to (if local). */
function imports(file: string): { spec: string; target: string | null }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"\n]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]);
  return specs.map((spec) => {
    if (!spec.startsWith('.')) return { spec, target: null };
    const base = relative(ROOT, resolve(ROOT, dirname(file), spec));
    const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find((c) => {
      try {
        return statSync(join(ROOT, c)).isFile();
      } catch {
        return false;
      }
    });
    return { spec, target: target ?? base };
  });
}

const offending = (dir: string, bad: (i: { spec: string; target: string | null }, file: string) => boolean) =>
  files(dir).flatMap((f) => imports(f).filter((i) => bad(i, f)).map((i) => `${f} → ${i.spec}`));

describe('the folders', () => {
  it('the scan sees the imports it judges (the checks below are not empty)', () => {
    expect(imports('client/lobby/MatchPage.tsx').map((i) => i.target)).toContain('protocol/index.ts');
    expect(imports('client/local/LocalPage.tsx').map((i) => i.target)).toContain('bots/browser.ts');
    expect(imports('server/bots/runner.ts').map((i) => i.target)).toEqual(expect.arrayContaining(['bots/index.ts', 'bots/pool.ts', 'server/match/service.ts']));
    expect(imports('bots/pool.ts').map((i) => i.target)).toContain('bots/worker.ts');
    expect(files('game').length).toBeGreaterThan(10);
  });

  it('game/ imports only game/ (and boardgame.io\'s core for INVALID_MOVE and types, and the Alea generator boardgame.io draws with): no React, no Node', () => {
    expect(offending('game', (i) => (i.target ? !i.target.startsWith('game/') : !/^(boardgame\.io(\/core)?|seedrandom\/lib\/alea\.js)$/.test(i.spec)))).toEqual([]);
  });

  it('protocol/ imports nothing', () => {
    expect(offending('protocol', () => true)).toEqual([]);
  });

  it('client/ imports nothing from server/ or tools/, and from bots/ only the browser entry', () => {
    expect(offending('client', (i) => !!i.target && (i.target.startsWith('server/') || i.target.startsWith('tools/') || (i.target.startsWith('bots/') && i.target !== 'bots/browser.ts')))).toEqual([]);
  });

  it('outside bots/ (tests aside), bots/ is reached through its declared entries only', () => {
    for (const dir of ['client', 'server', 'tools', 'game', 'protocol'])
      expect(offending(dir, (i) => !!i.target && i.target.startsWith('bots/') && !BOT_ENTRIES.includes(i.target))).toEqual([]);
  });

  it('server/ uses bots/ only as a library: the search and the worker pool, no runner', () => {
    expect(offending('server', (i) => !!i.target && i.target.startsWith('bots/') && !SERVER_BOT_ENTRIES.includes(i.target))).toEqual([]);
  });

  it('bots/ imports nothing from server/, client/ or tools/ (no arrow back up)', () => {
    expect(offending('bots', (i) => !!i.target && /^(server|client|tools)\//.test(i.target))).toEqual([]);
  });
});

/** The text of every file under `dirs` whose name ends in one of `exts`. */
function texts(dirs: string[], exts = /\.(tsx?|css|html)$/): [string, string][] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir)).flatMap((f) => {
      const p = join(dir, f);
      return statSync(join(ROOT, p)).isDirectory() ? walk(p) : exts.test(f) ? [p] : [];
    });
  return dirs.flatMap(walk).map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]);
}

const SOURCES = ['client', 'server', 'game', 'bots', 'protocol', 'tools'];
const where = (found: [string, string][], re: RegExp) => found.filter(([, text]) => re.test(text)).map(([f]) => f);

describe('one definition of each name', () => {
  const sources = texts(SOURCES);
  // This file names what it looks for.
  const everything = [...sources, ...texts(['test']).filter(([f]) => f !== 'test/architecture.test.ts')];

  it('the scan reads the sources it judges', () => {
    expect(sources.map(([f]) => f)).toEqual(expect.arrayContaining(['protocol/index.ts', 'client/styles.css', 'client/board/Board.tsx', 'server/lobby/routes.ts']));
  });

  it("a seat's entry in the match metadata is read through protocol/ (seatEntry), never by a cast of the seat or a local seatOf", () => {
    expect(where(everything, /as unknown as number/)).toEqual([]);
    expect(where(sources, /\b(?:function|const|let)\s+seatOf\b/)).toEqual([]);
    expect(where(sources, /\b(?:function|const)\s+(?:seatEntry|isSeat)\b/)).toEqual(['protocol/index.ts']);
  });

  it('the computer\'s level names are listed in protocol/ only; the bots give each of them, and only them, a budget', async () => {
    const all = (text: string) => ['easy', 'normal', 'hard'].every((l) => new RegExp(`['"\`]${l}['"\`]`).test(text));
    const listing = sources.filter(([, text]) => all(text)).map(([f]) => f);
    expect(listing).toContain('protocol/index.ts');
    expect(listing.filter((f) => !f.startsWith('protocol/'))).toEqual([]);
    const { LEVEL_NAMES } = await import('../protocol/index');
    const { LEVELS } = await import('../bots/index');
    expect(Object.keys(LEVELS)).toEqual([...LEVEL_NAMES]);
  });

  it('the phone breakpoint is written once, in the stylesheet, which tells the scripts (--layout) and starts the tablet just past it', () => {
    const widths = sources.filter(([f]) => f.startsWith('client/')).flatMap(([f, text]) => [...text.matchAll(/\(\s*max-width:\s*(\d+)px\s*\)/g)].map((m) => `${f} ${m[1]}`));
    const phone = widths.filter((w) => / 560$/.test(w));
    expect(phone).toEqual(['client/styles.css 560']);
    const css = readFileSync(join(ROOT, 'client/styles.css'), 'utf8');
    const block = css.slice(css.indexOf('@media (max-width: 560px) {'));
    expect(block.slice(0, block.indexOf('\n}'))).toContain(':root { --layout: phone; }');
    expect(css).toContain('@media (min-width: 561px) and (max-width: 1000px)');
    expect(readFileSync(join(ROOT, 'client/board/phone.tsx'), 'utf8')).toContain("getPropertyValue('--layout')");
  });

  it('every section of docs/ARCHITECTURE.md a comment cites is a heading there, and every file its maps list exists', () => {
    const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const headings = new Set([...doc.matchAll(/^#+ (.+)$/gm)].map((m) => m[1].trim()));
    const cited = everything.flatMap(([f, text]) => [...text.matchAll(/ARCHITECTURE\.md "([^"]+)"/g)].map((m) => `${f}: "${m[1]}"`));
    expect(cited.length).toBeGreaterThan(5);
    expect(cited.filter((c) => !headings.has(/"([^"]+)"$/.exec(c)![1]))).toEqual([]);
    const listed = [...doc.matchAll(/```\n([\w-]+)\/\n([\s\S]*?)```/g)].flatMap((m) => [...m[2].matchAll(/^ {2}([\w./-]+\.tsx?)\s/gm)].map((l) => `${m[1]}/${l[1]}`));
    expect(listed).toContain('server/match/service.ts');
    expect(listed.filter((f) => !statSync(join(ROOT, f), { throwIfNoEntry: false })?.isFile())).toEqual([]);
  });

  it('no code or stylesheet names its parts after issue numbers', () => {
    expect(where(everything, /\bissues?\s+#?\d|\(#\d+\)/i)).toEqual([]);
  });
});

describe('the test files', () => {
  it('a file that mocks a module, stubs a global or reloads modules runs in a context of its own (the others share their worker\'s modules)', async () => {
    const { MOCKING } = await import('../vitest.config');
    const mocking = files('test').filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.(mock|doMock|stubGlobal|stubEnv|resetModules)\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking.sort()).toEqual([...MOCKING].sort());
  });
});

describe('one writer of a match (server/match/commit.ts, docs/ARCHITECTURE.md "The commit door")', () => {
  const server = texts(['server'], /\.ts$/).filter(([f]) => !f.startsWith('server/storage/'));

  it('the scan sees the door and memory', () => {
    expect(server.map(([f]) => f)).toEqual(expect.arrayContaining(['server/match/commit.ts', 'server/match/memory.ts', 'server/lobby/routes.ts']));
  });

  it("storage's writes of a match (a state, its metadata) are called from the commit door alone", () => {
    expect(where(server, /\.(updateMetadata|commitMove)\s*\(/)).toEqual(['server/match/commit.ts']);
  });

  it("a served match's state and metadata in memory are set by the door and by memory's reads of storage only", () => {
    expect(where(server, /\b\w+\.(state|metadata|seatsVersion)\s*=[^=]/).sort()).toEqual(['server/match/commit.ts', 'server/match/memory.ts']);
  });
});
