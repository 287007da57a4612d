/**
 * `npm run load -- --url URL --matches M --seconds S [--paced MIN,MAX] [--json] [--game watergate|toy] [--seed N]`
 *
 * Load on a running server, from this machine only: M matches at once, each created and joined through
 * the Lobby API and played by two socket clients speaking boardgame.io's protocol (sync, update), each
 * choosing its moves from the legal moves of its own seat's view (Watergate: the engine's legal moves on
 * the view, as the browser does; toy: `ai.enumerate`). A finished match is replaced by a new one, so M
 * stay in play for S seconds. Flat out, a client moves as soon as it may; `--paced MIN,MAX` waits a
 * random MIN–MAX ms first, as a person would.
 *
 * The server's per-address limits stay on: each match comes from a source address of its own in
 * 127.0.0.0/8 (its Lobby calls and both its sockets), as many people would, so the load measures the
 * server with its limits rather than the limits refusing one address (docs/LOAD.md). Against [::1] (one
 * loopback address) everything comes from it.
 *
 * Latency is from sending a move to that client's next state. Prints moves/s, p50/p95/p99, refusals by
 * type and errors; `--json` prints one line
 * {"matches":M,"movesPerSecond":…,"p50":…,"p95":…,"p99":…,"errors":…,"refusals":{…}}.
 */
import http from 'node:http';
import { isIPv6 } from 'node:net';
import { pathToFileURL } from 'node:url';
import { applyPatch, type Operation } from 'rfc6902';
import { io, type Socket } from 'socket.io-client';
import { legalMovesFromView } from '../../client/legal';
import type { PlayerID, WatergateView } from '../../game/index';
import { ERROR_EVENT, MATCH_QUERY, type GuardError } from '../../protocol/index';
import { ToyGame } from './toy-game';

interface Options {
  url: string;
  matches: number;
  seconds: number;
  paced: [number, number] | null;
  json: boolean;
  game: 'watergate' | 'toy';
  seed: number;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function parseArgs(argv: string[]): Options {
  const opt = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const url = opt('url');
  if (!url) throw new Error('--url is required, e.g. --url http://127.0.0.1:8000');
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new Error(`--url "${url}" is not a URL`);
  }
  if (!LOOPBACK.has(host)) throw new Error(`--url must point at this machine (127.0.0.1, localhost or [::1]), not "${host}": this tool generates load`);
  const int = (name: string, fallback: number, min: number, max: number) => {
    const v = opt(name);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
  const pacedText = opt('paced');
  let paced: [number, number] | null = null;
  if (pacedText !== undefined) {
    const m = /^(\d+),(\d+)$/.exec(pacedText);
    if (!m || Number(m[1]) > Number(m[2]) || Number(m[2]) > 600_000) throw new Error('--paced takes MIN,MAX in milliseconds, e.g. --paced 1000,3000');
    paced = [Number(m[1]), Number(m[2])];
  }
  const game = opt('game') ?? 'watergate';
  if (game !== 'watergate' && game !== 'toy') throw new Error('--game is "watergate" or "toy"');
  return { url: url.replace(/\/+$/, ''), matches: int('matches', 10, 1, 1000), seconds: int('seconds', 10, 1, 600), paced, json: argv.includes('--json'), game, seed: int('seed', 1, 0, 2 ** 31) };
}

/**
 * The n-th source address of the load: 127.1.0.1, 127.1.0.2, … (skipping .0 and .255, and 127.0.0.x
 * where tests and people run their own clients).
 */
export function sourceAddress(n: number): string {
  const i = n % (254 * 256 * 254);
  return `127.${1 + Math.floor(i / (256 * 254))}.${Math.floor(i / 254) % 256}.${1 + (i % 254)}`;
}

/** mulberry32: a small seeded generator, so two runs choose alike. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type State = { G: unknown; ctx: { currentPlayer: string; gameover?: unknown }; _stateID: number };
type Choice = { move: string; args: unknown[] };

const RULES = {
  watergate: {
    mine: (s: State, p: PlayerID) => (s.G as WatergateView).prompt?.player === p && (s.G as WatergateView).winner === null,
    choices: (s: State, p: PlayerID) => legalMovesFromView(s.G as WatergateView, p) as Choice[],
  },
  toy: {
    mine: (s: State, p: PlayerID) => s.ctx.currentPlayer === p && s.ctx.gameover === undefined,
    choices: (s: State, p: PlayerID) => ToyGame.ai!.enumerate(s.G as never, s.ctx as never, p) as Choice[],
  },
};

export interface LoadResult {
  matches: number;
  seconds: number;
  moves: number;
  movesPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  refusals: Record<string, number>;
  games: number;
}

/** Hooks for a caller measuring the server over the same window (npm run bench:server). */
export interface LoadHooks {
  onWindowStart?: () => void;
  onWindowEnd?: () => void;
}

export async function runLoad(o: Options, hooks: LoadHooks = {}): Promise<LoadResult> {
  const rules = RULES[o.game];
  const random = rng(o.seed);
  const latencies: number[] = [];
  const refusals: Record<string, number> = {};
  let errors = 0;
  let games = 0;
  let measuring = false;
  let stopped = false;
  const sockets = new Set<Socket>();

  const spread = !isIPv6(new URL(o.url).hostname.replace(/^\[|\]$/g, ''));
  let addresses = 0;
  /** Where a new match's calls and sockets come from: an address of its own (IPv4 loopback). */
  const from = (): { localAddress?: string; family?: number } => (spread ? { localAddress: sourceAddress(addresses++), family: 4 } : {});

  // node:http rather than fetch: fetch cannot choose its source address.
  const post = (path: string, body: unknown, src: ReturnType<typeof from>) =>
    new Promise<Record<string, string>>((resolve, reject) => {
      const req = http.request(`${o.url}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' }, ...src }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`${path}: HTTP ${res.statusCode} ${text}`));
          try {
            resolve(JSON.parse(text));
          } catch (e) {
            reject(e);
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });

  /** One seat's client; resolves when the game is over (or the run stops). */
  const seat = (matchID: string, playerID: PlayerID, credentials: string, synced: () => void, src: ReturnType<typeof from>) =>
    new Promise<void>((resolve) => {
      // localAddress and family reach ws through engine.io-client.
      const s = io(`${o.url}/${o.game}`, { transports: ['websocket'], forceNew: true, query: { [MATCH_QUERY]: matchID }, reconnectionDelay: 200, reconnectionDelayMax: 1000, ...src } as never);
      sockets.add(s);
      let state: State | null = null;
      let pending: { stateID: number; at: number; timer: ReturnType<typeof setTimeout> } | null = null;
      let waiting: ReturnType<typeof setTimeout> | null = null;
      let firstSync = true;
      const finish = () => {
        clearTimeout(pending?.timer);
        if (waiting) clearTimeout(waiting);
        sockets.delete(s);
        s.close();
        resolve();
      };
      const act = (avoid?: string) => {
        if (stopped) return finish();
        if (!state || pending || waiting) return;
        if (state.ctx.gameover !== undefined) return finish();
        if (!rules.mine(state, playerID)) return;
        let options = rules.choices(state, playerID);
        if (avoid && options.length > 1) options = options.filter((c) => JSON.stringify(c) !== avoid);
        if (options.length === 0) return;
        const choice = options[Math.floor(random() * options.length)];
        const send = () => {
          waiting = null;
          if (stopped || !state || !rules.mine(state, playerID)) return;
          const stateID = state._stateID;
          const timer = setTimeout(() => {
            // No answer in 10 s: count it and try again on a fresh sync.
            errors++;
            pending = null;
            s.emit('sync', matchID, playerID, credentials, 2);
          }, 10_000);
          pending = { stateID, at: performance.now(), timer };
          lastChoice = JSON.stringify(choice);
          s.emit('update', { type: 'MAKE_MOVE', payload: { type: choice.move, args: choice.args, playerID, credentials } }, stateID, matchID, playerID);
        };
        if (o.paced) waiting = setTimeout(send, o.paced[0] + random() * (o.paced[1] - o.paced[0]));
        else send();
      };
      let lastChoice = '';
      s.on('connect', () => s.emit('sync', matchID, playerID, credentials, 2));
      s.on('sync', (_id: string, info: { state: State }) => {
        state = info.state;
        if (pending && state._stateID > pending.stateID) {
          clearTimeout(pending.timer);
          pending = null;
        }
        if (firstSync) {
          firstSync = false;
          synced();
        }
        act();
      });
      const advance = (next: State) => {
        state = next;
        if (pending && next._stateID > pending.stateID) {
          if (measuring) latencies.push(performance.now() - pending.at);
          clearTimeout(pending.timer);
          pending = null;
        }
        act();
      };
      s.on('update', (_id: string, next: State) => {
        if (!state || next._stateID > state._stateID) advance(next);
      });
      // A patch from the state this client holds (as boardgame.io's client applies it); otherwise resync.
      s.on('patch', (_id: string, prevID: number, nextID: number, ops: Operation[]) => {
        if (!state || state._stateID !== prevID || applyPatch(state, ops).some((e) => e !== null)) {
          errors++;
          return void s.emit('sync', matchID, playerID, credentials, 2);
        }
        state._stateID = nextID;
        advance(state);
      });
      s.on(ERROR_EVENT, (e: GuardError) => {
        refusals[e.type] = (refusals[e.type] ?? 0) + 1;
        if (!pending) return;
        clearTimeout(pending.timer);
        pending = null;
        if (e.type === 'invalid-move') act(lastChoice); // the view hid what that move needed: choose again
        // stale / server-error: the server resyncs this client, and the sync acts.
      });
      s.on('connect_error', () => errors++);
      s.on('disconnect', (reason) => {
        if (!stopped && reason !== 'io client disconnect') errors++;
      });
    });

  /** Keeps one match in play until the run stops: a finished match is replaced by a new one. */
  const slot = async (ready: () => void) => {
    let first = true;
    while (!stopped) {
      try {
        const src = from();
        const { matchID } = await post(`/games/${o.game}/create`, { numPlayers: 2 }, src);
        const a = await post(`/games/${o.game}/${matchID}/join`, { playerID: '0', playerName: 'Load A' }, src);
        const b = await post(`/games/${o.game}/${matchID}/join`, { playerID: '1', playerName: 'Load B' }, src);
        let n = 0;
        const synced = () => {
          if (++n === 2 && first) {
            first = false;
            ready();
          }
        };
        await Promise.all([seat(matchID, '0', a.playerCredentials, synced, src), seat(matchID, '1', b.playerCredentials, synced, src)]);
        if (!stopped) games++;
      } catch {
        errors++;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };

  let readyCount = 0;
  let allReady: () => void = () => {};
  const ready = new Promise<void>((r) => (allReady = r));
  const slots: Promise<void>[] = [];
  for (let i = 0; i < o.matches; i++) {
    slots.push(
      slot(() => {
        if (++readyCount === o.matches) allReady();
      }),
    );
    // Open matches a few at a time rather than all in one burst.
    if (i % 20 === 19) await new Promise((r) => setTimeout(r, 50));
  }
  await Promise.race([ready, new Promise((r) => setTimeout(r, 60_000))]);
  measuring = true;
  hooks.onWindowStart?.();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, o.seconds * 1000));
  measuring = false;
  hooks.onWindowEnd?.();
  const elapsed = (performance.now() - t0) / 1000;
  stopped = true;
  for (const s of sockets) s.close();
  await Promise.race([Promise.all(slots), new Promise((r) => setTimeout(r, 5000))]);

  const sorted = [...latencies].sort((a, b) => a - b);
  const q = (p: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] * 10) / 10 : NaN);
  return {
    matches: o.matches,
    seconds: Math.round(elapsed * 10) / 10,
    moves: latencies.length,
    movesPerSecond: Math.round((latencies.length / elapsed) * 10) / 10,
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
    errors,
    refusals,
    games,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const o = parseArgs(process.argv.slice(2));
    const r = await runLoad(o);
    if (o.json) console.log(JSON.stringify(r));
    else {
      console.log(`${r.matches} matches for ${r.seconds} s${o.paced ? `, paced ${o.paced[0]}–${o.paced[1]} ms` : ', flat out'}: ${r.moves} moves, ${r.movesPerSecond} moves/s, ${r.games} games finished`);
      console.log(`latency (send → own next state): p50 ${r.p50} ms, p95 ${r.p95} ms, p99 ${r.p99} ms`);
      console.log(`refusals: ${JSON.stringify(r.refusals)}; errors: ${r.errors}`);
    }
    process.exit(0);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  }
}
