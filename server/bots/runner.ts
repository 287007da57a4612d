/**
 * The computer's seats inside the server. A seat whose metadata says `data.bot = level` (created by
 * POST /games/watergate/vs-computer) is played by the process that serves the match, through the match
 * service's own move path (no HTTP or socket loopback): when the match's state names that seat, the
 * seat's view — only what its player would see — goes to a worker thread (bots/pool.ts), and the
 * decision comes back as a move like a client's. Nothing is thought while a seat is open (play starts
 * when the human has joined: the service tells of the join as a change of the seats, reason 'meta').
 * The same goes for a seat the computer stands in for its owner (metadata.standIns: its clock ran out
 * with `onTimeout: "bot"`, or the opponent handed it over after its owner was away): until the owner
 * takes it back, which the move path checks again when the decision comes back (MoveRequest.bot).
 *
 * The search is bots/, used as a library (its entry and its worker pool): it knows views and levels,
 * not matches, storage or the service. Which seat the computer plays, when, and the claim are here.
 *
 * With several processes, exactly one plays a match's bot: the one that holds the match's claim in
 * storage (a PostgreSQL advisory lock, released when that process ends or forgets the match). A process
 * that could not claim looks again a little later, so a crashed owner's matches are taken over.
 */
import type { State } from 'boardgame.io';
import { seedFrom, type Thinker } from '../../bots/index';
import { BotPool, BotQueueFull } from '../../bots/pool';
import { playerView, type PlayerID, type WatergateState } from '../../game/index';
import { botLevelOf, openSeat, seatEntry, type Level } from '../../protocol/index';
import type { Logger } from '../log';
import type { MatchService, MatchView } from '../match/service';
import type { Metrics } from '../metrics';
import type { MatchStore } from '../storage/types';

export interface BotOptions {
  /** Worker threads for searches (default 1). */
  threads?: number;
  /** Where decisions are computed (default: a worker pool of `threads`). */
  thinker?: Thinker;
  /** How long a process that could not claim a match, or found the bot queue full, waits before trying again. */
  retryMs?: number;
  /** Decisions that may wait for a worker thread (BotPool's maxQueue). */
  maxQueue?: number;
}

interface Seat {
  claimed: boolean;
  /** The state id a decision is being computed for. */
  thinkingOn: number | null;
  retry?: ReturnType<typeof setTimeout>;
}

export class BotRunner {
  private readonly seats = new Map<string, Seat>();
  private readonly pool: BotPool | null;
  private readonly thinker: Thinker;
  private closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  /** The worker pool (none when decisions are computed elsewhere): the finished games' analyses use it too. */
  get botPool(): BotPool | null {
    return this.pool;
  }

  constructor(private readonly o: BotOptions & { service: MatchService; store: MatchStore; log: Logger; metrics?: Metrics }) {
    this.pool = o.thinker ? null : new BotPool({ threads: o.threads ?? 1, maxQueue: o.maxQueue });
    this.thinker = o.thinker ?? this.pool!.think;
    o.service.onState((m) => this.consider(m));
    o.service.onEvict((matchID) => void this.release(matchID));
    o.store.onClaimsLost?.(() => {
      for (const s of this.seats.values()) s.claimed = false;
    });
  }

  /** Matches whose bot this process plays now. */
  get active(): number {
    return [...this.seats.values()].filter((s) => s.claimed).length;
  }

  /** The seat the game waits for, if the computer plays it: a vs-computer seat, or a stand-in for its owner. */
  private botSeat(m: MatchView): { seat: PlayerID; level: Level } | null {
    const seat = m.state.G.prompt?.player;
    if (seat !== '0' && seat !== '1') return null;
    const level = botLevelOf(seatEntry(m.metadata.players, seat)) ?? m.metadata.standIns?.[seat]?.level ?? null;
    return level ? { seat, level } : null;
  }

  private consider(m: MatchView): void {
    if (this.closed) return;
    if (m.state.ctx.gameover !== undefined) return void this.release(m.matchID);
    const bot = this.botSeat(m);
    if (!bot) return;
    // Play starts when the human has joined too; the join is news of the seats ('meta'), which asks again.
    if (openSeat(Object.values(m.metadata.players)) !== null) return;
    let s = this.seats.get(m.matchID);
    if (!s) this.seats.set(m.matchID, (s = { claimed: false, thinkingOn: null }));
    if (s.thinkingOn === m.state._stateID) return;
    s.thinkingOn = m.state._stateID;
    const run = this.play(m.matchID, s, bot.seat, bot.level, m.state).catch((e: unknown) => {
      s.thinkingOn = null;
      this.o.log.error({ err: e, matchID: m.matchID }, 'bot seat failed');
    });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private async play(matchID: string, s: Seat, seat: PlayerID, level: Level, state: State<WatergateState>): Promise<void> {
    if (!s.claimed) s.claimed = await this.o.store.claimBot(matchID);
    if (!s.claimed) {
      // Another process plays this bot. If it goes away, its claim goes with it: look again later.
      this.later(matchID, s, 5_000);
      return;
    }
    const t0 = performance.now();
    let d: Awaited<ReturnType<Thinker>>;
    try {
      d = await this.thinker(playerView(state.G, seat), { level, seed: seedFrom(matchID) });
    } catch (e) {
      if (!(e instanceof BotQueueFull)) throw e;
      // Every worker is busy and enough decisions wait: this one waits outside the queue (it thinks later).
      this.o.log.debug({ matchID, waiting: e.waiting }, 'bot queue full: the decision waits');
      this.later(matchID, s, 1_000);
      return;
    }
    this.o.metrics?.botThinkSeconds.observe((performance.now() - t0) / 1000);
    if (this.closed) return;
    const refusal = await this.o.service.move({ matchID, playerID: seat, credentials: null, type: d.move.move, arg: d.move.args[0], stateID: state._stateID, bot: true });
    if (!refusal || refusal.type === 'stale') return; // saved, or the game moved on (the next state asks again)
    const now = this.o.service.peek(matchID);
    if (now && openSeat(Object.values(now.metadata.players)) !== null) {
      // The human left while the bot thought: think again on this state once a seat is taken.
      s.thinkingOn = null;
      return;
    }
    this.o.log.error({ matchID, seat, move: d.move.move, refusal }, 'the bot made a move the server refused');
  }

  /** Considers the match again after retryMs (its state may have moved on meanwhile). */
  private later(matchID: string, s: Seat, fallbackMs: number): void {
    s.thinkingOn = null;
    clearTimeout(s.retry);
    s.retry = setTimeout(() => {
      const now = this.o.service.peek(matchID);
      if (now) this.consider(now);
    }, this.o.retryMs ?? fallbackMs);
    s.retry.unref?.();
  }

  private async release(matchID: string): Promise<void> {
    const s = this.seats.get(matchID);
    if (!s) return;
    this.seats.delete(matchID);
    clearTimeout(s.retry);
    if (s.claimed) await this.o.store.releaseBot(matchID).catch(() => undefined);
  }

  /** Stops playing (searches in progress are dropped), releases every claim, stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    await Promise.all([...this.seats.keys()].map((id) => this.release(id)));
    await this.pool?.close();
  }
}
