/**
 * Runs events: starts them, pairs each round, creates its matches with both accounts seated and the deal
 * chosen by the server, follows the games to their ends, forfeits games not started in time, scores, and
 * ends the event (docs/EVENTS.md). Every process runs one; all state is the stored document, so a process
 * killed between any two steps loses nothing: the next tick (any process) goes on from what is stored.
 *
 * One rule keeps processes apart: a decision (a round paired, a game added, a result scored) is written
 * only by a conditional write of the document's version (storage/events.ts) — of two processes that
 * paired the same round, one write lands, the other rereads and finds the round paired. What is done
 * outside the document (creating a match, linking its seats, forfeiting a no-show through the commit
 * door) is done only for what a landed write named, and is idempotent, so doing it twice changes nothing.
 */
import { randomBytes } from 'node:crypto';
import type { Game } from 'boardgame.io';
import { setSeatEntry, seatEntry } from '../../protocol/index';
import { TIME_CONTROLS, type TimeControl } from '../../protocol/rated';
import { generateCredentials } from '../auth';
import { markOf, markedData } from '../accounts/seat';
import { buildMatch, newMatchID } from '../lobby/matches';
import { ratedSetupData } from '../lobby/validate';
import type { Logger } from '../log';
import type { MatchService } from '../match/service';
import type { MatchData, MatchStore } from '../storage/types';
import { boardPoints, minEntrants, pairingRounds, type BoardDoc, type EventDoc, type GameDoc } from './event';
import { pairRound, type Side } from './pairing';

export interface RunnerOptions {
  store: MatchStore;
  service: MatchService;
  game: Game;
  log: Logger;
  /** How often storage is asked for events due (and running events look at their games): default 5 s. */
  tickMs?: number;
  /** A game neither side has started this long after its creation is forfeited; default by time control (NO_SHOW_MS). */
  noShowMs?: number;
  /**
   * A round has started: all its matches are made. Called once per round across processes (by the one
   * whose write marked it announced), after that write: the place for notices to its players.
   */
  onRound?: (r: RoundStart) => void;
  /** A game's match is made with both accounts seated (after the write that recorded it): the place for gameStart lines. */
  onGame?: (matchID: string, metadata: MatchData) => void;
  /**
   * A paired deal's second game is made (its first ended): called once per game across processes, by the
   * one whose write marked it ready, after that write — the place for its notices (a round's start has
   * `onRound`; this game comes later, by itself).
   */
  onPairGame?: (g: { eventID: string; challenge: boolean; round: number; matchID: string }) => void;
}

export interface RoundStart {
  eventID: string;
  name: string;
  round: number;
  /** Each game with its players' account ids (a paired deal: its first game; the second comes when it ends). */
  games: { matchID: string; editor: { id: string; username: string }; nixon: { id: string; username: string } }[];
  bye: { id: string; username: string } | null;
}

/** How long a round's game may wait for its players' first decisions, by time control. */
export const NO_SHOW_MS: Record<TimeControl, number> = { live: 10 * 60_000, relaxed: 24 * 3_600_000, none: 24 * 3_600_000 };

/** The side a finished game's end names as its winner: the winner, or the other side of an abort's undecided one. */
export function winnerOf(gameover: unknown): Side | null {
  const g = gameover as { winner?: unknown; aborted?: unknown } | undefined;
  if (g?.winner === '0' || g?.winner === '1') return g.winner === '0' ? 'editor' : 'nixon';
  if (g?.aborted === '0' || g?.aborted === '1') return g.aborted === '0' ? 'nixon' : 'editor';
  return null;
}

/** The seat name of an entrant whose account is gone (as records name it). */
const DELETED = 'deleted player';

export class EventRunner {
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly busy = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private stopped = false;
  readonly tickMs: number;

  constructor(private readonly o: RunnerOptions) {
    this.tickMs = o.tickMs ?? 5_000;
    // A game ending on this process moves its event on at once (other processes' ends: the next tick).
    o.service.onState((m) => {
      if (m.metadata.event && m.state.ctx.gameover !== undefined && (m.reason === 'move' || m.reason === 'news')) this.kick(m.metadata.event);
    });
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref?.();
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.busy.values()]);
  }

  async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      for (const id of await this.o.store.events.due(Date.now(), 100)) this.kick(id);
    } catch (e) {
      this.o.log.warn({ err: (e as Error).message }, 'events: the look for due events failed');
    }
  }

  /** Looks at one event now (once at a time per event in this process; asked again meanwhile: once more after). */
  kick(id: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const running = this.busy.get(id);
    if (running) {
      this.again.add(id);
      return running;
    }
    const run = (async () => {
      try {
        do {
          this.again.delete(id);
          for (let tries = 0; tries < 5 && !this.stopped; tries++) if ((await this.step(id)) !== 'conflict') break;
        } while (this.again.has(id) && !this.stopped);
      } catch (e) {
        this.o.log.warn({ event: id, err: (e as Error).message }, 'events: a step failed (the next tick tries again)');
      } finally {
        this.busy.delete(id);
      }
    })();
    this.busy.set(id, run);
    return run;
  }

  /** One look: reads the document, does what is due, writes it if anything changed. 'conflict': another writer won. */
  private async step(id: string): Promise<'conflict' | 'done' | 'more'> {
    const row = await this.o.store.events.get(id);
    if (!row || row.nextAt === null) return 'done';
    const d = JSON.parse(row.doc) as EventDoc;
    const roundsBefore = d.rounds.length;
    const now = Date.now();
    let changed = false;
    let more = false;
    let announce = false;
    const roundAt = d.rounds.length - 1;
    const made: [string, MatchData][] = [];
    const seconds: string[] = [];
    if (d.status === 'open' && d.startsAt !== null && now >= d.startsAt) {
      if (d.entrants.filter((e) => !e.withdrawn).length < minEntrants(d.totalRounds)) {
        d.status = 'cancelled';
        d.note = 'too-few-players';
      } else {
        d.status = 'running';
        this.pairNext(d, now);
        more = true;
      }
      changed = true;
    } else if (d.status === 'running') {
      const round = d.rounds[d.rounds.length - 1];
      // New games' matches, a few at a time (a round of 64 boards is made in seconds, not one by one).
      const unmade = round.boards.flatMap((b) => b.games.filter((g) => !g.ready).map((g) => ({ b, g })));
      for (let i = 0; i < unmade.length; i += 8)
        await Promise.all(
          unmade.slice(i, i + 8).map(async ({ b, g }) => {
            const m = await this.ensureMatch(d, b, g);
            if (m) made.push([g.matchID, m]);
            if (b.games.indexOf(g) === 1) seconds.push(g.matchID);
            g.ready = changed = true;
          }),
        );
      if (!round.announced && round.boards.every((b) => b.games.every((g) => g.ready))) round.announced = announce = changed = true;
      for (const b of round.boards) {
        for (const g of b.games) changed = (await this.follow(d, g, now)) || changed;
        if (d.paired && b.games.length === 1 && b.games[0].winner !== undefined) {
          // The second game of a paired deal: made now, so that its deal is unseen until it starts.
          b.games.push({ matchID: newMatchID(), editor: b.nixon, nixon: b.editor, createdAt: now });
          changed = more = true;
        }
        const points = b.points ?? boardPoints(b, d.paired);
        if (points && !b.points) {
          b.points = points;
          changed = true;
        }
      }
      if (round.boards.every((b) => b.points)) {
        const at = this.roundTime(d, d.rounds.length);
        if (d.rounds.length >= d.totalRounds) {
          d.status = 'finished';
          d.finishedAt = now;
          changed = true;
        } else if (at <= now) {
          this.pairNext(d, now);
          changed = more = true;
        } else if (row.nextAt !== at) changed = true; // only the next look moves: to the round's set time

      }
    }
    if (!changed) return 'done';
    const nextAt = this.nextLook(d, now);
    const ok = await this.o.store.events.update({ ...row, status: d.status, nextAt, doc: JSON.stringify(d) });
    if (!ok) return 'conflict';
    if (d.rounds.length > roundsBefore) {
      const r = d.rounds[d.rounds.length - 1];
      this.o.log.info({ event: id, round: d.rounds.length, boards: r.boards.length, bye: r.bye !== null }, 'events: round paired');
    }
    if (d.status !== row.status) this.o.log.info({ event: id, status: d.status, note: d.note }, 'events: status');
    if (announce && !d.challenge) this.announce(d, roundAt);
    for (const [matchID, m] of made) {
      try {
        this.o.onGame?.(matchID, m);
      } catch (e) {
        this.o.log.warn({ event: id, err: (e as Error).message }, 'events: the game notice failed');
      }
    }
    for (const matchID of seconds) {
      try {
        this.o.onPairGame?.({ eventID: id, challenge: d.challenge === true, round: roundAt + 1, matchID });
      } catch (e) {
        this.o.log.warn({ event: id, err: (e as Error).message }, 'events: the pair game notice failed');
      }
    }
    if (more) this.again.add(id);
    return more ? 'more' : 'done';
  }

  private announce(d: EventDoc, k: number): void {
    const r = d.rounds[k];
    const who = (id: string) => ({ id, username: d.entrants.find((e) => e.id === id)?.username ?? DELETED });
    this.o.log.info({ event: d.id, round: k + 1 }, 'events: round started');
    try {
      this.o.onRound?.({ eventID: d.id, name: d.name, round: k + 1, games: r.boards.map((b) => ({ matchID: b.games[0].matchID, editor: who(b.games[0].editor), nixon: who(b.games[0].nixon) })), bye: r.bye ? who(r.bye) : null });
    } catch (e) {
      this.o.log.warn({ event: d.id, err: (e as Error).message }, 'events: the round notice failed');
    }
  }

  /** When round `k` (from 0) may start: its set time, or now. */
  private roundTime(d: EventDoc, k: number): number {
    if (d.roundMinutes === null) return 0;
    const start = d.startsAt ?? d.rounds[0]?.startedAt ?? 0;
    return start + k * d.roundMinutes * 60_000;
  }

  private nextLook(d: EventDoc, now: number): number | null {
    if (d.status === 'open') return d.startsAt;
    if (d.status !== 'running') return null;
    const round = d.rounds[d.rounds.length - 1];
    if (round.boards.every((b) => b.points)) return Math.max(now, this.roundTime(d, d.rounds.length));
    return now + this.tickMs;
  }

  private pairNext(d: EventDoc, now: number): void {
    const active = d.entrants.filter((e) => !e.withdrawn).map((e) => e.id);
    const r = pairRound(d.entrants.map((e) => ({ id: e.id, rating: e.rating })), pairingRounds(d), active, d.paired);
    if (!r) {
      d.status = 'finished';
      d.note = 'no-pairing-left';
      return;
    }
    d.rounds.push({
      startedAt: now,
      bye: r.bye,
      boards: r.boards.map((b) => ({ editor: b.editor, nixon: b.nixon, seed: randomBytes(16).toString('hex'), games: [{ matchID: newMatchID(), editor: b.editor, nixon: b.nixon, createdAt: now }] })),
    });
  }

  /** A made game of the current round: its end read, a no-show forfeited. Whether the document changed. */
  private async follow(d: EventDoc, g: GameDoc, now: number): Promise<boolean> {
    let changed = false;
    if (!g.ready || g.winner !== undefined) return false;
    const head = await this.o.store.head(g.matchID);
    if (head?.metadata.gameover !== undefined) {
      g.winner = winnerOf(head.metadata.gameover);
      return true;
    }
    if (!g.started && now >= g.createdAt + (this.o.noShowMs ?? NO_SHOW_MS[d.clock])) {
      // ending.ts names the side that has not made its first decision; it forfeits (through the commit door).
      const out = await this.o.service.exit(g.matchID, '0', 'absent', null);
      if ('ended' in out && !out.ended) g.started = changed = true;
      if ('ended' in out && out.ended) {
        const after = await this.o.store.head(g.matchID);
        if (after?.metadata.gameover !== undefined) {
          g.winner = winnerOf(after.metadata.gameover);
          changed = true;
        }
      }
    }
    return changed;
  }

  /** Creates a game's match (both accounts seated, the board's deal) unless it exists, and links the seats to the accounts. */
  private async ensureMatch(d: EventDoc, b: BoardDoc, g: GameDoc): Promise<MatchData | null> {
    const { store, service, game } = this.o;
    const seats = [[g.editor, '0'], [g.nixon, '1']] as const;
    // An entrant whose account was deleted meanwhile sits as "deleted player", linked to nobody: its game is a no-show.
    const alive = new Map<string, { bot: boolean }>();
    for (const [id] of seats) {
      const a = await store.accounts.byID(id);
      if (a) alive.set(id, a);
    }
    if (!(await store.head(g.matchID))) {
      const clock = TIME_CONTROLS[d.clock].clock;
      // Fixed rules whether rated or not (protocol/rated.ts): every board of an event plays the same game.
      const setup = ratedSetupData(clock ? { clock: { ...clock, onTimeout: 'lose' } } : undefined);
      const { initialState, metadata } = buildMatch(game, setup, true, b.seed);
      if (d.rated) metadata.rated = true;
      metadata.publicRecord = true;
      metadata.event = d.id;
      if (d.paired) {
        // Made only once the first has ended (step), so the second names the first's winner: the pair's score so far.
        const first = b.games[0];
        metadata.pair = g === first ? { game: 1 } : { game: 2, first: { matchID: first.matchID, winner: first.winner ?? null } };
        if (!d.challenge) metadata.pair.event = d.id;
      }
      for (const [id, seat] of seats) {
        const e = d.entrants.find((x) => x.id === id)!;
        const mark = alive.has(id) ? await markOf(store.accounts, { id, username: e.username, bot: alive.get(id)!.bot }) : null;
        setSeatEntry(metadata.players, seat, { ...seatEntry(metadata.players, seat), name: mark ? e.username : DELETED, credentials: generateCredentials(), ...(mark ? { data: markedData(undefined, mark) } : {}) });
      }
      metadata.updatedAt = Date.now();
      try {
        await store.createMatch({ matchID: g.matchID, initialState, metadata });
      } catch (e) {
        if (!(await store.head(g.matchID))) throw e; // another process made it meanwhile: fine
      }
    }
    // Idempotent: the links (GET /me/matches: the players' credentials on any device) and the news of the seats (a clock starts).
    const done = await service.changeMetadata(g.matchID, (m) => ({ metadata: m, links: seats.filter(([id]) => alive.has(id)).map(([accountID, seat]) => ({ matchID: g.matchID, seat, accountID })) }));
    return done ?? null;
  }
}
