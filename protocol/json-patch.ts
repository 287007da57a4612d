/**
 * JSON Patch (RFC 6902) as this project uses it, in one place:
 *
 * - `createPatch(a, b, limit)`: the server's patches between two player views (boardgame.io's `patch`
 *   message). boardgame.io can compute them itself (`deltaState`), but with a general array diff that is
 *   slow on a long record; here, views of consecutive states share every unchanged part by reference (the
 *   reducer keeps unchanged subtrees, the player view copies only the small secret-bearing parts), so
 *   equal references are skipped at once, and arrays are compared element by element, with appends at the
 *   end. A Watergate view is mostly the record, which only grows: a move's patch is a few hundred bytes
 *   where the view is about 14 KB (docs/LOAD.md).
 * - `applyPatch(doc, ops)`: the browser applies them. The browser build uses this module in place of the
 *   rfc6902 package (vite.config.ts), which is CommonJS and so brings its whole diff engine along: about
 *   2 KB of the play page's budget. Only `add`, `remove` and `replace` are written and applied; any other
 *   operation, or a path that does not fit the document, gives an error for that operation, and
 *   boardgame.io's client then asks the server for a full sync.
 * test/server/patch.test.ts checks both against the rfc6902 package over whole games.
 */
export type Op = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string } | { op: string; path: string; value?: unknown };

// Keys with neither "~" nor "/" (all of a Watergate view's) are written as they are, without a regex each.
const escape = (key: string) => (key.indexOf('~') < 0 && key.indexOf('/') < 0 ? key : key.replace(/~/g, '~0').replace(/\//g, '~1'));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(a: unknown, b: unknown, path: string, ops: Op[], limit: number): void {
  if (ops.length > limit) return;
  if (Array.isArray(a)) {
    if (Array.isArray(b)) {
      const common = Math.min(a.length, b.length);
      // An element the two share is skipped before its path is written: most of a view is the record,
      // whose past lines are the same objects from one state to the next.
      for (let i = 0; i < common; i++) if (a[i] !== b[i]) walk(a[i], b[i], path + '/' + i, ops, limit);
      for (let i = common; i < b.length; i++) ops.push({ op: 'add', path: path + '/-', value: b[i] });
      for (let i = a.length - 1; i >= b.length; i--) ops.push({ op: 'remove', path: path + '/' + i });
      return;
    }
  } else if (isObject(a) && isObject(b)) {
    // JSON drops keys whose value is undefined: so does the patch. (Views are plain objects: `for…in`
    // sees their own keys, without the array Object.keys would make at every level.)
    for (const k in a) if (a[k] !== undefined && b[k] === undefined) ops.push({ op: 'remove', path: path + '/' + escape(k) });
    for (const k in b) {
      const bv = b[k];
      const av = a[k];
      if (bv === undefined || av === bv) continue;
      if (av === undefined) ops.push({ op: 'add', path: path + '/' + escape(k), value: bv });
      else walk(av, bv, path + '/' + escape(k), ops, limit);
    }
    return;
  }
  if (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b)) return;
  ops.push({ op: 'replace', path, value: b });
}

/**
 * The operations that turn `a` into `b`, or null when there would be more than `limit` of them (then
 * sending `b` whole is as cheap and simpler).
 */
export function createPatch(a: unknown, b: unknown, limit = Infinity): Op[] | null {
  const ops: Op[] = [];
  if (a !== b) walk(a, b, '', ops, limit);
  return ops.length > limit ? null : ops;
}

// ——— applying ———

type Container = Record<string, unknown> | unknown[];

const unescape = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

function parent(doc: unknown, path: string): { node: Container; key: string } {
  if (!path.startsWith('/')) throw new Error(`bad path "${path}"`);
  const tokens = path.slice(1).split('/').map(unescape);
  let node = doc;
  for (const t of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object') throw new Error(`no "${t}" on the way to "${path}"`);
    node = (node as Record<string, unknown>)[t];
  }
  if (node === null || typeof node !== 'object') throw new Error(`"${path}" has no parent`);
  return { node: node as Container, key: tokens[tokens.length - 1] };
}

function index(arr: unknown[], key: string, append: boolean): number {
  if (append && key === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key)) throw new Error(`"${key}" is not an array index`);
  const i = Number(key);
  if (i > arr.length - (append ? 0 : 1)) throw new Error(`index ${i} is past the end`);
  return i;
}

function applyOne(doc: unknown, op: Op): void {
  const { node, key } = parent(doc, op.path);
  const arr = Array.isArray(node) ? node : null;
  switch (op.op) {
    case 'add':
      if (arr) arr.splice(index(arr, key, true), 0, op.value);
      else (node as Record<string, unknown>)[key] = op.value;
      return;
    case 'replace':
      if (arr) arr[index(arr, key, false)] = op.value;
      else if (key in node) (node as Record<string, unknown>)[key] = op.value;
      else throw new Error(`nothing to replace at "${op.path}"`);
      return;
    case 'remove':
      if (arr) arr.splice(index(arr, key, false), 1);
      else if (key in node) delete (node as Record<string, unknown>)[key];
      else throw new Error(`nothing to remove at "${op.path}"`);
      return;
    default:
      throw new Error(`operation "${op.op}" is not used by this server`);
  }
}

/** Applies the operations in order, changing `doc`; one entry per operation: null, or why it failed. */
export function applyPatch(doc: unknown, ops: readonly Op[]): (Error | null)[] {
  return ops.map((op) => {
    try {
      applyOne(doc, op);
      return null;
    } catch (e) {
      return e as Error;
    }
  });
}
