/**
 * A match's clock as pure functions over plain data (docs/ARCHITECTURE.md "Clocks and stand-ins"). The clock lives
 * with the match (metadata.clock, rewritten in the same write as each move), so any process can tell
 * when it runs out, also after a restart; server/match/clocks.ts arms the timers.
 *
 * Only the player the game waits for loses time (whoever the prompt names: plays, answers, reactions,
 * pins), from the moment the decision became theirs; each decision of that player adds the increment.
 */
import { settingsFrom, type ClockSetting, type PlayerID, type SetupData } from '../../game/index';
import { timeLeft, type MatchClock } from '../../protocol/index';

export { timeLeft };

const seatKey = (p: PlayerID) => p as '0' | '1';

/** The clock when play starts (both seats taken): the first decider's time runs from `now`. */
export function startClock(setting: ClockSetting, decider: PlayerID | null, stateID: number, now: number): MatchClock {
  const full = setting.initialSeconds * 1000;
  return run({ remaining: { '0': full, '1': full }, running: null, since: now, stateID, deadline: null }, decider, stateID, now);
}

/** `running` starts its decision at `now` (nobody: the clock stops). */
function run(c: MatchClock, running: PlayerID | null, stateID: number, now: number): MatchClock {
  const r = running === null ? null : seatKey(running);
  return { ...c, running: r, since: now, stateID, deadline: r === null ? null : now + Math.max(0, c.remaining[r]) };
}


/**
 * After `mover`'s move at `now`, the game waits for `next` (null: nobody, the game is over) in state
 * `stateID`. The running seat is charged its time; a decision of the running seat earns the increment
 * (a resign by the other seat earns nothing). Time never goes below zero.
 */
export function afterMove(c: MatchClock, setting: ClockSetting, mover: PlayerID, next: PlayerID | null, stateID: number, now: number): MatchClock {
  const remaining = { ...c.remaining };
  if (c.running !== null) {
    remaining[c.running] = timeLeft(c, c.running, now);
    if (c.running === mover) remaining[c.running] += setting.incrementSeconds * 1000;
  }
  return run({ ...c, remaining }, next, stateID, now);
}

/** Whether the running seat's time is up at `now` for the state `stateID`. */
export function expired(c: MatchClock | undefined, stateID: number, now: number): c is MatchClock & { running: '0' | '1'; deadline: number } {
  return !!c && c.running !== null && c.deadline !== null && c.stateID === stateID && c.deadline <= now;
}

/**
 * The owner takes a seat back from the computer: at least TAKE_BACK_MS or the increment to decide in
 * (a clock that ran out would otherwise end the game at once, or hand the seat straight back).
 */
const TAKE_BACK_MS = 60_000;
export function takeBack(c: MatchClock, setting: ClockSetting, seat: PlayerID, now: number): MatchClock {
  const s = seatKey(seat);
  const floor = Math.max(TAKE_BACK_MS, setting.incrementSeconds * 1000);
  const remaining = { ...c.remaining };
  remaining[s] = Math.max(timeLeft(c, s, now), floor);
  // The running seat's charge so far is settled into `remaining` before restarting its decision.
  if (c.running !== null && c.running !== s) remaining[c.running] = timeLeft(c, c.running, now);
  return run({ ...c, remaining }, c.running, c.stateID, now);
}

/** A timed match whose seats are both taken but whose clock has not started yet. */
export function clockToStart(m: { setupData?: unknown; clock?: MatchClock; gameover?: unknown; players: Record<number, { name?: string }> }): boolean {
  return settingsFrom(m.setupData as SetupData | undefined).clock !== null && !m.clock && m.gameover === undefined && Object.values(m.players).every((p) => !!p.name);
}
