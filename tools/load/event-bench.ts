/**
 * A Swiss event run to its end inside one server process (docs/EVENTS.md), while other matches are played
 * beside it: what a round's start costs the players of the process. Used by tools/bench-events.ts (the
 * command line, docs/LOAD.md "Events") and by test/tools/bench-events.test.ts.
 *
 * The event's players are accounts that sign up and join over HTTP. Its games are played in one of two ways:
 * - `bots`: move by move to their end. Each decision is the deciding seat's: a random legal move of that
 *   seat's own view (`playerView`, then the legal moves of the view, as the browser and the load tool
 *   choose: no seat sees the other's hand), made after a pause of the pace's range through the server's
 *   own move path (`server.move`: the same check, commit door and deliveries as a socket's). The event's
 *   time control (default live: 10 min + 10 s) is the server's; a game a bot stops playing is ended by
 *   the server's clock (ClockKeeper), not by the tool, so no game hangs and every result is the server's.
 * - `resign`: each game ends by a resignation by a random side 0–2 s after its match is made (the first
 *   benchmark: the cost of a round's start without the cost of play).
 * In a paired event (`paired`) each pairing is two games, the second made when the first ends (the deal
 * unseen until then); bots play it as they find it.
 *
 * Background matches between guests play a random legal move every 250 ms each through the same path.
 * Every move is timed in the process from the call to its saved answer (no socket).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { legalMovesFromView } from '../../client/legal';
import { playerView, type PlayerID, type WatergateState, type WatergateView } from '../../game/index';
import { startServer } from '../../server/app';
import { pairingRounds, type EventDoc } from '../../server/events/event';
import { pairRound } from '../../server/events/pairing';
import type { RoundStart } from '../../server/events/runner';
import { openStore } from '../../server/storage/index';

export interface EventBenchOptions {
  players: number;
  rounds: number;
  /** Background matches beside the event. */
  background: number;
  backend: 'embedded' | 'postgres';
  paired: boolean;
  play: 'bots' | 'resign';
  /** A bot's pause before each decision, ms [min, max]. */
  pace: [number, number];
  /** The event's time control by name (protocol/rated.ts). */
  clock: 'none' | 'live' | 'relaxed';
  /** How long after a round's announcement its start still counts (ms; default 1000). */
  windowMs?: number;
  pgUrl?: string;
  /** A progress line now and then (the full run lasts an hour at a person's pace). */
  progress?: (line: string) => void;
}

/** A pace by name or as MIN-MAX ms. */
export const PACES: Record<string, [number, number]> = {
  // A person thinking: 1–4 s a decision; a random game is about 140 decisions, so a game is ~6 min.
  person: [1000, 4000],
  // A bot on the bot API answering at once, plus a little network: a game in ~20 s.
  bot: [20, 250],
  // As fast as the process can: for the test.
  flat: [0, 0],
};
export function paceOf(s: string): [number, number] {
  if (PACES[s]) return PACES[s];
  const m = /^(\d+)-(\d+)$/.exec(s);
  if (!m || Number(m[1]) > Number(m[2])) throw new Error(`pace must be ${Object.keys(PACES).join(', ')} or MIN-MAX (ms)`);
  return [Number(m[1]), Number(m[2])];
}

export interface Latencies {
  n: number;
  p50: number;
  p99: number;
  max: number;
}
export interface EventBenchResult {
  options: EventBenchOptions;
  totalMs: number;
  /** Per round: pairRound alone on the event's own history, and the round's start (last result before → announcement). */
  rounds: { round: number; pairingMs: number; startMs: number; durationMs: number; games: number }[];
  /** Games the event should have (rounds × boards × 1 or 2) and those with a result in the final document. */
  gamesExpected: number;
  gamesWithResult: number;
  /** How the games ended: the game's end reason (or the server's exit) → count. */
  endings: Record<string, number>;
  /** Moves timed: the event's and the background's, during a round's start (until `windowMs` after its announcement) and otherwise. */
  moves: { event: { during: Latencies; rest: Latencies }; background: { during: Latencies; rest: Latencies } };
  refusals: number;
  status: string;
}

const pct = (s: number[], p: number) => (s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN);
const stats = (xs: number[]): Latencies => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s.length ? s[s.length - 1] : NaN };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchEvent(o: EventBenchOptions): Promise<EventBenchResult> {
  const pgUrl = o.pgUrl ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const dir = mkdtempSync(join(tmpdir(), 'wg-bench-events-'));
  const schema = `wg_bench_events_${process.pid}_${Date.now() % 100000}`;
  const store = await openStore(o.backend === 'postgres' ? { databaseUrl: pgUrl, databaseSchema: schema, dataDir: '' } : { dataDir: dir });
  const starts: { round: number; at: number }[] = [];
  const server = await startServer({ store, port: 0, limits: 'off', passwordCost: 10, staleHours: 0, clockScanMs: 1000, events: { tickMs: 250, onRound: (r: RoundStart) => starts.push({ round: r.round, at: Date.now() }) } });
  const url = server.url;
  const post = async (path: string, body: unknown, cookie?: string) => {
    const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: url, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${text}`);
    return { body: JSON.parse(text) as Record<string, unknown>, cookie: r.headers.getSetCookie().find((c) => c.startsWith('wg_session='))?.split(';')[0] };
  };
  const say = o.progress ?? (() => {});
  let stop = false;
  let refusals = 0;
  // Every move timed: when, how long, whose (the event's or the background's).
  const lat: { at: number; ms: number; event: boolean }[] = [];
  const timedMove = async (matchID: string, p: PlayerID, move: string, arg: unknown, event: boolean) => {
    const t0 = performance.now();
    const refused = await server.move(matchID, p, move, arg);
    if (refused) refusals++;
    else lat.push({ at: Date.now(), ms: performance.now() - t0, event });
  };
  // When each match ended, as the server's states say (a move, a resignation, a clock's flag).
  const endedAt = new Map<string, number>();
  const endings: Record<string, number> = {};
  server.service.onState((m) => {
    const over = m.state.ctx.gameover as { reason?: string } | undefined;
    if (!over || !m.metadata.event || endedAt.has(m.matchID)) return;
    endedAt.set(m.matchID, Date.now());
    const why = over.reason ?? 'other';
    endings[why] = (endings[why] ?? 0) + 1;
  });

  try {
    // The entrants.
    const cookies: string[] = [];
    for (let i = 0; i < o.players; i++) cookies.push((await post('/auth/signup', { username: `bench${i}`, password: 'correct horse battery' })).cookie!);
    const id = (await post('/api/tournaments', { name: 'Bench Swiss', rounds: o.rounds, clock: o.clock, rated: false, paired: o.paired }, cookies[0])).body.id as string;
    for (let i = 0; i < o.players; i += 8) await Promise.all(cookies.slice(i, i + 8).map((c) => post(`/api/tournaments/${id}/join`, {}, c)));

    // The background: matches between guests, a random legal move every 250 ms each.
    const background = async (k: number) => {
      while (!stop) {
        const matchID = (await post('/games/watergate/create', { numPlayers: 2 })).body.matchID as string;
        await post(`/games/watergate/${matchID}/join`, { playerID: '0', playerName: `Ed${k}` });
        await post(`/games/watergate/${matchID}/join`, { playerID: '1', playerName: `Nix${k}` });
        for (let n = 0; n < 400 && !stop; n++) {
          const view = await server.service.current(matchID);
          if (!view || view.state.ctx.gameover) break;
          const G = view.state.G as WatergateState;
          const p = G.prompt!.player as PlayerID;
          const moves = legalMovesFromView(playerView(G, p) as WatergateView, p);
          if (!moves.length) break;
          const m = moves[Math.floor(Math.random() * moves.length)];
          await timedMove(matchID, p, m.move, m.args[0], false);
          await sleep(250);
        }
      }
    };
    const bg = Array.from({ length: o.background }, (_, k) => background(k));
    await sleep(o.background ? 2000 : 0);

    // One event game, played by its two seats until it is over.
    const pause = () => sleep(o.pace[0] + Math.random() * (o.pace[1] - o.pace[0]));
    const playGame = async (matchID: string) => {
      if (o.play === 'resign') {
        await sleep(Math.random() * 2000);
        return timedMove(matchID, Math.random() < 0.5 ? '0' : '1', 'resign', undefined, true);
      }
      while (!stop) {
        const now = await server.service.current(matchID);
        if (!now || now.state.ctx.gameover) return;
        const G = now.state.G as WatergateState;
        const seat = G.prompt?.player as PlayerID | undefined;
        if (!seat) return;
        // The deciding seat chooses from what it sees, nothing more.
        const choices = legalMovesFromView(playerView(G, seat) as WatergateView, seat);
        if (!choices.length) return; // the server's clock ends it
        const c = choices[Math.floor(Math.random() * choices.length)];
        await pause();
        if (stop) return;
        await timedMove(matchID, seat, c.move, c.args[0], true);
      }
    };

    // The event: started; each game, once its match is made, played (a second paired game as it appears).
    const t0 = Date.now();
    await post(`/api/tournaments/${id}/start`, {}, cookies[0]);
    const playing = new Map<string, Promise<void>>();
    const ends: number[] = [];
    let d: EventDoc;
    let lastSay = Date.now();
    for (;;) {
      const row = (await store.events.get(id))!;
      d = JSON.parse(row.doc) as EventDoc;
      const round = d.rounds[d.rounds.length - 1];
      if (round)
        for (const b of round.boards) for (const g of b.games) if (g.ready && !playing.has(g.matchID)) playing.set(g.matchID, playGame(g.matchID));
      if (row.status === 'finished' || row.status === 'cancelled') break; // cancelled: reported, not hidden
      if (Date.now() - lastSay > 30_000) {
        lastSay = Date.now();
        say(`round ${d.rounds.length}/${o.rounds}: ${endedAt.size} games over, ${lat.length} moves, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      }
      await sleep(100);
    }
    const totalMs = Date.now() - t0;
    stop = true;
    await Promise.all([...bg, ...playing.values()]);

    // A round's end: its last game's end (as the server's states said; the document's createdAt otherwise).
    for (const r of d.rounds) ends.push(Math.max(...r.boards.flatMap((b) => b.games.map((g) => endedAt.get(g.matchID) ?? 0))));
    // The pairing alone, on the event's own history.
    const rounds: EventBenchResult['rounds'] = [];
    const sorted = [...starts].sort((a, b) => a.round - b.round);
    for (let k = 0; k < d.rounds.length; k++) {
      const before = { ...d, rounds: d.rounds.slice(0, k) };
      const a = performance.now();
      pairRound(before.entrants.map((e) => ({ id: e.id, rating: e.rating })), pairingRounds(before), before.entrants.map((e) => e.id), d.paired);
      const pairingMs = performance.now() - a;
      const from = k === 0 ? t0 : ends[k - 1];
      const at = sorted[k]?.at ?? NaN;
      rounds.push({ round: k + 1, pairingMs, startMs: at - from, durationMs: ends[k] - at, games: d.rounds[k].boards.reduce((s, b) => s + b.games.length, 0) });
    }
    const windows = sorted.map((s, k) => [k === 0 ? t0 : ends[k - 1], s.at + (o.windowMs ?? 1000)]);
    const inStart = (t: number) => windows.some(([a, b]) => t >= a && t <= b);
    const split = (event: boolean) => {
      const mine = lat.filter((l) => l.event === event);
      return { during: stats(mine.filter((l) => inStart(l.at)).map((l) => l.ms)), rest: stats(mine.filter((l) => !inStart(l.at)).map((l) => l.ms)) };
    };
    const all = d.rounds.flatMap((r) => r.boards.flatMap((b) => b.games));
    return {
      options: o,
      totalMs,
      rounds,
      gamesExpected: d.rounds.length === o.rounds ? o.rounds * Math.floor(o.players / 2) * (o.paired ? 2 : 1) : NaN,
      gamesWithResult: all.filter((g) => g.winner !== undefined).length,
      endings,
      moves: { event: split(true), background: split(false) },
      refusals,
      status: d.status,
    };
  } finally {
    stop = true;
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    if (o.backend === 'postgres') {
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  }
}

/** The result as the Markdown docs/LOAD.md holds between its markers. */
export function eventTables(r: EventBenchResult, machine: string, day: string): string {
  const o = r.options;
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '–');
  const l = (s: Latencies) => `${s.n} moves, p50 ${f(s.p50)} ms, p99 ${f(s.p99)} ms, max ${f(s.max)} ms`;
  const how = o.play === 'bots' ? `played move by move by bots (a random legal move of the seat's own view after ${o.pace[0]}–${o.pace[1]} ms)` : 'each ended by a resignation 0–2 s after its match was made';
  const endings = Object.entries(r.endings)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    `Machine: ${machine}; ${day}; ${o.backend === 'postgres' ? 'PostgreSQL' : 'SQLite'}; ${o.players} players, ${o.rounds} rounds${o.paired ? ', paired (two games a pairing)' : ''}, clock ${o.clock}; games ${how}; ${o.background} background matches at a move each 250 ms. The event took ${(r.totalMs / 1000).toFixed(1)} s and ended ${r.status}: ${r.gamesWithResult} of ${r.gamesExpected} games with a result (${endings}).`,
    '',
    '| round | games | pairing alone (ms) | round start: last result before → announced (ms) | round: announced → last result (s) |',
    '| --- | --- | --- | --- | --- |',
    ...r.rounds.map((x) => `| ${x.round} | ${x.games} | ${f(x.pairingMs)} | ${Math.round(x.startMs)} | ${(x.durationMs / 1000).toFixed(1)} |`),
    '',
    `Moves (in-process: call to saved answer; ${r.refusals} refused, not counted), while a round was starting (from the last result before until ${((o.windowMs ?? 1000) / 1000).toFixed(1)} s after its announcement) and otherwise:`,
    '',
    '| moves | during a round start | otherwise |',
    '| --- | --- | --- |',
    `| the event's games | ${l(r.moves.event.during)} | ${l(r.moves.event.rest)} |`,
    `| background matches | ${l(r.moves.background.during)} | ${l(r.moves.background.rest)} |`,
  ].join('\n');
}
