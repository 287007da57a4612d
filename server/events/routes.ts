/**
 * The events' HTTP routes (docs/EVENTS.md): create (signed in), list, one event, join / withdraw (signed
 * in, until the start; withdrawing later leaves the next rounds), start (the creator). Every body field is
 * checked; every change of an event is a conditional write of its document, retried on a conflict.
 */
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type Koa from 'koa';
import koaBody from 'koa-body';
import { TIME_CONTROL_NAMES, timeControlOf, type TimeControl } from '../../protocol/rated';
import { enforce, type Limiter } from '../limits';
import { atTime } from '../ratings/glicko';
import { isProvisional } from '../ratings/rules';
import type { Account } from '../storage/accounts';
import { HttpError } from '../storage/errors';
import type { EventRow } from '../storage/events';
import type { MatchStore } from '../storage/types';
import { eventSummary, publicEvent, type EventDoc } from './event';
import type { EventRunner } from './runner';

export const EVENT_LIMITS = {
  nameChars: 60,
  maxRounds: 9,
  maxEntrants: 256,
  /** Events an account may have open or running that it created. */
  perCreator: 5,
  /** startsAt at most this far ahead. */
  aheadMs: 60 * 24 * 3_600_000,
  listed: 50,
} as const;

export const EVENTS_PATH = /^\/api\/tournaments(\/|$)/;

type Body = Record<string, unknown>;
const body = (raw: unknown): Body => {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new HttpError(400, 'request body must be a JSON object');
  return raw as Body;
};
const int = (v: unknown, field: string, min: number, max: number): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new HttpError(400, `${field} must be a whole number from ${min} to ${max}`);
  return v;
};
const optionalInt = (v: unknown, field: string, min: number, max: number): number | null => (v === undefined || v === null ? null : int(v, field, min, max));

/** A time control by name ("none", "live", "relaxed") or as its clock ({ initialSeconds, incrementSeconds }); default live. */
function timeControl(v: unknown): TimeControl {
  if (v === undefined || v === null) return 'live';
  const named = typeof v === 'string' ? (TIME_CONTROL_NAMES as string[]).includes(v) && (v as TimeControl) : null;
  const byClock = v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).every((k) => ['initialSeconds', 'incrementSeconds', 'onTimeout'].includes(k)) ? timeControlOf(v as { initialSeconds?: unknown; incrementSeconds?: unknown }) : null;
  const c = named || byClock;
  if (!c) throw new HttpError(400, `clock must be ${TIME_CONTROL_NAMES.map((n) => `"${n}"`).join(', ')} or the clock of one of them`);
  return c;
}

function eventName(v: unknown): string {
  if (typeof v !== 'string') throw new HttpError(400, 'name must be a string');
  const s = v.normalize('NFC').replace(/\s+/g, ' ').trim();
  // No control, format (bidi, zero-width) or private-use characters: the name is shown to everyone.
  if (s.length < 3 || s.length > EVENT_LIMITS.nameChars || /[\p{C}]/u.test(s)) throw new HttpError(400, `name must be 3 to ${EVENT_LIMITS.nameChars} visible characters`);
  return s;
}

const signedIn = (ctx: Koa.Context): Account => {
  const a = ctx.state.account as Account | undefined;
  if (!a) throw new HttpError(401, 'sign in to take part in events');
  return a;
};

export function eventRoutes(o: { store: MatchStore; runner: EventRunner; limiter: Limiter }): Koa.Middleware {
  const { store, runner, limiter } = o;
  const rows = store.events;
  const json = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: '4kb', jsonStrict: true }) as unknown as Router.Middleware;
  const router = new Router({ prefix: '/api/tournaments' });
  router.use(async (ctx, next) => {
    await enforce(limiter, 'api', ctx.state.clientAddress as string);
    await next();
  });
  const idOf = (ctx: Koa.Context): string => {
    const id = String((ctx as unknown as { params: { id: string } }).params.id);
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new HttpError(404, 'no such event');
    return id;
  };
  const read = async (id: string): Promise<{ row: EventRow; doc: EventDoc }> => {
    const row = await rows.get(id);
    const doc = row && (JSON.parse(row.doc) as EventDoc);
    // A paired challenge's pair (duel.ts) is no event of these routes: its players read it at GET /api/challenge/:id.
    if (!row || !doc || doc.challenge) throw new HttpError(404, 'no such event');
    return { row, doc };
  };
  /** Applies `change` to the stored document by a conditional write, rereading on a conflict. */
  const change = async (id: string, fn: (d: EventDoc) => void): Promise<EventDoc> => {
    for (let tries = 0; tries < 12; tries++) {
      const { row, doc } = await read(id);
      fn(doc);
      const nextAt = doc.status === 'open' ? doc.startsAt : row.nextAt;
      if (await rows.update({ ...row, status: doc.status, nextAt, doc: JSON.stringify(doc) })) return doc;
      // Many joins at once (an event opening): spread the retries rather than collide again in step.
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (tries + 1)));
    }
    throw new HttpError(503, 'the event is busy: try again');
  };

  router.post('/', async (ctx, next) => (await enforce(limiter, 'create', ctx.state.clientAddress as string), next()), json, async (ctx) => {
    const a = signedIn(ctx);
    const b = body(ctx.request.body);
    // An unknown field is named back only when it is a short plain name (nothing sent is echoed otherwise).
    for (const k of Object.keys(b))
      if (!['name', 'rounds', 'clock', 'rated', 'paired', 'startsAt', 'roundMinutes', 'minRating', 'maxRating', 'noTimeoutsIn'].includes(k))
        throw new HttpError(400, /^[A-Za-z_][A-Za-z0-9_]{0,31}$/.test(k) ? `unknown field "${k}"` : 'unknown field');
    const clock = timeControl(b.clock);
    for (const k of ['rated', 'paired'] as const) if (b[k] !== undefined && typeof b[k] !== 'boolean') throw new HttpError(400, `${k} must be true or false`);
    const now = Date.now();
    // ms since 1970, or an ISO date; a moment already past by less than a minute means now (clocks differ).
    const when = typeof b.startsAt === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)$/.test(b.startsAt) ? Date.parse(b.startsAt) : b.startsAt;
    const startsAt = when === undefined || when === null ? null : Math.max(now, int(when, 'startsAt (ms since 1970 or an ISO date)', now - 60_000, now + EVENT_LIMITS.aheadMs));
    const minRating = optionalInt(b.minRating, 'minRating', 0, 4000);
    const maxRating = optionalInt(b.maxRating, 'maxRating', 0, 4000);
    if (minRating !== null && maxRating !== null && minRating > maxRating) throw new HttpError(400, 'minRating must not be above maxRating');
    const doc: EventDoc = {
      id: randomBytes(9).toString('base64url'),
      name: eventName(b.name),
      creatorID: a.id,
      creator: a.username,
      totalRounds: int(b.rounds, 'rounds', 1, EVENT_LIMITS.maxRounds),
      clock,
      rated: (b.rated as boolean | undefined) ?? true,
      paired: (b.paired as boolean | undefined) ?? false,
      startsAt,
      roundMinutes: optionalInt(b.roundMinutes, 'roundMinutes', 1, 7 * 24 * 60),
      entry: { minRating, maxRating, noTimeoutsIn: optionalInt(b.noTimeoutsIn, 'noTimeoutsIn', 1, 100) },
      createdAt: now,
      status: 'open',
      entrants: [],
      rounds: [],
    };
    const mine = (await rows.list(500)).filter((r) => (r.status === 'open' || r.status === 'running') && (JSON.parse(r.doc) as EventDoc).creatorID === a.id);
    if (mine.length >= EVENT_LIMITS.perCreator) throw new HttpError(429, `at most ${EVENT_LIMITS.perCreator} events of yours may be open or running at once`);
    await rows.insert({ id: doc.id, version: 0, status: 'open', nextAt: startsAt, createdAt: now, doc: JSON.stringify(doc) });
    ctx.body = { id: doc.id };
  });

  router.get('/', async (ctx) => {
    ctx.body = { events: (await rows.list(EVENT_LIMITS.listed)).map((r) => JSON.parse(r.doc) as EventDoc).filter((d) => !d.challenge).map(eventSummary) };
  });

  router.get('/:id', async (ctx) => {
    ctx.body = publicEvent((await read(idOf(ctx))).doc);
  });

  router.post('/:id/join', async (ctx) => {
    const a = signedIn(ctx);
    const id = idOf(ctx);
    const { doc } = await read(id);
    if (doc.status !== 'open') throw new HttpError(409, 'this event has started: entries are closed');
    const r = (await store.accounts.ratings([a.id])).get(a.id);
    const now = Date.now();
    const sides = (['0', '1'] as const).map((s) => (r?.[s] ? atTime(r[s]!, now) : null));
    const rating = Math.round(sides.reduce((sum, x) => sum + (x?.rating ?? 1500), 0) / 2);
    const { minRating, maxRating, noTimeoutsIn } = doc.entry;
    if (minRating !== null || maxRating !== null) {
      if (sides.some((x) => !x || isProvisional(x.rd))) throw new HttpError(403, 'this event asks for an established rating on both sides');
      if ((minRating !== null && rating < minRating) || (maxRating !== null && rating > maxRating)) throw new HttpError(403, `this event is for ratings from ${minRating ?? 0} to ${maxRating ?? '∞'} (yours: ${rating})`);
    }
    if (noTimeoutsIn !== null && (await store.accounts.results(a.id, noTimeoutsIn)).some((x) => !x.won && (x.reason === 'time' || x.reason === 'abandoned')))
      throw new HttpError(403, `this event is for players with no game lost on time or by absence in their last ${noTimeoutsIn}`);
    ctx.body = publicEvent(
      await change(id, (d) => {
        if (d.status !== 'open') throw new HttpError(409, 'this event has started: entries are closed');
        const e = d.entrants.find((x) => x.id === a.id);
        if (e) e.withdrawn = false;
        else if (d.entrants.length >= EVENT_LIMITS.maxEntrants) throw new HttpError(409, `this event is full (${EVENT_LIMITS.maxEntrants} players)`);
        else d.entrants.push({ id: a.id, username: a.username, rating, withdrawn: false });
      }),
    );
  });

  router.post('/:id/withdraw', async (ctx) => {
    const a = signedIn(ctx);
    const id = idOf(ctx);
    ctx.body = publicEvent(
      await change(id, (d) => {
        const i = d.entrants.findIndex((x) => x.id === a.id);
        if (i === -1) throw new HttpError(409, 'you have not joined this event');
        if (d.status === 'open') d.entrants.splice(i, 1);
        else if (d.status === 'running') d.entrants[i].withdrawn = true; // kept in the standings, not paired again
        else throw new HttpError(409, 'this event is over');
      }),
    );
  });

  router.post('/:id/start', async (ctx) => {
    const a = signedIn(ctx);
    const id = idOf(ctx);
    await change(id, (d) => {
      if (d.creatorID !== a.id) throw new HttpError(403, 'only the creator starts an event');
      if (d.status !== 'open') throw new HttpError(409, 'this event has already started');
      d.startsAt = Date.now();
    });
    await runner.kick(id);
    ctx.body = publicEvent((await read(id)).doc);
  });

  const routes = router.routes();
  return (ctx, next) => (EVENTS_PATH.test(ctx.path) ? routes(ctx as never, next) : next());
}
