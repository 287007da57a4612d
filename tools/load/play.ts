/**
 * One load process's matches (tools/load/run.ts starts several, ./worker.ts): each match created and
 * joined through the Lobby API and played by two socket clients speaking boardgame.io's protocol (sync,
 * update, patch), each choosing its moves from the legal moves of its own seat's view (Watergate: the
 * engine's legal moves on the view, as the browser does; toy: `ai.enumerate`). A finished match is
 * replaced by a new one. Flat out, a client moves as soon as it may; `paced` waits a random MIN–MAX ms
 * first, as a person would.
 *
 * Each match comes from a source address of its own in 127.0.0.0/8 (its Lobby calls and both its
 * sockets): this process's n-th match uses sourceAddress(worker + workers × n), so several processes
 * never share one. Against [::1] (one loopback address) everything comes from it.
 *
 * Latency is from sending a move to that client's next state, counted between `measure()` and `end()`
 * (or `stop()`).
 * Every error is counted under its kind (ERROR_KINDS); a server's refusal (its ERROR_EVENT) is counted
 * by its type in `refusals`, apart from the errors.
 */
import http from 'node:http';
import { isIPv6 } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import { legalMovesFromView } from '../../client/legal';
import type { PlayerID, WatergateView } from '../../game/index';
import { ERROR_EVENT, MATCH_QUERY, type GuardError } from '../../protocol/index';
// The browser build's own applier (vite.config.ts puts it in rfc6902's place): the load's clients apply patches as players' pages do.
import { applyPatch, type Op as Operation } from '../../protocol/json-patch';
import { ToyGame } from './toy-game';

/** How long a move may go unanswered before it counts as a `move-timeout`. */
export const MOVE_TIMEOUT_MS = 10_000;

/**
 * The kinds of error, as errorsByKind names them (docs/LOAD.md "The load tool"). `setup-http-NNN`
 * stands for one kind per HTTP status.
 */
export const ERROR_KINDS = {
  'move-timeout': `a move with no newer state for its client within ${MOVE_TIMEOUT_MS / 1000} s (the client then resyncs)`,
  'patch-failed': 'a patch that is not from the state the client holds, or does not apply to it (the client resyncs)',
  'connect-refused': 'a socket that could not connect: nothing listening (ECONNREFUSED)',
  'connect-http-NNN': "a socket's WebSocket upgrade answered with HTTP status NNN (the server's guard: 429 too many from the address, 403 a foreign origin)",
  'connect-failed': "a socket's connection failed otherwise before the handshake (reset, closed)",
  'connect-timeout': 'a socket not connected within 20 s (socket.io-client\'s connect timeout): the server too slow to answer',
  'connect-rejected': "a socket's handshake refused by the server's namespace middleware",
  disconnect: 'a socket of a match in play dropped: the connection closed or failed, or pings went unanswered',
  'disconnect-by-server': 'a socket of a match in play closed by the server (socket.io "io server disconnect")',
  'setup-refused': 'a Lobby call (create, join) refused at connection: nothing listening',
  'setup-network': 'a Lobby call that failed on the network otherwise (reset, closed without an answer)',
  'setup-bad-answer': 'a Lobby call answered 200 with something that is not the JSON expected',
  'setup-http-NNN': 'a Lobby call answered with HTTP status NNN (429: a limit refused it; 503: storage down)',
} as const;

export interface PlayOptions {
  url: string;
  matches: number;
  paced: [number, number] | null;
  game: 'watergate' | 'toy';
  seed: number;
  /** This process's index among `workers`, for its source addresses and its pace of opening matches. */
  worker: number;
  workers: number;
}

export interface PlayResult {
  /** Milliseconds from sending a move to the mover's next state, while measuring. */
  latencies: number[];
  errorsByKind: Record<string, number>;
  refusals: Record<string, number>;
  games: number;
  /**
   * This load process's own event-loop delay over the window (ms): a latency also waits here, after the
   * server has answered, so a tail the server's figures do not show is the generator's.
   */
  loop: { p99: number; max: number };
  /** This load process's CPU over the window, seconds: on a shared host the generator's share is part of what is measured. */
  cpuSeconds: number;
}

/**
 * The n-th source address of the load: 127.1.0.1, 127.1.0.2, … (skipping .0 and .255, and 127.0.0.x
 * where tests and people run their own clients).
 */
export function sourceAddress(n: number): string {
  const i = n % (254 * 256 * 254);
  return `127.${1 + Math.floor(i / (256 * 254))}.${Math.floor(i / 254) % 256}.${1 + (i % 254)}`;
}

/** Matches one load process opens at once (./run.ts opens them "as fast as the server answers"). */
export const OPEN_AT_ONCE = 16;

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

/**
 * A socket's failure to connect, by kind: engine.io-client reports the WebSocket's own error as a
 * TransportError (its description the network's or ws's message), socket.io-client its connect timeout
 * as "timeout", and a namespace middleware's refusal with the server's message.
 */
function connectErrorKind(e: Error & { type?: string; description?: { message?: string } }): string {
  if (e.type === 'TransportError') {
    const why = e.description?.message ?? '';
    if (why.includes('ECONNREFUSED')) return 'connect-refused';
    const status = /Unexpected server response: (\d+)/.exec(why);
    return status ? `connect-http-${status[1]}` : 'connect-failed';
  }
  return e.message === 'timeout' ? 'connect-timeout' : 'connect-rejected';
}

/** A Lobby call's failure, with the kind it counts under. */
class SetupError extends Error {
  constructor(readonly kind: string) {
    super(kind);
  }
}

/** What a load process counted over its window (`end()`): its own loop's delay and its CPU. */
export interface Counted {
  loopDelay: PlayResult['loop'];
  cpuSeconds: number;
}

/**
 * Starts `o.matches` matches, opened a few at a time. `ready` resolves once every match's two clients
 * have synced; `measure()` starts counting latencies; `stop()` closes everything and says what happened.
 */
export function play(o: PlayOptions): { ready: Promise<void>; measure(): void; end(): Counted; stop(): Promise<PlayResult> } {
  const rules = RULES[o.game];
  const random = rng(o.seed);
  const latencies: number[] = [];
  const refusals: Record<string, number> = {};
  const errorsByKind: Record<string, number> = {};
  const error = (kind: string) => void (errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1);
  let games = 0;
  let measuring = false;
  let stopped = false;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let cpuAtStart: NodeJS.CpuUsage | null = null;
  /** Each seat in play, by the way to end it. */
  const seats = new Set<() => void>();

  const spread = !isIPv6(new URL(o.url).hostname.replace(/^\[|\]$/g, ''));
  let addresses = 0;
  /** Where a new match's calls and sockets come from: an address of its own (IPv4 loopback). */
  const from = (): { localAddress?: string; family?: number } => (spread ? { localAddress: sourceAddress(o.worker + o.workers * addresses++), family: 4 } : {});

  // node:http rather than fetch: fetch cannot choose its source address.
  const post = (path: string, body: unknown, src: ReturnType<typeof from>) =>
    new Promise<Record<string, string>>((resolve, reject) => {
      const req = http.request(`${o.url}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' }, ...src }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new SetupError(`setup-http-${res.statusCode}`));
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new SetupError('setup-bad-answer'));
          }
        });
        res.on('error', () => reject(new SetupError('setup-network')));
      });
      req.on('error', (e: NodeJS.ErrnoException) => reject(new SetupError(e.code === 'ECONNREFUSED' ? 'setup-refused' : 'setup-network')));
      req.end(JSON.stringify(body));
    });

  /** One seat's client; resolves when the game is over (or the run stops). */
  const seat = (matchID: string, playerID: PlayerID, credentials: string, synced: () => void, src: ReturnType<typeof from>) =>
    new Promise<void>((resolve) => {
      // localAddress and family reach ws through engine.io-client.
      const s = io(`${o.url}/${o.game}`, { transports: ['websocket'], forceNew: true, query: { [MATCH_QUERY]: matchID }, reconnectionDelay: 200, reconnectionDelayMax: 1000, ...src } as never);
      let state: State | null = null;
      let pending: { stateID: number; at: number; timer: ReturnType<typeof setTimeout> } | null = null;
      let waiting: ReturnType<typeof setTimeout> | null = null;
      let firstSync = true;
      let lastChoice = '';
      const finish = () => {
        clearTimeout(pending?.timer);
        if (waiting) clearTimeout(waiting);
        seats.delete(finish);
        s.close();
        resolve();
      };
      seats.add(finish);
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
            // No answer in time: count it and try again on a fresh sync.
            if (stopped) return;
            error('move-timeout');
            pending = null;
            s.emit('sync', matchID, playerID, credentials, 2);
          }, MOVE_TIMEOUT_MS);
          pending = { stateID, at: performance.now(), timer };
          lastChoice = JSON.stringify(choice);
          s.emit('update', { type: 'MAKE_MOVE', payload: { type: choice.move, args: choice.args, playerID, credentials } }, stateID, matchID, playerID);
        };
        if (o.paced) waiting = setTimeout(send, o.paced[0] + random() * (o.paced[1] - o.paced[0]));
        else send();
      };
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
          error('patch-failed');
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
      s.on('connect_error', (e: Error & { type?: string; description?: { message?: string } }) => error(connectErrorKind(e)));
      s.on('disconnect', (reason) => {
        if (stopped || reason === 'io client disconnect') return;
        error(reason === 'io server disconnect' ? 'disconnect-by-server' : 'disconnect');
      });
    });

  // Matches being opened at once (from create until both seats have synced), per process: a server
  // opens them as fast as it can answer, never a stampede it cannot (the load measures play, and errors
  // while opening are the generator's doing). A first sync that never comes frees the place after 30 s.
  let openingNow = 0;
  const queued: (() => void)[] = [];
  const admit = () => (openingNow < OPEN_AT_ONCE ? (openingNow++, Promise.resolve()) : new Promise<void>((r) => queued.push(r)));
  const leave = () => {
    const next = queued.shift();
    if (next) next();
    else openingNow--;
  };

  /** Keeps one match in play until the run stops: a finished match is replaced by a new one. */
  const slot = async (ready: () => void) => {
    let first = true;
    while (!stopped) {
      await admit();
      let admitted = true;
      const done = () => {
        if (!admitted) return;
        admitted = false;
        clearTimeout(giveUp);
        leave();
      };
      const giveUp = setTimeout(done, 30_000);
      try {
        const src = from();
        const { matchID } = await post(`/games/${o.game}/create`, { numPlayers: 2 }, src);
        const a = await post(`/games/${o.game}/${matchID}/join`, { playerID: '0', playerName: 'Load A' }, src);
        const b = await post(`/games/${o.game}/${matchID}/join`, { playerID: '1', playerName: 'Load B' }, src);
        if (typeof matchID !== 'string' || typeof a.playerCredentials !== 'string' || typeof b.playerCredentials !== 'string') throw new SetupError('setup-bad-answer');
        let n = 0;
        const synced = () => {
          if (++n !== 2) return;
          done();
          if (first) {
            first = false;
            ready();
          }
        };
        await Promise.all([seat(matchID, '0', a.playerCredentials, synced, src), seat(matchID, '1', b.playerCredentials, synced, src)]);
        if (!stopped) games++;
      } catch (e) {
        done();
        if (stopped) break;
        error(e instanceof SetupError ? e.kind : 'setup-network');
        await new Promise((r) => setTimeout(r, 500));
      }
      done();
    }
  };

  let readyCount = 0;
  let allReady: () => void = () => {};
  const ready = new Promise<void>((r) => (allReady = r));
  const slots: Promise<void>[] = [];
  const open = async () => {
    for (let i = 0; i < o.matches && !stopped; i++) {
      slots.push(
        slot(() => {
          if (++readyCount === o.matches) allReady();
        }),
      );
      // Open matches a few at a time rather than all in one burst: 20 every 50 ms over all the processes.
      if (i % 20 === 19) await new Promise((r) => setTimeout(r, 50 * o.workers));
    }
  };
  const opening = open();
  if (o.matches === 0) allReady();

  /** Stops counting (latencies, this process's loop and CPU) and keeps what was counted; play goes on until stop(). */
  let ended: Counted | null = null;
  const end = (): Counted => {
    if (ended) return ended;
    measuring = false;
    loop.disable();
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const used = process.cpuUsage(cpuAtStart ?? undefined);
    ended = { loopDelay: { p99: ms(loop.percentile(99)), max: ms(loop.max) }, cpuSeconds: cpuAtStart ? Math.round((used.user + used.system) / 1e4) / 100 : 0 };
    return ended;
  };

  return {
    ready,
    measure: () => {
      measuring = true;
      loop.enable();
      cpuAtStart = process.cpuUsage();
    },
    end,
    async stop() {
      const { loopDelay, cpuSeconds } = end();
      stopped = true;
      await opening;
      for (const finish of seats) finish();
      await Promise.race([Promise.all(slots), new Promise((r) => setTimeout(r, 5000))]);
      return { latencies, errorsByKind, refusals, games, loop: loopDelay, cpuSeconds };
    },
  };
}
