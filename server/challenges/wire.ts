/** A challenge as its two players (and their event streams) see it: usernames, never account ids. */
import type { Challenge } from '../storage/social';

export function challengeOut(c: Challenge) {
  return {
    id: c.id,
    from: c.from,
    to: c.to,
    ...(c.fromBot ? { fromBot: true as const } : {}),
    ...(c.toBot ? { toBot: true as const } : {}),
    side: c.side,
    clock: c.clock,
    rated: c.rated,
    takeBacks: c.takeBacks,
    ...(c.paired ? { paired: true as const } : {}),
    status: c.status,
    createdAt: c.createdAt,
    expiresAt: c.expiresAt,
    ...(c.matchID ? { matchID: c.matchID } : {}),
  };
}
export type ChallengeOut = ReturnType<typeof challengeOut>;
