/**
 * How a match ends when a player gives up or goes (pure; docs/RATINGS.md "No free exits"). The one place
 * that says what resigning, running out of time, leaving, deleting an account and being away past the
 * abandon limit mean for the game — and so for the ratings, which follow the game's `ctx.gameover` and
 * nothing else (ratings/rules.ts). The commit door (commit.ts) asks it and makes the server move it names.
 *
 * A rated match that both seats have taken:
 * - before each side has made its first decision, any exit aborts the game (no winner, unrated, and the
 *   record says which side had not decided): nobody gains or loses a rating over a deal nobody played;
 * - after it, leaving or deleting the account loses (`forfeit: left`), being away past the limit loses
 *   (`forfeit: abandoned`, never a stand-in: the computer does not play rated games), running out of time
 *   loses whatever the clock's `onTimeout` says, and resigning is a resignation.
 * Any other match: resigning and the clock mean what they always did; leaving frees the seat (someone else
 * may take it) and the abandon limit hands the seat to the computer — the game goes on.
 */
import type { LogEntry, State } from 'boardgame.io';
import { MOVE_NAMES, type ForfeitReason, type PlayerID, type WatergateState } from '../../game/index';
import { openSeat } from '../../protocol/index';
import type { MatchData } from '../storage/types';

/**
 * Why a seat stops playing. `absent`: an event's game not started within its round's limit
 * (server/events/): the side that had not made its first decision forfeits — rated or not, because an
 * event's round cannot wait, and an abort would score nobody.
 */
export type Exit = 'resign' | 'timeout' | 'leave' | 'abandon' | 'absent';

/** The server move that ends the game, made for `seat`; null: the game goes on without one. */
export type Ending = { seat: PlayerID; type: 'resign' | 'timeout' } | { seat: PlayerID; type: 'forfeit'; arg: ForfeitReason } | { seat: PlayerID; type: 'abort' };

/** The moves that are a player's decision (answering the game), not giving up or the server's. */
const DECISIONS: ReadonlySet<string> = new Set(MOVE_NAMES.filter((m) => m !== 'resign'));

/** The first side (Editor first) that has not made a decision of its own in this record of moves, or null. */
export function undecidedSide(log: readonly LogEntry[]): PlayerID | null {
  const decided = { '0': false, '1': false };
  for (const entry of log) {
    const a = entry.action;
    if (a.type !== 'MAKE_MOVE' || !DECISIONS.has(a.payload.type)) continue;
    const p = a.payload.playerID as PlayerID;
    if (p === '0' || p === '1') decided[p] = true;
    if (decided['0'] && decided['1']) return null;
  }
  return !decided['0'] ? '0' : '1';
}

/**
 * What `exit` of `seat` does to the game of a match (`log`: its moves so far). Null: no move ends it —
 * a leave or an abandon then changes only the seats (free seat, stand-in), and a game already over or
 * not started is not touched.
 */
export function endingFor(m: MatchData, state: State<WatergateState>, log: readonly LogEntry[], seat: PlayerID, exit: Exit): Ending | null {
  if (state.ctx.gameover !== undefined) return null;
  if (exit === 'absent') {
    const undecided = openSeat(Object.values(m.players)) === null ? undecidedSide(log) : null;
    return undecided === null ? null : { seat: undecided, type: 'forfeit', arg: 'abandoned' };
  }
  if (openSeat(Object.values(m.players)) !== null) return exit === 'resign' || exit === 'timeout' ? { seat, type: exit } : null;
  if (!m.rated) return exit === 'resign' || exit === 'timeout' ? { seat, type: exit } : null;
  const undecided = undecidedSide(log);
  if (undecided !== null) return { seat: undecided, type: 'abort' };
  if (exit === 'leave') return { seat, type: 'forfeit', arg: 'left' };
  if (exit === 'abandon') return { seat, type: 'forfeit', arg: 'abandoned' };
  return { seat, type: exit };
}
