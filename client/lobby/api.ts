/** boardgame.io's LobbyClient against the server this page came from (the Lobby REST API, same origin). */
import { LobbyClient } from 'boardgame.io/client';
import type { PlayerID } from '../../game';
import { NAME_REGISTERED } from '../../protocol/accounts';
import type { Level, MatchList, PlayAgainResponse, PublicMatch, VsComputerRequest, VsComputerResponse } from '../../protocol/index';
import { holdSeat, type HeldSeat } from './seats';

/** Levels the computer plays at (a type only: the bot's code stays on the server). */
export type { Level };

export const GAME = 'watergate';
export const lobby = new LobbyClient({ server: window.location.origin });

/** Joins a seat and remembers its credentials. */
export async function joinSeat(matchID: string, playerID: PlayerID, name: string): Promise<void> {
  const { playerCredentials } = await lobby.joinMatch(GAME, matchID, { playerID, playerName: name });
  holdSeat({ matchID, playerID, credentials: playerCredentials, name });
}

/** A refused call of ours (not through LobbyClient): the status, the server's JSON body, its Retry-After. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly details: unknown,
    readonly retryAfterSeconds: number | null,
  ) {
    super(`HTTP status ${status}`);
  }
}

async function apiError(res: Response): Promise<ApiError> {
  const text = await res.text();
  let details: unknown = text;
  try {
    details = JSON.parse(text);
  } catch {
    // not JSON: the text is the detail
  }
  const after = Number(res.headers.get('Retry-After'));
  return new ApiError(res.status, details, Number.isFinite(after) && after > 0 ? after : null);
}

/**
 * The wait the server asked for when it refused a call as too many from this address (429), in seconds;
 * null for any other failure. LobbyClient keeps only the body, which says it too (`retryAfter`).
 */
export function retryAfter(e: unknown): number | null {
  if (e instanceof ApiError) return e.status === 429 ? (e.retryAfterSeconds ?? 1) : null;
  if (!(e instanceof Error) || !/HTTP status 429/.test(e.message)) return null;
  const d = (e as { details?: { retryAfter?: unknown } }).details;
  const n = Number(d?.retryAfter);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/** Matches on one page of the list (the server allows up to 100). */
const PAGE = 50;

/** One page of the open matches, after the one whose `next` is given. */
export async function listOpen(after?: string): Promise<MatchList> {
  const q = new URLSearchParams({ isGameover: 'false', limit: String(PAGE), ...(after ? { after } : {}) });
  const res = await fetch(`${window.location.origin}/games/${GAME}?${q}`);
  if (!res.ok) throw await apiError(res);
  return (await res.json()) as MatchList;
}

/** A readable error from a failed lobby call (LobbyClient throws with the server's status and message). */
export function errorText(e: unknown): string {
  if (e && typeof e === 'object' && 'details' in e) {
    const d = (e as { details?: unknown }).details;
    if (d && typeof d === 'object' && 'error' in d) return String((d as { error: unknown }).error);
    if (typeof d === 'string' && d) return d;
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * "Play vs computer": the server creates an unlisted match with its bot already in the other seat
 * (marked `data.bot` in its seat), then this browser joins `humanSeat` like any other seat, credentials kept for rejoining.
 */
export async function playVsComputer(role: PlayerID, level: Level, name: string, hints = true): Promise<string> {
  const res = await fetch(`${window.location.origin}/games/${GAME}/vs-computer`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ botSeat: role === '0' ? '1' : '0', level, setupData: { hints } } satisfies VsComputerRequest),
  });
  if (!res.ok) throw await apiError(res);
  const { matchID, humanSeat } = (await res.json()) as VsComputerResponse;
  await joinSeat(matchID, humanSeat, name);
  return matchID;
}

/** Reads of a match under way, so that leaving it can call them off (`dropReads`). */
const reading = new Map<string, Set<AbortController>>();

/** One match as the server shows it to anyone, with whose decision it is (`toMove`). */
export async function getMatch(matchID: string): Promise<PublicMatch> {
  const ctl = new AbortController();
  const mine = reading.get(matchID) ?? new Set();
  reading.set(matchID, mine.add(ctl));
  try {
    return (await lobby.getMatch(GAME, matchID, { signal: ctl.signal })) as unknown as PublicMatch;
  } finally {
    mine.delete(ctl);
    if (mine.size === 0 && reading.get(matchID) === mine) reading.delete(matchID);
  }
}

/**
 * Calls off the reads of a match under way: a player leaving it may delete it (the last one gone), and a
 * read the server answers after that would be told 404 for a match this page no longer follows.
 */
export function dropReads(matchID: string): void {
  for (const ctl of reading.get(matchID) ?? []) ctl.abort();
  reading.delete(matchID);
}

/** The server does not know the match (any more). */
export const isGone = (e: unknown): boolean => e instanceof Error && /HTTP status 404/.test(e.message);

/** The server refused a seat because someone holds it (409). */
export const isTaken = (e: unknown): boolean => e instanceof Error && /HTTP status 409/.test(e.message);

/** The server refused a guest's name as a registered player's (protocol/accounts.ts NAME_REGISTERED). */
export const isRegisteredName = (e: unknown): boolean => errorText(e) === NAME_REGISTERED;

/**
 * "Play again" (or accepting the opponent's): the server seats this player in the next match — the other
 * role unless `swap` is false, or the seat left when the opponent asked first — and the seat is kept here.
 */
export async function playAgain(matchID: string, seat: HeldSeat, swap: boolean): Promise<string> {
  const r = (await lobby.playAgain(GAME, matchID, { playerID: seat.playerID, credentials: seat.credentials, swap } as never)) as unknown as PlayAgainResponse;
  holdSeat({ matchID: r.nextMatchID, playerID: r.playerID, credentials: r.playerCredentials, name: seat.name });
  return r.nextMatchID;
}

/**
 * The computer standing in for a seat: `standIn` hands the away opponent's seat to it (after the match's
 * abandonMinutes), `takeBack` gives this seat back to its owner. Resolves to the server's refusal, or null.
 */
export async function standInAction(matchID: string, action: 'standIn' | 'takeBack', seat: HeldSeat): Promise<string | null> {
  const res = await fetch(`${window.location.origin}/games/${GAME}/${matchID}/${action}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ playerID: seat.playerID, credentials: seat.credentials }),
  });
  if (res.ok) return null;
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  return body?.error ?? `HTTP ${res.status}`;
}

/**
 * Sets the seat's turn-notification webhook (null removes it): the server posts there when it is this
 * seat's decision and none of its boards is open. The server never shows the address to anyone.
 */
export async function setSeatWebhook(matchID: string, seat: HeldSeat, webhook: string | null): Promise<void> {
  const res = await fetch(`${window.location.origin}/games/${GAME}/${matchID}/notify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ playerID: seat.playerID, credentials: seat.credentials, webhook }),
  });
  if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? `HTTP ${res.status}`);
}
