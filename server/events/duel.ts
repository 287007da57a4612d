/**
 * A paired-deals challenge (docs/BOT-API.md "Challenges", `paired: true`) once accepted: a hidden event of
 * two players and one paired round, run by the event runner like any event's round — so one authority
 * makes the deal (the board's server-chosen seed, never shown), creates the second match on that seed
 * with sides swapped only when the first ends (its deal unseen until then), scores the pair 1 / ½ / 0 and
 * survives a restart (the stored document, looked at by every process's tick). Hidden: not in the list
 * of events, no round notice; the event's id is the challenge's id, so the challenge finds its pair.
 */
import { randomBytes } from 'node:crypto';
import type { TimeControl } from '../../protocol/rated';
import { newMatchID } from '../lobby/matches';
import type { EventDoc } from './event';

export function pairedChallengeEvent(c: { id: string; clock: TimeControl; rated: boolean }, editor: { id: string; username: string }, nixon: { id: string; username: string }, now: number): EventDoc {
  return {
    id: c.id,
    challenge: true,
    name: `${editor.username} – ${nixon.username}`,
    creatorID: editor.id,
    creator: editor.username,
    totalRounds: 1,
    clock: c.clock,
    rated: c.rated,
    paired: true,
    startsAt: now,
    roundMinutes: null,
    entry: { minRating: null, maxRating: null, noTimeoutsIn: null },
    createdAt: now,
    status: 'running',
    entrants: [editor, nixon].map((a) => ({ id: a.id, username: a.username, rating: 0, withdrawn: false })),
    rounds: [{ startedAt: now, bye: null, boards: [{ editor: editor.id, nixon: nixon.id, seed: randomBytes(16).toString('hex'), games: [{ matchID: newMatchID(), editor: editor.id, nixon: nixon.id, createdAt: now }] }] }],
  };
}
