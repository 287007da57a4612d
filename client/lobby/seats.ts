/**
 * The seats this browser holds: match id → { playerID, credentials }, kept in localStorage so a reload
 * (or coming back later) rejoins the same seat. The player's name is remembered too.
 */
import type { PlayerID } from '../../game';
import { checkName } from '../../protocol/names';

export interface HeldSeat {
  matchID: string;
  playerID: PlayerID;
  credentials: string;
  name: string;
}

const SEATS = 'watergate.seats';
const NAME = 'watergate.name';

function read(): Record<string, HeldSeat> {
  try {
    const raw = JSON.parse(localStorage.getItem(SEATS) ?? '{}');
    return raw && typeof raw === 'object' ? raw : {};
  } catch {
    return {};
  }
}

export const heldSeats = (): HeldSeat[] => Object.values(read());
export const seatFor = (matchID: string): HeldSeat | undefined => read()[matchID];

export function holdSeat(seat: HeldSeat): void {
  const all = read();
  all[seat.matchID] = seat;
  localStorage.setItem(SEATS, JSON.stringify(all));
}

export function dropSeat(matchID: string): void {
  const all = read();
  delete all[matchID];
  localStorage.setItem(SEATS, JSON.stringify(all));
}

export const savedName = (): string => localStorage.getItem(NAME) ?? '';
export const saveName = (name: string): void => localStorage.setItem(NAME, name);

/** The name as the server will take it (the same rule, protocol/names.ts), or the message key saying why not. */
export function formName(raw: string): { name: string } | { error: string } {
  const c = checkName(raw);
  if ('name' in c) return c;
  return { error: raw.trim() === '' ? 'lobby.nameNeeded' : `lobby.nameRefused.${c.code}` };
}
