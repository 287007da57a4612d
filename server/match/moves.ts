/**
 * The move path (docs/ARCHITECTURE.md "The move path"), as boardgame.io's master reads: load the match
 * (memory), authenticate the seat, ask the engine once for its own option, apply it (game/advance.ts),
 * commit one write that storage refuses if the head or the seats moved on, deliver. Everything for one
 * match runs in that match's queue.
 */
import type { State } from 'boardgame.io';
import { advanceMove, settingsFrom, type PlayerID, type WatergateState } from '../../game/index';
import { openSeat, roleText, seatEntry, type GuardError } from '../../protocol/index';
import { authenticateCredentials } from '../auth';
import type { Bus } from '../bus/index';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { StaleStateError } from '../storage/errors';
import type { MatchData, MatchStore } from '../storage/types';
import { afterMove, expired } from './clock';
import { storageDown, unavailable, type Entry, type MatchMemory } from './memory';

export interface MoveRequest {
  matchID: string;
  playerID: PlayerID;
  /** The seat's credentials; null when the server itself plays the seat (a bot, a clock running out). */
  credentials: string | null;
  type: string;
  arg: unknown;
  /** The state the mover saw (a client's _stateID); null: the current one. */
  stateID: number | null;
  /** The computer moves for the seat: refused unless the seat is the server's bot or stand-in right now. */
  bot?: boolean;
}

/** Whether the computer plays this seat now: a vs-computer seat, or a stand-in for its owner. */
export const botPlays = (m: MatchData, seat: PlayerID): boolean =>
  m.standIns?.[seat as '0' | '1'] !== undefined || (seatEntry(m.players, seat)?.data as { bot?: unknown } | undefined)?.bot !== undefined;

/**
 * The most a move's argument may weigh, as JSON: every legal option is far smaller (a few tokens and
 * spaces), so anything bigger is refused before it costs the engine or the queue any work.
 */
export const MAX_MOVE_ARG_CHARS = 1024;

/** A move argument's size as JSON, or Infinity when it is not plain data. */
function argChars(arg: unknown): number {
  try {
    return arg === undefined ? 0 : (JSON.stringify(arg)?.length ?? Infinity);
  } catch {
    return Infinity;
  }
}

export interface MovePathOptions {
  memory: MatchMemory;
  store: MatchStore;
  bus: Bus;
  log: Logger;
  metrics?: Metrics;
  /** Store a whole snapshot every this many moves (and at the end); 1 = every move. */
  snapshotEvery: number;
  /** Counts a refusal (metrics) and returns it. */
  refuse(r: GuardError): GuardError;
}

export class MovePath {
  private stopping = false;

  constructor(private readonly o: MovePathOptions) {}

  /** One move; resolves to null when saved and delivered, or to the refusal. */
  async move(req: MoveRequest): Promise<GuardError | null> {
    const t0 = performance.now();
    const { matchID } = req;
    if (this.stopping) return this.o.refuse({ matchID, type: 'server-error', message: 'the server is shutting down: try again in a moment' });
    if (argChars(req.arg) > MAX_MOVE_ARG_CHARS) return this.o.refuse({ matchID, type: 'bad-request', message: `a move's argument is at most ${MAX_MOVE_ARG_CHARS} characters of JSON` });
    let out: GuardError | null;
    try {
      const e = await this.o.memory.open(matchID);
      if (!e) return this.o.refuse({ matchID, type: 'not-found', message: `match ${matchID} not found` });
      e.lastUsed = Date.now();
      out = await e.run(() => this.inQueue(e, req));
    } catch (err) {
      if (!storageDown(err)) throw err;
      out = unavailable(matchID);
    }
    if (out) return this.o.refuse(out);
    this.o.metrics?.moves.inc();
    this.o.metrics?.moveSeconds.observe((performance.now() - t0) / 1000);
    return null;
  }

  /** No new moves from now on (shutdown). */
  stop(): void {
    this.stopping = true;
  }

  private async inQueue(e: Entry, req: MoveRequest, attempt = 0, seatsChecked = false): Promise<GuardError | null> {
    const { matchID, playerID } = req;
    const memory = this.o.memory;
    const reloaded: GuardError = { matchID, type: 'stale', message: 'the match was reloaded from storage: resyncing' };
    // Load: the match as this memory holds it, checked against storage first if a write left it in doubt.
    if (!memory.holds(e)) return { matchID, type: 'not-found', message: `match ${matchID} not found` };
    if (e.doubt) {
      await memory.refresh(e);
      e.doubt = false;
      if (!memory.holds(e)) return reloaded;
    }
    // Authenticate: the seat's credentials now, on the state the mover saw.
    if (req.credentials !== null && !authenticateCredentials(req.credentials, seatEntry(e.metadata.players, playerID)))
      return { matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${playerID}` };
    const state = e.state as State<WatergateState>;
    if (req.stateID !== null && req.stateID !== state._stateID)
      return { matchID, type: 'stale', message: `your state ${req.stateID} is out of date (now ${state._stateID}): resyncing` };
    if (state.ctx.gameover !== undefined) return { matchID, type: 'invalid-move', message: 'the game is over' };
    // The computer's move for a seat its owner took back meanwhile, or a clock that no longer runs out.
    if (req.bot && !botPlays(e.metadata, playerID)) return { matchID, type: 'stale', message: 'the computer no longer plays this seat' };
    // While the computer stands in, the owner keeps its seat's view and chat but not its moves (two
    // movers for one seat would race): taking the seat back is the way to play again.
    if (!req.bot && req.credentials !== null && e.metadata.standIns?.[playerID as '0' | '1'])
      return { matchID, type: 'invalid-move', message: `the computer is playing ${roleText(playerID)} for you: take your seat back to move` };
    if (req.type === 'timeout' && (req.credentials !== null || !expired(e.metadata.clock, state._stateID, Date.now())))
      return { matchID, type: 'invalid-move', message: 'the clock has not run out' };
    // Play starts only when both seats are taken (a resign too: there is nobody to resign to).
    const open = openSeat(Object.values(e.metadata.players));
    if (open !== null) {
      if (seatsChecked) return { matchID, type: 'invalid-move', message: `the game starts when both seats are taken: waiting for ${roleText(open)}` };
      // This memory may not have heard of a join in another process yet: look at storage once first.
      await memory.refresh(e);
      if (!memory.holds(e)) return reloaded;
      return this.inQueue(e, req, attempt, true);
    }

    // Check: the engine says whether and why not, and which of its own options the argument is — that
    // option, never the sender's object, is applied, stored, logged, sent and replayed. Apply: advance
    // uses it without asking the rules again, and boardgame.io's ctx follows from the engine's state.
    const moved = advanceMove(state, playerID, req.type, req.arg);
    if ('error' in moved) return { matchID, type: 'invalid-move', message: moved.error };
    const { action, state: next, deltalog } = moved;

    // Commit: one write, refused if another process moved or the seats changed since this memory was current.
    const gameover = next.ctx.gameover;
    const snapshot = gameover !== undefined || e.sinceSnapshot + 1 >= this.o.snapshotEvery;
    const updatedAt = Date.now();
    const clock = clockAfter(e.metadata, playerID, next, updatedAt);
    try {
      // `auto`: the server's own move for the seat (the computer, a stand-in, the clock), no decision of its player.
      await this.o.store.commitMove(matchID, { prevStateID: state._stateID, seatsVersion: e.seatsVersion, state: next, action, log: deltalog, updatedAt, gameover, snapshot, clock, auto: req.credentials === null });
    } catch (err) {
      if (!(err instanceof StaleStateError)) {
        // Saved or not, nothing is applied here: the stored head says which, before anything else.
        this.doubt(e);
        if (storageDown(err)) {
          this.o.log.warn({ matchID, err: (err as Error).message }, 'move not saved: storage unavailable');
          return unavailable(matchID);
        }
        // Not an outage: trying again would not help; the client is resynced instead.
        this.o.log.error({ err, matchID }, 'move not saved');
        return { matchID, type: 'server-error', message: 'the server could not save this move: resyncing' };
      }
      this.o.log.warn({ matchID, stored: err.stored, attempted: err.attempted }, 'stale write refused');
      this.o.metrics?.staleWrites.inc();
      await memory.refresh(e);
      // Only the seats changed (a join, a rename): the same move on the same state may go through.
      if (attempt === 0 && e.state._stateID === state._stateID && memory.holds(e)) return this.inQueue(e, req, 1);
      return { matchID, type: 'stale', message: 'another move was saved first: resyncing' };
    }

    // Deliver: this memory, the sockets here, the other processes (ids only), the watchers.
    e.state = next;
    e.line.push(next, { action, auto: req.credentials === null, clock: e.metadata.clock ?? null });
    e.log.push(...deltalog);
    e.sinceSnapshot = snapshot ? 0 : e.sinceSnapshot + 1;
    e.metadata = { ...e.metadata, updatedAt, ...(gameover !== undefined ? { gameover } : {}), ...(clock ? { clock } : {}) };
    memory.delivery?.update(matchID, next, deltalog, state, e.metadata);
    this.o.bus.publish({ t: 'move', matchID, stateID: next._stateID });
    memory.emit(e, 'move');
    return null;
  }

  /** Marks the entry as possibly behind storage and rereads the head once storage answers again. */
  private doubt(e: Entry): void {
    if (e.doubt) return;
    e.doubt = true;
    const settle = () => {
      if (!e.doubt || this.stopping || !this.o.memory.holds(e)) return;
      void e
        .run(async () => {
          if (!e.doubt) return;
          await this.o.memory.refresh(e);
          e.doubt = false;
        })
        .catch(() => setTimeout(settle, 1000).unref());
    };
    setTimeout(settle, 1000).unref();
  }
}

/**
 * A timed match's clock after a move at `now` (undefined for an untimed one, or one whose clock has not
 * started): the mover's decision is charged and earns the increment, the next decider's runs.
 */
function clockAfter(m: MatchData, mover: PlayerID, next: State<WatergateState>, now: number) {
  const setting = settingsFrom(m.setupData as never).clock;
  if (!setting || !m.clock) return undefined;
  const decider = next.ctx.gameover === undefined ? (next.G.prompt?.player ?? null) : null;
  return afterMove(m.clock, setting, mover, decider, next._stateID, now);
}
