/**
 * The server's cached analysis of a finished match: computed once, when someone first asks for it, by
 * the computer's worker pool (bots/pool.ts) at low priority — one decision at a time, and only while no
 * computer seat's decision is running or waiting — then kept with the match (storage `analyses`) and
 * served to everyone. Each decision is judged from the decider's own view (game/review.ts), with an
 * iteration budget and no time cap, so the analysis is the same whichever machine made it.
 *
 * Bounded: at most `maxWaiting` analyses waiting in this process (beyond, 503 and Retry-After) and a
 * per-address limit on the analyses one client may start (`analyse` in server/limits.ts). With several
 * processes, the storage row is the claim: one computes; a claim whose process died is taken over after
 * `staleMs`.
 */
import type { Game, State } from 'boardgame.io';
import { BotQueueFull, type BotPool } from '../../bots/pool';
import { decisionSeen } from '../../game/review';
import type { WatergateState } from '../../game/index';
import { ANALYSIS_BUDGET, ANALYSIS_FORMAT, type AnalysisPending, type GameAnalysis, type JudgedDecision } from '../../protocol/analysis';
import { enforce, type Limiter } from '../limits';
import type { Logger } from '../log';
import { replayStep } from '../../game/undo';
import { HttpError } from '../storage/errors';
import type { MatchStore } from '../storage/types';

/** The server's budget: the page's iterations, without the time cap (a server's speed varies with its load). */
export const SERVER_BUDGET = { iterations: ANALYSIS_BUDGET.iterations, seed: 0 };

export interface AnalyserOptions {
  store: MatchStore;
  game: Game;
  pool: BotPool;
  log: Logger;
  limiter?: Limiter;
  /** Analyses that may wait in this process (default 4). */
  maxWaiting?: number;
  /** A claim this old is another process's that died (default 10 minutes). */
  staleMs?: number;
  /** How often to look whether the pool is free for the next decision (default 100 ms). */
  idleCheckMs?: number;
  /**
   * The search per decision (default SERVER_BUDGET, what every server uses): a smaller one lets tests of
   * the storage and the scheduling spend seconds instead of a minute of CPU; one test keeps the default.
   */
  budget?: { iterations: number; seed: number };
}

/** Too many analyses waiting here already. */
class AnalysisBusy extends HttpError {
  readonly retryAfterSeconds = 60;
  constructor() {
    super(503, 'the server is analysing other games: try again in a minute');
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class GameAnalyser {
  /** Matches waiting or being analysed here, with their progress. */
  private readonly jobs = new Map<string, { done: number; total: number | null }>();
  private readonly queue: string[] = [];
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly o: AnalyserOptions) {}

  /**
   * The stored analysis (as JSON), or that it is under way — started now if nobody computes it yet and
   * the asker may start one. `address`: the asker's, for its limit.
   */
  async get(matchID: string, address: string): Promise<{ body: string } | AnalysisPending> {
    const row = await this.o.store.analyses.get(matchID);
    if (row?.body) return { body: row.body };
    const here = this.jobs.get(matchID);
    if (here) return { pending: true, ...here };
    const staleMs = this.o.staleMs ?? 600_000;
    if (row && row.claimedAt >= Date.now() - staleMs) return { pending: true, done: null, total: null }; // another process has it
    if (this.closed || this.queue.length >= (this.o.maxWaiting ?? 4)) throw new AnalysisBusy();
    if (this.o.limiter) await enforce(this.o.limiter, 'analyse', address);
    if (!(await this.o.store.analyses.claim(matchID, Date.now(), Date.now() - staleMs))) return { pending: true, done: null, total: null };
    this.jobs.set(matchID, { done: 0, total: null });
    this.queue.push(matchID);
    this.running ??= this.work();
    return { pending: true, done: 0, total: null };
  }

  /** Stops after the decision under way; unfinished claims are given back. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  private async work(): Promise<void> {
    for (let id = this.queue.shift(); id !== undefined; id = this.queue.shift()) {
      try {
        if (this.closed) throw new Error('closing');
        const body = JSON.stringify(await this.analyse(id));
        await this.o.store.analyses.save(id, body);
        this.o.log.info({ matchID: id, bytes: body.length }, 'game analysed');
      } catch (e) {
        if (!this.closed) this.o.log.error({ err: e, matchID: id }, 'game analysis failed');
        await this.o.store.analyses.release(id).catch(() => {});
      } finally {
        this.jobs.delete(id);
      }
    }
    this.running = null;
  }

  private async analyse(matchID: string): Promise<GameAnalysis> {
    const [loaded, rows] = await Promise.all([this.o.store.load(matchID, { initialState: true }), this.o.store.movesAfter(matchID, 0)]);
    if (!loaded?.initialState || loaded.metadata.gameover === undefined) throw new Error('not a finished match');
    const moves = rows.filter((r) => r.stateID <= loaded.stateID);
    const job = this.jobs.get(matchID)!;
    job.total = moves.length;
    let state = loaded.initialState as State<WatergateState>;
    const decisions: JudgedDecision[] = [];
    const earlier = new Map<number, State<WatergateState>>();
    for (const [i, row] of moves.entries()) {
      const p = row.action.payload;
      const seen = decisionSeen(state.G, { playerID: p.playerID, move: p.type, args: p.args ?? [] });
      if (seen) decisions.push({ step: i + 1, decider: seen.decider, review: await this.review(seen.view, seen.played) });
      if (row.stateID !== state._stateID + 1) throw new Error(`stored move ${row.stateID} does not follow state ${state._stateID}`);
      earlier.set(state._stateID, state);
      // A take-back returns to a state met before in this game.
      state = replayStep(state, row.action, (id) => earlier.get(id));
      job.done = i + 1;
    }
    return { format: ANALYSIS_FORMAT, matchID, budget: this.o.budget ?? SERVER_BUDGET, decisions };
  }

  /** One decision, when the pool has nothing else to do: the computer's seats come first. */
  private async review(...[view, played]: Parameters<BotPool['review']>) {
    for (;;) {
      if (this.closed) throw new Error('closing');
      if (this.o.pool.queued === 0) {
        try {
          const { iterations, seed } = this.o.budget ?? SERVER_BUDGET;
          return await this.o.pool.review(view, played, { iterations, seed, deterministic: true });
        } catch (e) {
          if (!(e instanceof BotQueueFull)) throw e;
        }
      }
      await sleep(this.o.idleCheckMs ?? 100);
    }
  }
}
