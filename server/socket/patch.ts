/**
 * The difference between two player views as a JSON Patch (RFC 6902), for boardgame.io's `patch`
 * message: the client applies it to the view it holds (its reducer uses the rfc6902 package) instead of
 * receiving the whole view again. A Watergate view is mostly the game record, which only grows, so a
 * move's patch is a few hundred bytes where the view is about 14 KB (docs/LOAD.md).
 *
 * boardgame.io can compute patches itself (`deltaState`), but with a general array diff that is slow on
 * a long record. Here, views of consecutive states share every unchanged part by reference (the reducer
 * keeps unchanged subtrees, and the player view copies only the small secret-bearing parts), so equal
 * references are skipped at once; arrays are compared element by element, with appends at the end.
 */
export type Op = { op: 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(a: unknown, b: unknown, path: string, ops: Op[], limit: number): void {
  if (a === b || ops.length > limit) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) walk(a[i], b[i], `${path}/${i}`, ops, limit);
    for (let i = common; i < b.length; i++) ops.push({ op: 'add', path: `${path}/-`, value: b[i] });
    for (let i = a.length - 1; i >= b.length; i--) ops.push({ op: 'remove', path: `${path}/${i}` });
    return;
  }
  if (isObject(a) && isObject(b)) {
    // JSON drops keys whose value is undefined: so does the patch.
    for (const k of Object.keys(a)) if (a[k] !== undefined && b[k] === undefined) ops.push({ op: 'remove', path: `${path}/${escape(k)}` });
    for (const k of Object.keys(b)) {
      if (b[k] === undefined) continue;
      if (a[k] === undefined) ops.push({ op: 'add', path: `${path}/${escape(k)}`, value: b[k] });
      else walk(a[k], b[k], `${path}/${escape(k)}`, ops, limit);
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
export function jsonPatch(a: unknown, b: unknown, limit = 64): Op[] | null {
  const ops: Op[] = [];
  walk(a, b, '', ops, limit);
  return ops.length > limit ? null : ops;
}
