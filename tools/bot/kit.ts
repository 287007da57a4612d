/**
 * The bot kit: a bot account's process over the HTTP bot API (docs/BOT-API.md), around one engine
 * (`decide(view, legal) → action id`, bots/engines.ts). It listens on the event stream, accepts the
 * challenges it is sent (not those it sent itself, which the stream tells it of too), and for each game that starts opens the game stream and answers every line whose
 * `legal` is not empty with a move POST. Streams that drop are opened again (a game stream's first line
 * is the match as it is now, so nothing is missed); 409 (the state moved on) waits for the next line;
 * 429 waits for `Retry-After`. The token is sent only in the Authorization header and never printed.
 */
import type { WatergateView } from '../../game';
import type { Decide } from '../../bots/arena';

export interface KitOptions {
  server: string;
  token: string;
  decide: Decide;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

interface LegalAction {
  id: number;
  text: string;
}
/** A game stream line (docs/BOT-API.md "Stream lines"). */
interface GameLine {
  type: 'gameFull' | 'gameState' | 'chatLine' | 'gameFinish';
  stateID: number;
  view?: WatergateView;
  legal?: LegalAction[];
  status?: { winner: '0' | '1' | null; reason: string };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
const auth = (o: KitOptions) => ({ authorization: `Bearer ${o.token}` });

async function post(o: KitOptions, path: string, body: unknown): Promise<{ status: number; body: any; retryAfter: number }> {
  const r = await fetch(o.server + path, { method: 'POST', headers: { ...auth(o), 'content-type': 'application/json' }, body: JSON.stringify(body), signal: o.signal });
  const text = await r.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, body: json, retryAfter: Number(r.headers.get('retry-after') ?? 1) };
}

async function get(o: KitOptions, path: string): Promise<{ status: number; body: any }> {
  const r = await fetch(o.server + path, { headers: auth(o), signal: o.signal });
  return { status: r.status, body: await r.json().catch(() => null) };
}

/**
 * One NDJSON stream: every line's object to `onLine` until the server ends it (true) or it fails to open
 * or breaks (false). `onLine` returning 'stop' closes it.
 */
async function stream(o: KitOptions, path: string, onLine: (line: any) => 'stop' | void): Promise<{ ended: boolean; status: number }> {
  const ac = new AbortController();
  const stop = () => ac.abort();
  o.signal?.addEventListener('abort', stop, { once: true });
  try {
    const r = await fetch(o.server + path, { headers: auth(o), signal: ac.signal });
    if (r.status !== 200 || !r.body) return { ended: false, status: r.status };
    const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { ended: true, status: 200 };
      buffer += value;
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const text = buffer.slice(0, i).trim();
        buffer = buffer.slice(i + 1);
        if (text && onLine(JSON.parse(text)) === 'stop') {
          ac.abort();
          return { ended: true, status: 200 };
        }
      }
    }
  } catch {
    return { ended: false, status: 0 };
  } finally {
    o.signal?.removeEventListener('abort', stop);
  }
}

/** Takes a seat of `matchID` with the token (the Lobby's join route); `seat` to ask for one. 409 (no free seat, or already ours) is left to the game stream to tell. */
export async function join(o: KitOptions, matchID: string, seat?: '0' | '1'): Promise<number> {
  const r = await post(o, `/games/watergate/${encodeURIComponent(matchID)}/join`, seat ? { playerID: seat } : {});
  if (r.status !== 200) o.log?.(`join ${matchID}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.status;
}

/**
 * Plays the bot's seat of `matchID` until the game ends: the final status. The engine decides on the
 * newest line only (a line that came while it thought is answered instead, the older one being stale).
 */
export async function playGame(o: KitOptions, matchID: string): Promise<GameLine['status'] | null> {
  const log = o.log ?? (() => {});
  let latest = null as GameLine | null;
  let wake = () => {};
  let finished = null as GameLine['status'] | null;
  let over = false;
  let answered = -1;

  const player = (async () => {
    while (!over) {
      const line: GameLine | null = latest;
      if (!line || line.stateID === answered || !line.legal?.length || !line.view) {
        await new Promise<void>((r) => (wake = r));
        continue;
      }
      answered = line.stateID;
      let id: number;
      try {
        id = await o.decide(line.view, line.legal.map((l: LegalAction) => l.id));
      } catch (e) {
        log(`engine failed at ${line.stateID} in ${matchID}: ${(e as Error).message}`); // the next line is decided afresh
        continue;
      }
      for (;;) {
        const r = await post(o, `/api/bot/game/${encodeURIComponent(matchID)}/move`, { stateID: line.stateID, action: id });
        if (r.status === 429 && latest === line) {
          await sleep(1000 * r.retryAfter, o.signal);
          continue;
        }
        if (r.status !== 200 && r.status !== 409) log(`move ${id} at ${line.stateID} in ${matchID}: ${r.status} ${JSON.stringify(r.body)}`);
        break;
      }
    }
  })().catch((e: Error) => log(`player: ${e.message}`));

  for (let attempt = 0; !over && !o.signal?.aborted; attempt++) {
    const r = await stream(o, `/api/bot/game/stream/${encodeURIComponent(matchID)}`, (line: GameLine) => {
      attempt = 0;
      if (line.type === 'gameFinish') {
        finished = line.status ?? null;
        over = true;
        wake();
        return 'stop';
      }
      if (line.type === 'gameFull' || line.type === 'gameState') {
        latest = line;
        wake();
      }
    });
    if (over) break;
    if (r.status === 403 || r.status === 401 || r.status === 404) {
      log(`game stream of ${matchID} refused: ${r.status}`);
      break;
    }
    log(`game stream of ${matchID} dropped: reconnecting`);
    await sleep(Math.min(30_000, 500 * 2 ** Math.min(attempt, 6)), o.signal);
  }
  over = true;
  wake();
  await player;
  const end = finished as GameLine['status'] | null;
  log(`game ${matchID} over: ${end ? `winner ${end.winner ?? 'none'} (${end.reason})` : 'stream closed'}`);
  return end;
}

/** The match id of a `gameStart` line: `matchID`, or `game.matchID` / `game.id`. */
export const matchOf = (line: { matchID?: unknown; game?: { matchID?: unknown; id?: unknown } }): string | null => {
  const m = line.matchID ?? line.game?.matchID ?? line.game?.id;
  return typeof m === 'string' && m ? m : null;
};

/** The challenge id of a `challenge` line: `id`, or `challenge.id`. */
export const challengeOf = (line: { id?: unknown; challenge?: { id?: unknown } }): string | null => {
  const c = line.challenge?.id ?? line.id;
  return typeof c === 'string' || typeof c === 'number' ? String(c) : null;
};

/** What the kit makes of a `challenge` line: one to this account is accepted; one it sent, or one no longer pending, is not. */
export type ChallengeSide = 'to-me' | 'from-me' | 'gone';

/**
 * Tells which side of a challenge this account is on. The stream tells both players of a challenge, and
 * only the challenged may accept it (the challenger's try is a 403): the line names both (`from`, `to`),
 * so once the account's username is known the line alone answers. The token does not name its account,
 * so the first line is looked up in the account's pending challenges (`GET /api/challenge`: `in`, `out`),
 * which gives the username for every line after.
 */
export function challengeSides(o: KitOptions): (line: { id?: unknown; challenge?: { id?: unknown; from?: unknown; to?: unknown } }) => Promise<ChallengeSide> {
  let me: string | null = null;
  return async (line) => {
    const c = line.challenge;
    if (me !== null && typeof c?.from === 'string' && typeof c.to === 'string') return c.to === me ? 'to-me' : c.from === me ? 'from-me' : 'gone';
    const id = challengeOf(line);
    const r = await get(o, '/api/challenge');
    if (r.status !== 200) return 'gone';
    const has = (list: unknown) => Array.isArray(list) && list.some((x: { id?: unknown }) => String(x?.id) === id);
    if (has(r.body?.in)) {
      if (typeof c?.to === 'string') me = c.to;
      return 'to-me';
    }
    if (has(r.body?.out)) {
      if (typeof c?.from === 'string') me = c.from;
      return 'from-me';
    }
    return 'gone'; // answered, canceled or expired meanwhile: nothing to accept
  };
}

/**
 * The bot account's life: the event stream, for ever (until `signal`). Every challenge sent to it is
 * accepted (one it sent itself is left to its opponent); every game that starts is played, each once,
 * several at a time.
 */
export async function runAccount(o: KitOptions): Promise<void> {
  const log = o.log ?? (() => {});
  const sideOf = challengeSides(o);
  const playing = new Set<string>();
  const games: Promise<unknown>[] = [];
  const start = (matchID: string) => {
    if (playing.has(matchID)) return;
    playing.add(matchID);
    log(`game ${matchID}: playing`);
    games.push(playGame(o, matchID));
  };
  for (let attempt = 0; !o.signal?.aborted; attempt++) {
    const r = await stream(o, '/api/stream/event', (line: { type?: string }) => {
      attempt = 0;
      if (line.type === 'challenge') {
        const id = challengeOf(line as never);
        if (id)
          void sideOf(line as never)
            .then(async (side) => {
              if (side !== 'to-me') return log(`challenge ${id}: ${side === 'from-me' ? 'sent by this account: left to its opponent' : 'no longer pending'}`);
              const a = await post(o, `/api/challenge/${encodeURIComponent(id)}/accept`, {});
              log(`challenge ${id}: ${a.status === 200 ? 'accepted' : `not accepted (${a.status})`}`);
              const m = a.status === 200 ? matchOf(a.body) : null;
              if (m) start(m);
            })
            .catch((e: Error) => log(`challenge ${id}: ${e.message}`));
      } else if (line.type === 'gameStart') {
        const m = matchOf(line as never);
        if (m) start(m);
      }
    });
    if (o.signal?.aborted) break;
    if (r.status === 401 || r.status === 403) throw new Error(`the event stream refused the token (${r.status})`);
    log('event stream dropped: reconnecting');
    await sleep(Math.min(30_000, 500 * 2 ** Math.min(attempt, 6)), o.signal);
  }
  await Promise.allSettled(games);
}
