/**
 * Who is signed in, as this browser remembers it for the header and the pages (the username only: the
 * session itself is an HttpOnly cookie no script can read), and the account's seats brought into this
 * browser's seats, so any device opens the account's matches.
 */
import { useEffect, useState } from 'react';
import { dropSeat, holdSeat, heldSeats, saveName, type HeldSeat } from '../lobby/seats';

const KEY = 'watergate.account';
/** The matches whose seats came from the account (not held here as a guest): forgotten at sign-out. */
const FROM_ACCOUNT = 'watergate.accountSeats';
const listeners = new Set<(u: string | null) => void>();

export const signedInAs = (): string | null => localStorage.getItem(KEY);

export function rememberAccount(username: string | null): void {
  if (username) {
    localStorage.setItem(KEY, username);
    saveName(username); // the forms offer it (a signed-in player sits under the username anyway)
  } else {
    // Signed out: this browser keeps no seat of the account (a shared computer).
    if (localStorage.getItem(KEY)) for (const id of fromAccount()) dropSeat(id);
    localStorage.removeItem(KEY);
    localStorage.removeItem(FROM_ACCOUNT);
  }
  for (const fn of listeners) fn(username);
}

/** The username signed in here (null when signed out), following sign-ins and sign-outs on this page. */
export function useAccount(): string | null {
  const [u, setU] = useState(signedInAs);
  useEffect(() => {
    listeners.add(setU);
    return () => void listeners.delete(setU);
  }, []);
  return u;
}

function fromAccount(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(FROM_ACCOUNT) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Brings the account's seats into this browser's seats (the server gives their credentials to the account
 * only) and says which seats held here as a guest the account does not have yet.
 */
export async function syncSeats(also?: string): Promise<{ guestSeats: HeldSeat[] }> {
  const { myMatches } = await import('./api');
  const all = (await myMatches()).matches;
  // Finished matches stay on the profile (with their replays); only `also` (the match page asking) is held when over.
  const matches = all.filter((m) => !m.over || m.matchID === also);
  const guest = new Set(heldSeats().map((s) => s.matchID).filter((id) => !fromAccount().includes(id)));
  for (const m of matches) holdSeat({ matchID: m.matchID, playerID: m.playerID, credentials: m.playerCredentials, name: m.name });
  localStorage.setItem(FROM_ACCOUNT, JSON.stringify(matches.filter((m) => !guest.has(m.matchID)).map((m) => m.matchID)));
  const theirs = new Set(all.map((m) => m.matchID));
  return { guestSeats: heldSeats().filter((s) => !theirs.has(s.matchID)) };
}
