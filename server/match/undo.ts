/**
 * Take-backs on the server (docs/ARCHITECTURE.md "Take-backs"): the engine says what a seat may take
 * back (game/undo.ts, over the match's line of play, line.ts); this room asks for the opponent's consent
 * when the match wants it, and moves the match back to the earlier position through the commit door
 * (commit.ts) like a move — ONE durable write: a new state id holding the earlier state, a move row
 * saying it was a take-back, a snapshot of it, the clocks as they were at that position — delivered to
 * this process's boards, the other processes and the watchers (the bot thinks from its seat's view of
 * the state as it now is, and never takes back). Everything runs in the match's queue, so a take-back
 * cannot race a move.
 */
import type { LogEntry, State } from 'boardgame.io';
import { settingsFrom, type PlayerID, type WatergateState } from '../../game/index';
import { restoredAs, undoAction, undoPlan } from '../../game/undo';
import { botLevelOf, openSeat, seatEntry, TAKE_BACK_WAIT_MS, timeLeft, type MatchClock, type TakeBackMode, type TakeBackReason, type TakeBackRequest, type TakeBackStatus, type UndoResponse } from '../../protocol/index';
import { authenticateCredentials } from '../auth';
import type { Logger } from '../log';
import type { MatchData, MatchStore } from '../storage/types';
import type { CommitDoor } from './commit';
import { PlayLine } from './line';
import { storageDown, type Entry, type MatchMemory, type MatchView } from './memory';
import { replay } from './replay';

/** A seat asks to take back its last decision (`accept` null), or answers the opponent's request. */
export interface UndoRequest {
  matchID: string;
  playerID: PlayerID;
  credentials: string;
  /** The state the asker saw; null: the current one. */
  stateID: number | null;
  accept: boolean | null;
}

export type UndoOutcome = { status: 200 | 202 | 409; body: UndoResponse } | { status: 403 | 404 | 503; error: string };

/** The seat the server's bot was created for (a vs-computer match), if any. */
export function computerSeat(m: MatchData): PlayerID | null {
  for (const s of ['0', '1'] as const) if (botLevelOf(seatEntry(m.players, s))) return s;
  return null;
}

/** The match's take-back setting as it applies: off in a rated match; unset, free against the computer and with consent between people. */
export function takeBackMode(m: MatchData): TakeBackMode {
  if (m.rated) return 'off';
  return settingsFrom(m.setupData as never).takeBacks ?? (computerSeat(m) !== null ? 'free' : 'consent');
}

/** The server's words for each refusal (the board words them itself, from the reason). */
export const TAKE_BACK_MESSAGES: Record<TakeBackReason, string> = {
  none: 'you have no decision to take back',
  unknown: 'you have no decision to take back',
  opponent: 'your opponent has decided since your last decision',
  auto: 'the computer has decided for your seat since',
  ask: 'an ask cannot be taken back: its answer told you about the face-down tokens',
  hidden: 'a draw, a shuffle or something revealed came after your decision',
  chance: "the computer's reply drew or shuffled: chance is not played again",
  off: 'take-backs are off in this match',
  over: 'the game is over',
  waiting: 'the game starts when both seats are taken',
  pending: 'a take-back request is already waiting for an answer',
  refused: 'your opponent refused to take back this position',
  stale: 'the game has moved on since the state you saw',
  standIn: 'the computer is playing your seat',
  computer: "the computer's seat never takes back",
  noRequest: 'there is no take-back request to answer',
  own: 'you cannot answer your own request',
};

const refuse = (reason: TakeBackReason): UndoOutcome => ({ status: 409, body: { error: TAKE_BACK_MESSAGES[reason], reason } });

/** The request kept with the match for `stateID`, if it still stands (a refusal stands until the next state). */
function requestOn(m: MatchData, stateID: number, now: number): TakeBackRequest | null {
  const r = m.takeBack;
  if (!r || r.stateID !== stateID) return null;
  return r.refused || now < r.at + TAKE_BACK_WAIT_MS ? r : null;
}

/**
 * The clock of a timed match taken back to a position: each seat's time as the taker's decision found
 * it (`found`, kept with the move row), the decider of that position running again from `now`. Rows
 * stored before the clock was kept with them: the time left now, the decider's running.
 */
function restoredClock(m: MatchData, found: MatchClock | null, restored: State<WatergateState>, now: number): MatchClock | undefined {
  const c = m.clock;
  if (!c || !settingsFrom(m.setupData as never).clock) return undefined;
  const remaining = found ? { ...found.remaining } : { '0': timeLeft(c, '0', now), '1': timeLeft(c, '1', now) };
  const running = (restored.G.prompt?.player ?? null) as '0' | '1' | null;
  return { remaining, running, since: now, stateID: restored._stateID, deadline: running === null ? null : now + Math.max(0, remaining[running]) };
}

export interface TakeBackOptions {
  memory: MatchMemory;
  door: CommitDoor;
  store: MatchStore;
  log: Logger;
}

export class TakeBacks {
  constructor(private readonly o: TakeBackOptions) {
    // Whether a seat may take back changes with every move: the boards hear it with the match's status.
    o.memory.onState((m) => this.moved(m));
  }

  private moved(m: MatchView): void {
    if (m.reason !== 'move' && m.reason !== 'news') return;
    // A move made here carried the status with its update; moves heard from another process did not.
    if (takeBackMode(m.metadata) !== 'off') return void (m.reason === 'news' && this.o.memory.delivery?.status(m.matchID, m.metadata));
    // Nothing will ever be taken back here: the line of play need not hold more than the state.
    const e = this.o.memory.get(m.matchID);
    if (e && e.line.steps.length > 1) e.line = new PlayLine(e.state, false);
  }

  /** What each seat may take back now in a match this process serves (for the status event), or undefined. */
  status(matchID: string): TakeBackStatus | undefined {
    const e = this.o.memory.get(matchID);
    if (!e) return undefined;
    const now = Date.now();
    const mode = takeBackMode(e.metadata);
    const request = requestOn(e.metadata, e.state._stateID, now);
    const why = { '0': this.why(e, '0', mode, request), '1': this.why(e, '1', mode, request) };
    return { mode, stateID: e.state._stateID, why, request: request && { ...request, expiresAt: request.at + TAKE_BACK_WAIT_MS } };
  }

  private why(e: Entry, seat: PlayerID, mode: TakeBackMode, request: TakeBackRequest | null): TakeBackReason | null {
    const m = e.metadata;
    if (mode === 'off') return 'off';
    if (e.state.ctx.gameover !== undefined) return 'over';
    if (openSeat(Object.values(m.players)) !== null) return 'waiting';
    const computer = computerSeat(m);
    if (seat === computer) return 'computer';
    if (m.standIns?.[seat]) return 'standIn';
    if (request && !request.refused) return 'pending';
    if (request?.refused && request.by === seat) return 'refused';
    const plan = undoPlan(e.line, seat, computer);
    if ('to' in plan) return null;
    if (plan.why === 'unknown') this.rebuildLater(e);
    return plan.why;
  }

  /** A seat's take-back request or answer (POST /games/watergate/:id/undo). */
  async ask(req: UndoRequest): Promise<UndoOutcome> {
    try {
      const e = await this.o.memory.open(req.matchID);
      if (!e) return { status: 404, error: `match ${req.matchID} not found` };
      e.lastUsed = Date.now();
      return await e.run(() => this.inQueue(e, req));
    } catch (err) {
      if (!storageDown(err)) throw err;
      return { status: 503, error: 'the server cannot reach its storage right now: try again in a moment' };
    }
  }

  private async inQueue(e: Entry, req: UndoRequest): Promise<UndoOutcome> {
    const { memory } = this.o;
    // The match as storage has it (another process may have moved), then the seat's credentials.
    if (memory.holds(e)) await memory.refresh(e);
    e.doubt = false;
    if (!memory.holds(e)) return refuse('stale');
    if (!authenticateCredentials(req.credentials, seatEntry(e.metadata.players, req.playerID))) return { status: 403, error: 'invalid credentials for this seat' };
    const m = e.metadata;
    const s = e.state;
    const mode = takeBackMode(m);
    if (s.ctx.gameover !== undefined) return refuse('over');
    if (mode === 'off') return refuse('off');
    if (openSeat(Object.values(m.players)) !== null) return refuse('waiting');
    if (req.stateID !== null && req.stateID !== s._stateID) return refuse('stale');
    const now = Date.now();
    const request = requestOn(m, s._stateID, now);
    const computer = computerSeat(m);

    if (req.accept !== null) {
      if (!request || request.refused) return refuse('noRequest');
      if (request.by === req.playerID) return refuse('own');
      if (!req.accept) {
        await this.keep(e, { ...request, refused: true });
        this.o.log.info({ matchID: e.matchID, by: request.by }, 'take-back refused by the opponent');
        return { status: 200, body: { refused: true } };
      }
      return this.takeBack(e, request.by, computer);
    }
    if (req.playerID === computer) return refuse('computer');
    if (m.standIns?.[req.playerID]) return refuse('standIn');
    if (request && !request.refused) return refuse('pending');
    if (request?.refused && request.by === req.playerID) return refuse('refused');
    const plan = await this.plan(e, req.playerID, computer);
    if ('why' in plan) return refuse(plan.why);
    if (mode === 'consent' && computer === null) {
      await this.keep(e, { by: req.playerID, stateID: s._stateID, at: now });
      return { status: 202, body: { pending: true } };
    }
    return this.takeBack(e, req.playerID, computer);
  }

  /** The engine's plan for `taker`, after reading the whole history once if the line held here is too short. */
  private async plan(e: Entry, taker: PlayerID, computer: PlayerID | null) {
    let plan = undoPlan(e.line, taker, computer);
    if ('why' in plan && plan.why === 'unknown') {
      await this.rebuild(e);
      plan = undoPlan(e.line, taker, computer);
    }
    return 'why' in plan && plan.why === 'unknown' ? { why: 'none' as const } : plan;
  }

  /** Keeps a request (or its refusal) with the match, under its lock, and tells every board. */
  private async keep(e: Entry, request: TakeBackRequest): Promise<void> {
    await this.o.door.metadata(e.matchID, (m) => ({ ...m, takeBack: request }), e);
  }

  /** Moves the match back to the position before `taker`'s last decision (and the computer's replies since). */
  private async takeBack(e: Entry, taker: PlayerID, computer: PlayerID | null): Promise<UndoOutcome> {
    const plan = await this.plan(e, taker, computer);
    if ('why' in plan) return refuse(plan.why);
    const { matchID } = e;
    const head = e.state as State<WatergateState>;
    const target = e.line.steps[plan.to].state;
    const found = e.line.steps[plan.to + 1].clock;
    const now = Date.now();
    const restored = restoredAs(target, head._stateID + 1);
    const action = undoAction(taker, target._stateID);
    const log = [{ action, _stateID: head._stateID, turn: head.ctx.turn, phase: head.ctx.phase } as LogEntry];
    const clock = restoredClock(e.metadata, found, restored, now);
    // A snapshot with it: a match loaded later starts at or after its last take-back (load never replays one).
    const out = await this.o.door.state(e, { prev: head, next: restored, action, log, auto: false, snapshot: true, clock });
    if (out === 'stale') return refuse('stale');
    this.o.log.info({ matchID, taker, from: head._stateID, to: target._stateID, stateID: restored._stateID }, 'taken back');
    return { status: 200, body: { stateID: restored._stateID } };
  }

  /**
   * The line of play read again from the start (the initial state and every stored move): after a load
   * from a snapshot, the line held here may not reach back to the taker's decision.
   */
  private async rebuild(e: Entry): Promise<void> {
    const m = await this.o.store.load(e.matchID, { initialState: true });
    if (!m?.initialState) return;
    const start = m.initialState;
    const rows = (await this.o.store.movesAfter(e.matchID, start._stateID)).filter((r) => r.stateID <= e.state._stateID);
    const line = new PlayLine(start, true);
    replay(start, rows, (s, _log, row) => line.push(s, row));
    if (line.head._stateID !== e.state._stateID) return;
    // All of the history was read: what the cap left out lies too far back to be taken back.
    line.origin = true;
    e.line = line;
  }

  private rebuildLater(e: Entry): void {
    if (e.line.rebuilding) return;
    e.line.rebuilding = true;
    void e
      .run(async () => {
        if (!this.o.memory.holds(e)) return;
        await this.rebuild(e);
        this.o.memory.delivery?.status(e.matchID, e.metadata);
      })
      .catch((err: unknown) => this.o.log.error({ err, matchID: e.matchID }, 'reading the line of play failed'));
  }
}
