/** Events played by test code: accounts signed up, joined, and every game ended by a resignation over a socket. */
import { expect } from 'vitest';
import { botRng } from '../../bots/index';
import { signUp, type Signed } from './account-helpers';
import { player, statusIn, until } from './helpers';
import type { MatchPair } from '../../protocol/index';

export interface EventPlayers {
  players: Signed[];
  byName: Map<string, Signed>;
}

export async function signUpPlayers(url: string, n: number, prefix: string): Promise<EventPlayers> {
  const players: Signed[] = [];
  for (let i = 0; i < n; i++) players.push(await signUp(url, `${prefix}${i}`));
  return { players, byName: new Map(players.map((p) => [p.username, p])) };
}

/** The seat's board resigns its match; resolves once the game is over there. */
export async function resign(url: string, matchID: string, seat: string, credentials: string): Promise<void> {
  const p = player(url, matchID, seat, credentials);
  try {
    await until(() => p.state() !== null, 'synced', 60_000);
    (p.client.moves as Record<string, () => void>).resign();
    await until(() => p.state()!.ctx.gameover !== undefined, 'over', 60_000);
  } finally {
    p.stop();
  }
}

/** The seat `who` holds in `matchID`, with its credentials, as GET /me/matches gives it. */
export async function seatOf(who: Signed, matchID: string): Promise<{ playerID: string; playerCredentials: string }> {
  let seat: { playerID: string; playerCredentials: string } | undefined;
  await until(async () => {
    seat = ((await who.call('/me/matches')).body.matches as { matchID: string; playerID: string; playerCredentials: string }[]).find((m) => m.matchID === matchID);
    return seat !== undefined;
  }, `${who.username}'s seat in ${matchID}`, 60_000);
  return seat!;
}

export type PublicEvent = {
  status: string;
  round: number;
  totalRounds: number;
  players: { username: string; score: number; sides: { editor: number; nixon: number }; byes: number }[];
  rounds: ({ matchID: string; editor: string; nixon: string; seed: string; result: string | null } | { bye: string })[][];
};

export const getEvent = async (viewer: Signed, id: string): Promise<PublicEvent> => (await viewer.call(`/api/tournaments/${id}`)).body as PublicEvent;

/**
 * Ends every unfinished game of the event's current round (a seeded random side resigns), each game
 * from its seat's account; `url` may be any process's. Resolves with the round number played.
 */
export async function playRound(url: string, viewer: Signed, ep: EventPlayers, id: string, seed: number): Promise<number> {
  const rng = botRng(seed);
  const e = await getEvent(viewer, id);
  const open = e.rounds[e.round - 1].filter((g): g is Extract<typeof g, { matchID: string }> => 'matchID' in g && g.result === null);
  for (const g of open) {
    const loser = rng.next() < 0.5 ? g.editor : g.nixon;
    const who = ep.byName.get(loser)!;
    const seat = await seatOf(who, g.matchID);
    expect(seat.playerID).toBe(loser === g.editor ? '0' : '1');
    await resign(url, g.matchID, seat.playerID, seat.playerCredentials);
  }
  return e.round;
}

/** Plays the event to its end (paired deals: each second game as it appears). */
export async function playToEnd(url: string | (() => string), viewer: Signed, ep: EventPlayers, id: string, between?: (round: number) => Promise<void>): Promise<PublicEvent> {
  const at = () => (typeof url === 'string' ? url : url());
  let played = 0;
  for (let k = 0; k < 40; k++) {
    const e = await getEvent(viewer, id);
    if (e.status === 'finished') return e;
    const current = e.rounds[e.round - 1] ?? [];
    if (current.some((g) => 'matchID' in g && g.result === null)) {
      await playRound(at(), viewer, ep, id, 1000 + k);
      continue;
    }
    // Everything of this round is over: wait for the runner to score it and pair the next (or a paired deal's second game).
    await until(async () => {
      const x = await getEvent(viewer, id);
      return x.status === 'finished' || x.round > e.round || x.rounds[x.round - 1].length > current.length;
    }, `the event to move on after round ${e.round}`, 60_000);
    const x = await getEvent(viewer, id);
    if (x.round > e.round && between && played < x.round - 1) {
      played = x.round - 1;
      await between(played);
    }
  }
  throw new Error('the event did not end');
}

/** Side balance, no repeated opponent, one bye a round when odd: what every finished event must show. */
export function checkEvent(e: PublicEvent, n: number, paired: boolean): void {
  expect(e.status).toBe('finished');
  expect(e.rounds).toHaveLength(e.totalRounds);
  const met = new Set<string>();
  for (const r of e.rounds) {
    const games = r.filter((g): g is Extract<typeof g, { matchID: string }> => 'matchID' in g);
    const byes = r.filter((g) => 'bye' in g);
    expect(byes).toHaveLength(n % 2);
    expect(games).toHaveLength(paired ? n - (n % 2) : (n - (n % 2)) / 2);
    for (const g of paired ? games.filter((_, i) => i % 2 === 0) : games) {
      const key = [g.editor, g.nixon].sort().join('|');
      expect(met.has(key), `${key} met twice`).toBe(false);
      met.add(key);
    }
  }
  for (const p of e.players) expect(Math.abs(p.sides.editor - p.sides.nixon), `${p.username} ${JSON.stringify(p.sides)}`).toBeLessThanOrEqual(1);
  expect(e.players.filter((p) => p.byes > 1)).toEqual([]);
}

/** What a spectator's socket hears of a match's pair (MatchStatus.pair), as its board shows it; undefined for a single game. */
export async function pairStatus(url: string, matchID: string): Promise<MatchPair | undefined> {
  const p = player(url, matchID, null);
  try {
    await until(() => p.received.some((r) => statusIn(r) !== undefined), 'a match status', 30_000);
    return p.received.map(statusIn).find((st) => st !== undefined)!.pair;
  } finally {
    p.stop();
  }
}
