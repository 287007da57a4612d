/**
 * The spectators' room of a match (docs/SECURITY.md "Unlisted matches and the players' chat"): sockets that
 * follow a match without a seat talk among themselves; the players never see it (nothing a spectator
 * says reaches the board: no advice in play), as a spectator never sees the players' chat. Live only:
 * nothing is kept or stored, so a page that comes later hears what is said from then on. Each line is at
 * most WATCHERS.maxLength characters of text, WATCHERS.burst lines per WATCHERS.perMs per connection (and
 * the socket layer's `chat` limit per address); the speaker is a pseudonym the server makes from the
 * connection, never a name the client chose, so nobody passes for a player or another spectator. The
 * socket layer delivers a line to the match's spectators here and, through the bus, on other processes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { WatcherLine } from '../../protocol/index';

export const WATCHERS = { maxLength: 300, burst: 5, perMs: 10_000 } as const;

export class WatcherRoom {
  /** When each connection last spoke (for the burst limit); forgotten when it closes. */
  private readonly spoke = new Map<string, number[]>();
  /** Mixed into the pseudonyms: a connection's id never shows, and the same id makes another name elsewhere. */
  private readonly salt = randomBytes(16);

  /** The line connection `socketID` says, or why not (the text as sent, unchecked). */
  say(socketID: string, text: unknown, now = Date.now()): WatcherLine | string {
    const t = typeof text === 'string' ? text.trim() : '';
    if (t.length === 0 || t.length > WATCHERS.maxLength) return `a spectators' message is 1 to ${WATCHERS.maxLength} characters of text`;
    const recent = (this.spoke.get(socketID) ?? []).filter((at) => now - at < WATCHERS.perMs);
    if (recent.length >= WATCHERS.burst) return `at most ${WATCHERS.burst} messages in ${WATCHERS.perMs / 1000} seconds: wait a moment`;
    this.spoke.set(socketID, [...recent, now]);
    return { id: randomBytes(9).toString('base64url'), who: this.pseudonym(socketID), text: t, at: now };
  }

  forget(socketID: string): void {
    this.spoke.delete(socketID);
  }

  private pseudonym(socketID: string): string {
    return createHash('sha256').update(this.salt).update(socketID).digest('base64url').slice(0, 4);
  }
}

/** A line heard from another process (the bus is the operator's, but its shape is checked all the same). */
export function isWatcherLine(v: unknown): v is WatcherLine {
  const l = v as WatcherLine | null;
  return !!l && typeof l === 'object' && typeof l.id === 'string' && typeof l.who === 'string' && typeof l.text === 'string' && l.text.length <= WATCHERS.maxLength && typeof l.at === 'number';
}
