/**
 * `tsx tools/bench-events.ts [--players 128] [--rounds 7] [--background 16] [--backend embedded|postgres] [--no-write]`
 *
 * A Swiss event run to its end inside one server process (docs/EVENTS.md), while other matches are
 * played at a person's pace beside it: what a round's start costs the players of the process. The
 * event's players are accounts that sign up and join over HTTP; each game of a round ends by a
 * resignation made through the server's own move path (`server.move`: the same check, commit door and
 * deliveries as a socket's) after a random 0–2 s. The background matches play random legal moves, one
 * move per match every 250 ms, through the same path, each move timed from the call to its saved answer.
 * Measured: each round's start (from the last result of the round before to its announcement: pairing,
 * the write, every match made and linked), the pairing alone (pairRound on the same history), and the
 * background moves' latency — those made while a round was starting against the rest. Written to
 * docs/LOAD.md ("events").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { legalMoves, type PlayerID, type WatergateState } from '../game/index';
import { startServer } from '../server/app';
import { pairingRounds, type EventDoc } from '../server/events/event';
import { pairRound } from '../server/events/pairing';
import type { RoundStart } from '../server/events/runner';
import { openStore } from '../server/storage/index';
import { machine, option, today, writeSection } from './machine';

const PLAYERS = Number(option('players', '128'));
const ROUNDS = Number(option('rounds', '7'));
const BACKGROUND = Number(option('background', '16'));
const BACKEND = option('backend', 'embedded');
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wg-bench-events-'));
  const schema = `wg_bench_events_${process.pid}`;
  const store = await openStore(BACKEND === 'postgres' ? { databaseUrl: PG_URL, databaseSchema: schema, dataDir: '' } : { dataDir: dir });
  const starts: { round: number; at: number }[] = [];
  const server = await startServer({ store, port: 0, limits: 'off', passwordCost: 10, staleHours: 0, events: { tickMs: 250, onRound: (r: RoundStart) => starts.push({ round: r.round, at: Date.now() }) } });
  const url = server.url;
  const post = async (path: string, body: unknown, cookie?: string) => {
    const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: url, ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown>, cookie: r.headers.getSetCookie().find((c) => c.startsWith('wg_session='))?.split(';')[0] };
  };
  let stop = false;
  try {
    // The entrants.
    const cookies: string[] = [];
    for (let i = 0; i < PLAYERS; i++) cookies.push((await post('/auth/signup', { username: `bench${i}`, password: 'correct horse battery' })).cookie!);
    const id = (await post('/api/tournaments', { name: 'Bench Swiss', rounds: ROUNDS, clock: 'none', rated: false }, cookies[0])).body.id as string;
    for (let i = 0; i < PLAYERS; i += 8) await Promise.all(cookies.slice(i, i + 8).map((c) => post(`/api/tournaments/${id}/join`, {}, c)));

    // The background: matches between guests, a random legal move every 250 ms each.
    const lat: { at: number; ms: number }[] = [];
    let refusals = 0;
    const background = async (k: number) => {
      while (!stop) {
        const made = await post('/games/watergate/create', { numPlayers: 2 });
        const matchID = made.body.matchID as string;
        await post(`/games/watergate/${matchID}/join`, { playerID: '0', playerName: `Ed${k}` });
        await post(`/games/watergate/${matchID}/join`, { playerID: '1', playerName: `Nix${k}` });
        for (let n = 0; n < 400 && !stop; n++) {
          const view = await server.service.current(matchID);
          if (!view || view.state.ctx.gameover) break;
          const G = view.state.G as WatergateState;
          const p = G.prompt!.player as PlayerID;
          const m = legalMoves(G, p)[Math.floor(Math.random() * legalMoves(G, p).length)];
          const t0 = performance.now();
          const refused = await server.move(matchID, p, m.move, m.args[0]);
          if (refused) refusals++;
          else lat.push({ at: Date.now(), ms: performance.now() - t0 });
          await sleep(250);
        }
      }
    };
    const bg = Array.from({ length: BACKGROUND }, (_, k) => background(k));
    await sleep(2000);

    // The event: started, each round's games resigned by a random side after 0–2 s.
    const ends: number[] = [];
    const t0 = Date.now();
    await post(`/api/tournaments/${id}/start`, {}, cookies[0]);
    let doc: EventDoc | null = null;
    for (let round = 1; round <= ROUNDS; round++) {
      while (!starts.some((s) => s.round === round)) await sleep(20);
      doc = JSON.parse((await store.events.get(id))!.doc) as EventDoc;
      const games = doc.rounds[round - 1].boards.map((b) => b.games[0]);
      await Promise.all(games.map(async (g) => (await sleep(Math.random() * 2000), server.move(g.matchID, Math.random() < 0.5 ? '0' : '1', 'resign', undefined))));
      ends.push(Date.now());
    }
    while ((await store.events.get(id))!.status !== 'finished') await sleep(50);
    const total = Date.now() - t0;
    doc = JSON.parse((await store.events.get(id))!.doc) as EventDoc;
    stop = true;
    await Promise.all(bg);

    // The pairing alone, on the event's own history.
    const pairMs: number[] = [];
    for (let k = 0; k < ROUNDS; k++) {
      const d = { ...doc, rounds: doc.rounds.slice(0, k) };
      const a = performance.now();
      pairRound(d.entrants.map((e) => ({ id: e.id, rating: e.rating })), pairingRounds(d), d.entrants.map((e) => e.id), false);
      pairMs.push(performance.now() - a);
    }
    // A round's start: from the last result of the round before (the start call for round 1) to its announcement.
    const startMs = starts.sort((a, b) => a.round - b.round).map((s, k) => s.at - (k === 0 ? t0 : ends[k - 1]));
    const windows = starts.map((s, k) => [k === 0 ? t0 : ends[k - 1], s.at + 1000]);
    const during = lat.filter((l) => windows.some(([a, b]) => l.at >= a && l.at <= b)).map((l) => l.ms);
    const rest = lat.filter((l) => !windows.some(([a, b]) => l.at >= a && l.at <= b)).map((l) => l.ms);
    const f = (x: number) => x.toFixed(1);
    const body = [
      `Machine: ${machine()}; ${today()}; ${BACKEND === 'postgres' ? 'PostgreSQL' : 'SQLite'}; ${PLAYERS} players, ${ROUNDS} rounds (${doc.rounds.reduce((s, r) => s + r.boards.length, 0)} games), ${BACKGROUND} background matches at a move each 250 ms; the event took ${(total / 1000).toFixed(1)} s.`,
      '',
      '| round | pairing alone (ms) | round start: pairing, write, matches made, announced (ms) |',
      '| --- | --- | --- |',
      ...startMs.map((ms, k) => `| ${k + 1} | ${f(pairMs[k])} | ${ms} |`),
      '',
      `Background moves (in-process: call to saved answer): while a round was starting (until 1 s after its announcement) ${during.length} moves, p50 ${f(pct(during, 50))} ms, p99 ${f(pct(during, 99))} ms, max ${f(Math.max(...during))} ms; otherwise ${rest.length} moves, p50 ${f(pct(rest, 50))} ms, p99 ${f(pct(rest, 99))} ms (${refusals} refused, not counted).`,
    ].join('\n');
    console.log(body);
    if (!process.argv.includes('--no-write')) writeSection('docs/LOAD.md', `events-${BACKEND}`, body);
  } finally {
    stop = true;
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    if (BACKEND === 'postgres') {
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  }
}

await main();
