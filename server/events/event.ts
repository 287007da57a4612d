/**
 * An event's stored document (storage/events.ts keeps it whole, versioned) and what anyone may see of
 * it. Pure: the runner (runner.ts) and the routes (routes.ts) change documents through these types;
 * pairing.ts scores and pairs them. Players are account ids inside, usernames outside. A board's deal
 * seed is the server's secret (it would reveal every hand): the public view shows its SHA-256 instead
 * (`seed`), the same for a paired deal's two games, checkable after the event against the replays.
 */
import { createHash } from 'node:crypto';
import type { EventGame, EventHead, EventSummary, EventView } from '../../protocol/events';
import type { TimeControl } from '../../protocol/rated';
import { gamePoints, pairPoints, standings, type Round, type Side } from './pairing';

export type { EventStatus } from '../../protocol/events';
import type { EventStatus } from '../../protocol/events';

export interface Entrant {
  id: string;
  username: string;
  /** The mean of both side ratings when joining: the pairing's rating order. */
  rating: number;
  withdrawn: boolean;
}

export interface GameDoc {
  matchID: string;
  editor: string;
  nixon: string;
  createdAt: number;
  /** The match is stored and both seats are linked to their accounts (then never again looked at for that). */
  ready?: boolean;
  /** Both sides made a decision (the no-show limit no longer applies). */
  started?: boolean;
  /** Winning side once over (null: nobody won). */
  winner?: Side | null;
}

export interface BoardDoc {
  editor: string;
  nixon: string;
  /** The PRNG seed of the board's deal: never leaves the server. */
  seed: string;
  games: GameDoc[];
  points?: [number, number];
}

export interface RoundDoc {
  startedAt: number;
  /** Its matches are all made and its start was announced (RunnerOptions.onRound), once, by the write that set this. */
  announced?: boolean;
  boards: BoardDoc[];
  bye: string | null;
}

export interface EntryRules {
  /** The mean of both side ratings within [minRating, maxRating], and established (docs/EVENTS.md). */
  minRating: number | null;
  maxRating: number | null;
  /** No game lost on time or by staying away in the account's last this many finished games. */
  noTimeoutsIn: number | null;
}

export interface EventDoc {
  id: string;
  /** A paired-deals challenge's pair (duel.ts): not listed, no round notices. */
  challenge?: boolean;
  name: string;
  creatorID: string;
  creator: string;
  totalRounds: number;
  clock: TimeControl;
  rated: boolean;
  paired: boolean;
  /** When round 1 starts (null: when the creator starts it). */
  startsAt: number | null;
  /** Round k (from 0) starts no earlier than the start plus k times this (null: as soon as the previous ends). */
  roundMinutes: number | null;
  entry: EntryRules;
  createdAt: number;
  status: EventStatus;
  /** When its last round was scored (the season it counts in: seasons/season.ts eventBonuses). */
  finishedAt?: number;
  /** Why it ended before its last round, or was cancelled. */
  note?: 'too-few-players' | 'no-pairing-left';
  entrants: Entrant[];
  rounds: RoundDoc[];
}

/** Entrants needed to start: enough that the rounds rarely run out of opponents (docs/EVENTS.md, measured). */
export const minEntrants = (rounds: number): number => (rounds <= 3 ? 4 : 2 * rounds + 1);

export const dealID = (seed: string): string => createHash('sha256').update(seed).digest('hex').slice(0, 16);

/** The rounds as pairing.ts reads them (account ids). */
export const pairingRounds = (d: EventDoc): Round[] => d.rounds.map((r) => ({ bye: r.bye, boards: r.boards.map((b) => ({ editor: b.editor, nixon: b.nixon, points: b.points })) }));

/** A board's points once all its games are over: a single game's, or the pair's by games won. */
export function boardPoints(b: BoardDoc, paired: boolean): [number, number] | undefined {
  const want = paired ? 2 : 1;
  if (b.games.length < want || b.games.some((g) => g.winner === undefined)) return undefined;
  if (!paired) return gamePoints(b.games[0].winner!);
  const won = (id: string) => b.games.filter((g) => g.winner !== null && g[g.winner!] === id).length;
  return pairPoints(won(b.editor), won(b.nixon));
}

export function publicEvent(d: EventDoc): EventView {
  const name = new Map(d.entrants.map((e) => [e.id, e.username]));
  const who = (id: string) => name.get(id) ?? 'deleted player';
  const table = standings(d.entrants.map((e) => ({ id: e.id, rating: e.rating })), pairingRounds(d), d.paired);
  const entrant = new Map(d.entrants.map((e) => [e.id, e]));
  return {
    ...head(d),
    note: d.note ?? null,
    roundMinutes: d.roundMinutes,
    entry: d.entry,
    minPlayers: minEntrants(d.totalRounds),
    players: table
      .filter((s) => entrant.has(s.id))
      .map((s) => ({ username: who(s.id), rating: s.rating, withdrawn: entrant.get(s.id)!.withdrawn, score: s.score, buchholz: s.buchholz, sonnebornBerger: s.sonnebornBerger, byes: s.byes, sides: s.sides })),
    rounds: d.rounds.map((r) => [
      ...r.boards.flatMap((b) =>
        b.games.map((g, i): EventGame => ({
          matchID: g.matchID,
          editor: who(g.editor),
          nixon: who(g.nixon),
          seed: dealID(b.seed),
          result: g.winner === undefined ? null : g.winner === null ? 'none' : g.winner,
          // A pair's games each say which they are and, once both are over, the pair's points (the board's Editor of game 1 first).
          ...(d.paired ? { pair: { game: i === 0 ? 1 : 2, score: b.points ? [{ player: who(b.editor), points: b.points[0] }, { player: who(b.nixon), points: b.points[1] }] : null } } : {}),
        })),
      ),
      ...(r.bye ? [{ bye: who(r.bye) }] : []),
    ]),
  };
}

/** What the list and the page both say of an event. */
const head = (d: EventDoc): EventHead => ({
  id: d.id,
  name: d.name,
  creator: d.creator,
  status: d.status,
  round: d.rounds.length,
  totalRounds: d.totalRounds,
  clock: d.clock,
  rated: d.rated,
  paired: d.paired,
  startsAt: d.startsAt,
});

/** A line of the list of events. */
export const eventSummary = (d: EventDoc): EventSummary => ({ ...head(d), players: d.entrants.filter((e) => !e.withdrawn).length });
