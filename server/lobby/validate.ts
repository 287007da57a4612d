/** Checks Lobby request bodies; each failure is a 400 that names the field. */
import { DEFAULT_OPTIONS, OPTION_VALUES, validateSetupData, type Options, type SetupData } from '../../game/index';
import { isLevel, LEVEL_NAMES, type Level } from '../../protocol/index';
import { checkName } from '../../protocol/names';
import { timeControlOf, TIME_CONTROLS } from '../../protocol/rated';
import { HttpError } from '../storage/errors';
import type { ListCursor } from '../storage/types';

export type Body = Record<string, unknown>;

export function body(raw: unknown): Body {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new HttpError(400, 'request body must be a JSON object');
  return raw as Body;
}

/** Refuses a field not in `keys`, naming it back only when it is a short plain name (never markup, nor a long or odd key). */
export function allowOnly(b: Body, keys: string[]): void {
  for (const k of Object.keys(b)) if (!keys.includes(k)) throw new HttpError(400, /^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(k) ? `unknown field "${k}"` : 'unknown field');
}

/** A name as protocol/names.ts allows it (the form checks the same), stored in its tidied form. */
export function playerName(v: unknown, field = 'playerName'): string {
  if (typeof v !== 'string') throw new HttpError(400, `${field} is required and must be a string`);
  const checked = checkName(v);
  if ('problem' in checked) throw new HttpError(400, `${field} ${checked.problem}`);
  return checked.name;
}

/** A seat: "0" (Editor) or "1" (Nixon); numbers are accepted as boardgame.io's LobbyClient may send them. */
export function seat(v: unknown, required: boolean, field = 'playerID'): '0' | '1' | undefined {
  if (v === undefined || v === null) {
    if (required) throw new HttpError(400, `${field} is required ("0" or "1")`);
    return undefined;
  }
  const s = typeof v === 'number' ? String(v) : v;
  if (s !== '0' && s !== '1') throw new HttpError(400, `${field} must be "0" (Editor) or "1" (Nixon)`);
  return s;
}

/** The levels as the 400 lists them: each quoted, the last after "or". */
const LEVEL_LIST = LEVEL_NAMES.map((l) => `"${l}"`).join(', ').replace(/, ([^,]*)$/, ' or $1');

export function level(v: unknown): Level | undefined {
  if (v === undefined) return undefined;
  if (!isLevel(v)) throw new HttpError(400, `level must be ${LEVEL_LIST}`);
  return v;
}

export function credentials(v: unknown): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 200) throw new HttpError(400, 'credentials are required and must be a string');
  return v;
}

export function optionalBoolean(v: unknown, field: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new HttpError(400, `${field} must be true or false`);
  return v;
}

/** A state id the client saw (a whole number), or undefined. */
export function optionalStateID(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw new HttpError(400, 'stateID must be a whole number of at least 0');
  return v as number;
}

export function numPlayers(v: unknown): void {
  if (v === undefined) return;
  if (v !== 2 && v !== '2') throw new HttpError(400, 'numPlayers must be 2: Watergate is a game for exactly 2 players');
}

/** Free-form player data: a small JSON object (or null to clear). */
export function playerData(v: unknown): Record<string, unknown> | null | undefined {
  if (v === undefined || v === null) return v;
  if (typeof v !== 'object' || Array.isArray(v)) throw new HttpError(400, 'data must be an object');
  if (JSON.stringify(v).length > 2000) throw new HttpError(400, 'data must be at most 2000 characters of JSON');
  return v as Record<string, unknown>;
}

/** A query parameter given at most once; empty counts as absent, as in boardgame.io's list. */
function queryOne(q: Record<string, unknown>, name: string): string | undefined {
  const v = q[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw new HttpError(400, `${name} must be given once`);
  return v;
}

export function queryBoolean(q: Record<string, unknown>, name: string): boolean | undefined {
  const v = queryOne(q, name)?.toLowerCase();
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw new HttpError(400, `${name} must be true or false`);
  return v === 'true';
}

/** A time as boardgame.io's `updatedAt`: milliseconds since 1970, a positive whole number. */
export function queryTime(q: Record<string, unknown>, name: string): number | undefined {
  const v = queryOne(q, name);
  if (v === undefined) return undefined;
  if (!/^[0-9]{1,15}$/.test(v) || Number(v) < 1) throw new HttpError(400, `${name} must be a time in milliseconds since 1970 (a positive whole number)`);
  return Number(v);
}

/** The list's page size: `limit`, a whole number from 1 to `max` (default `fallback`). */
export function queryLimit(q: Record<string, unknown>, fallback: number, max: number): number {
  const v = queryOne(q, 'limit');
  if (v === undefined) return fallback;
  if (!/^[0-9]{1,4}$/.test(v) || Number(v) < 1 || Number(v) > max) throw new HttpError(400, `limit must be a whole number from 1 to ${max}`);
  return Number(v);
}

/** `next` of a page: opaque to clients (where the page ended), handed back as `after`. */
export function encodeCursor(c: ListCursor): string {
  return Buffer.from(`${c.updatedAt}.${c.matchID}`, 'utf8').toString('base64url');
}

export function queryCursor(q: Record<string, unknown>): ListCursor | undefined {
  const v = queryOne(q, 'after');
  if (v === undefined) return undefined;
  const m = v.length <= 200 && /^[A-Za-z0-9_-]+$/.test(v) ? /^([0-9]{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(v, 'base64url').toString('utf8')) : null;
  if (!m) throw new HttpError(400, 'after must be the `next` of a previous page');
  return { updatedAt: Number(m[1]), matchID: m[2] };
}

/** The rated time controls as a refusal lists them: "left out (none), { initialSeconds: 600, incrementSeconds: 10 } (live) or …". */
const RATED_CLOCKS = (() => {
  const items = Object.entries(TIME_CONTROLS).map(([name, c]) => (c.clock ? `{ initialSeconds: ${c.clock.initialSeconds}, incrementSeconds: ${c.clock.incrementSeconds} } (${name})` : `left out (${name})`));
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
})();

/**
 * The setupData of a rated match (README "Rated matches"), or a 400 naming the field: one of the time
 * controls (protocol/rated.ts), an abandon limit no shorter than its
 * control's floor (untimed: the floor when unset, so the game can always end), no hints, take-backs off and
 * the standard rules (the options' defaults): a rating compares games played under the same rules.
 * Refused rather than quietly changed, so an API user sees what they asked for cannot be rated — except
 * the clock's onTimeout, stored as "lose": running out of time always loses a rated game (the computer
 * never plays one), so "bot" would change nothing but the words.
 */
export function ratedSetupData(setupData: unknown): SetupData {
  const why = validateSetupData(setupData);
  if (why) throw new HttpError(400, `invalid setupData: ${why}`);
  const s = (setupData ?? {}) as SetupData;
  const control = timeControlOf(s.clock);
  if (control === null) throw new HttpError(400, `clock must be one of the rated time controls in a rated match: ${RATED_CLOCKS}`);
  const floor = TIME_CONTROLS[control].ratedAbandonFloor;
  if (s.abandonMinutes !== undefined && s.abandonMinutes < floor) throw new HttpError(400, `abandonMinutes must be at least ${floor} in a rated match ${control === 'none' ? 'without a clock' : `with this clock (${control})`}`);
  if (s.hints === true) throw new HttpError(400, 'hints are never offered in a rated match: leave out hints');
  if (s.takeBacks !== undefined && s.takeBacks !== 'off') throw new HttpError(400, 'takeBacks must be "off" in a rated match');
  for (const k of Object.keys(OPTION_VALUES) as (keyof Options)[])
    if (s[k] !== undefined && s[k] !== DEFAULT_OPTIONS[k]) throw new HttpError(400, `${k} must be "${DEFAULT_OPTIONS[k]}" (the standard rules) in a rated match`);
  // Running out of time loses a rated game whatever onTimeout says (match/ending.ts): stored as it applies.
  if (s.clock) return { ...s, clock: { ...s.clock, onTimeout: 'lose' } };
  return s.abandonMinutes === undefined ? { ...s, abandonMinutes: floor } : s;
}
