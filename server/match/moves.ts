/**
 * The move path (docs/ARCHITECTURE.md "The move path"), as boardgame.io's master reads: load the match
 * (memory), authenticate the seat, ask the engine once for its own option, apply it (game/advance.ts),
 * commit it through the door (commit.ts: one write that storage refuses if the head or the seats moved
 * on, then memory, delivery, the other processes, the watchers). Everything for one match runs in that
 * match's queue. The server's own moves that end a game when a seat goes (exits) take the same path.
 */
import type { State } from 'boardgame.io';
import { advanceMove, checkMove, SERVER_MOVES, settingsFrom, type PlayerID, type WatergateState } from '../../game/index';
import { openSeat, roleText, seatEntry, type GuardError } from '../../protocol/index';
import { authenticateCredentials } from '../auth';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import type { MatchData } from '../storage/types';
import { afterMove, expired } from './clock';
import type { CommitDoor } from './commit';
import { endingFor } from './ending';
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
  door: CommitDoor;
  log: Logger;
  metrics?: Metrics;
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
      out = await e.run(() => {
        this.o.metrics?.movePhase.observe({ phase: 'queue' }, (performance.now() - t0) / 1000);
        return this.inQueue(e, req);
      });
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
  get stopped(): boolean {
    return this.stopping;
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
    // A decision made on a state that moved on is refused; giving up is not a decision about the state, so
    // a resignation sent while the opponent's move landed still resigns (else the player's "Resign" is lost).
    if (req.stateID !== null && req.stateID !== state._stateID && req.type !== 'resign')
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

    // The server's own moves (the clock, an exit) are never a client's to make.
    if ((SERVER_MOVES as readonly string[]).includes(req.type) && (req.credentials !== null || req.type !== 'timeout')) return { matchID, type: 'invalid-move', message: `${req.type} is the server's move` };
    // Giving up and the clock running out end the game as ending.ts says (in a rated match before both
    // sides decided: an abort, not a loss).
    const end = req.type === 'resign' || req.type === 'timeout' ? endingFor(e.metadata, state, e.log.entries(), playerID, req.type) : null;
    let move: { seat: PlayerID; type: string; arg?: unknown } = { seat: playerID, type: req.type, arg: req.arg };
    if (end && end.type !== req.type) {
      // What was asked must be a move the rules allow before the server makes its own of it.
      const why = checkMove(state.G, playerID, req.type, req.arg);
      if (why) return { matchID, type: 'invalid-move', message: why };
      move = end;
    }
    const out = await this.commit(e, move, req.credentials === null);
    if (out === 'stale') {
      // Only the seats changed (a join, a rename): the same move on the same state may go through.
      if (attempt === 0 && e.state._stateID === state._stateID && memory.holds(e)) return this.inQueue(e, req, 1);
      return { matchID, type: 'stale', message: 'another move was saved first: resyncing' };
    }
    return out;
  }

  /**
   * A seat leaves its match or is found away past the abandon limit (the Lobby's leave and standIn
   * routes, an account deleted): the server move ending.ts names for it, made through the door, or
   * nothing when the game goes on. `credentials`: the leaver's, checked here (null: the server checked
   * who asks). `still`: checked again in the match's queue against the current seats (why not, or null).
   */
  async exit(matchID: string, seat: PlayerID, exit: 'leave' | 'abandon' | 'absent', credentials: string | null, still?: (m: MatchData) => string | null): Promise<{ ended: boolean } | GuardError> {
    const e = await this.o.memory.open(matchID);
    if (!e) return { matchID, type: 'not-found', message: `match ${matchID} not found` };
    return e.run(async () => {
      const memory = this.o.memory;
      await memory.refresh(e);
      e.doubt = false;
      if (!memory.holds(e)) return { matchID, type: 'stale', message: 'the match was reloaded from storage: try again' } as GuardError;
      if (credentials !== null && !authenticateCredentials(credentials, seatEntry(e.metadata.players, seat)))
        return { matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${seat}` } as GuardError;
      const why = still?.(e.metadata);
      if (why) return { matchID, type: 'invalid-move', message: why } as GuardError;
      const end = endingFor(e.metadata, e.state as State<WatergateState>, e.log.entries(), seat, exit);
      if (!end) return { ended: false };
      const out = await this.commit(e, end, true);
      if (out === 'stale') return { matchID, type: 'stale', message: 'the game moved on meanwhile: try again' } as GuardError;
      if (out) return out;
      this.o.log.info({ matchID, seat, exit, ending: end.type }, 'the game ended by an exit');
      return { ended: true };
    });
  }

  /**
   * Check, apply, commit: the engine says whether and why not, and which of its own options the argument
   * is — that option, never the sender's object, is applied, stored, logged, sent and replayed; advance
   * uses it without asking the rules again, and boardgame.io's ctx follows from the engine's state; the
   * commit door writes and delivers it.
   */
  private async commit(e: Entry, m: { seat: PlayerID; type: string; arg?: unknown }, auto: boolean): Promise<GuardError | null | 'stale'> {
    const { matchID } = e;
    const state = e.state as State<WatergateState>;
    const te = performance.now();
    const moved = advanceMove(state, m.seat, m.type, m.arg);
    this.o.metrics?.movePhase.observe({ phase: 'engine' }, (performance.now() - te) / 1000);
    if ('error' in moved) return { matchID, type: 'invalid-move', message: moved.error };
    const clock = clockAfter(e.metadata, m.seat, moved.state, Date.now());
    try {
      return (await this.o.door.state(e, { prev: state, next: moved.state, action: moved.action, log: moved.deltalog, auto, clock })) === 'stale' ? 'stale' : null;
    } catch (err) {
      if (storageDown(err)) {
        this.o.log.warn({ matchID, err: (err as Error).message }, (err as { busy?: boolean }).busy ? 'move not saved: storage busy' : 'move not saved: storage unavailable');
        return unavailable(matchID);
      }
      // Not an outage: trying again would not help; the client is resynced instead.
      this.o.log.error({ err, matchID }, 'move not saved');
      return { matchID, type: 'server-error', message: 'the server could not save this move: resyncing' };
    }
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
