/**
 * The HTTP bot API's test kit (docs/BOT-API.md "The HTTP bot API"): bot accounts and game streams (the
 * accounts and the NDJSON reader of challenge-helpers.ts), move POSTs, a driver answering each line with a random legal id, and the
 * privacy proof — every line's view equals Watergate.playerView of the server's state at that state id for
 * the seat, and names none of the other side's secrets. `wholeGames` plays whole games through it: on
 * SQLite in `npm test` (test/server/bot-api.test.ts), on PostgreSQL and with more seeds in the long tier
 * (test/server/bot-api-games.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { State } from 'boardgame.io';
import { Watergate, legalMoves, secretsOf, type WatergateState } from '../../game/index';
import { seeded } from './wire';
import { api, player, startTestServer, until, type Backend, type TestServer } from './helpers';
import { bearer, botAccount, ndjson } from './challenge-helpers';

export type Seat = '0' | '1';
export type Line = { type: string; seat?: Seat; stateID: number; view: any; legal?: { id: number; move: string; args: unknown[]; text: string }[]; status?: unknown };

export { bearer, botAccount };

/** A bot's game stream (challenge-helpers.ts's NDJSON reader), its lines typed. */
export function openStream(url: string, matchID: string, token: string) {
  const s = ndjson(url, `/api/bot/game/stream/${matchID}`, bearer(token));
  return { res: s.res, lines: s.lines as Line[], ended: s.ended, done: s.done, abort: s.close };
}
export type Stream = ReturnType<typeof openStream>;

export const move = (url: string, token: string, matchID: string, body: unknown) => api(url, `/api/bot/game/${matchID}/move`, body, bearer(token));

/** Answers the stream's lines with random legal ids until the game ends (or `stopAt` lines): the last line seen. */
export async function drive(url: string, token: string, matchID: string, s: Stream, rng: () => number, stopAt = Infinity): Promise<Line | undefined> {
  let i = 0;
  for (;;) {
    await until(() => s.lines.length > i || s.ended(), 'a stream line', 60_000);
    if (s.lines.length <= i) return s.lines.at(-1);
    const line = s.lines[i++];
    if (line.type === 'gameFinish' || i >= stopAt) return line;
    if (s.lines.length > i || !line.legal?.length) continue; // answer the newest line only
    const a = line.legal[Math.floor(rng() * line.legal.length)];
    const r = await move(url, token, matchID, { stateID: line.stateID, action: a.id });
    // 409: the state moved on meanwhile (not expected with one mover at a time, tolerated like a client does).
    expect([200, 409], `${a.text} at ${line.stateID}: ${JSON.stringify(r.body)}`).toContain(r.status);
  }
}

/** Every state of every match the server holds, by match and state id (the hooks see each state made). */
export function recordStates(ts: TestServer) {
  const states = new Map<string, State<WatergateState>>();
  ts.server.service.onState((m) => states.set(`${m.matchID}:${m.state._stateID}`, m.state));
  return states;
}

/** The privacy proof for one line: the view is the seat's playerView of the server's state, and shows no secret of the other side. */
export function checkPrivate(states: Map<string, State<WatergateState>>, matchID: string, seat: Seat, line: Line): void {
  if (line.view === undefined) return;
  const st = states.get(`${matchID}:${line.stateID}`);
  expect(st, `server state ${line.stateID}`).toBeDefined();
  const expected = Watergate.playerView!({ G: st!.G, ctx: st!.ctx, playerID: seat } as never);
  expect(line.view).toEqual(JSON.parse(JSON.stringify(expected)));
  const { log: _log, ...shown } = line.view as { log: unknown };
  const text = JSON.stringify(shown);
  const secrets = [...secretsOf(st!.G, seat)].filter((id) => !st!.G.bag.includes(id));
  for (const s of [...secrets, ...st!.G.bag]) expect(text, `${line.type} ${line.stateID} shows ${s}`).not.toContain(`"${s}"`);
}

export async function newMatch(url: string): Promise<string> {
  const r = await api(url, '/games/watergate/create', { numPlayers: 2 });
  return r.body.matchID as string;
}
export const join = (url: string, matchID: string, seat: Seat, token: string) => api(url, `/games/watergate/${matchID}/join`, { playerID: seat }, bearer(token));

/**
 * Whole games over the HTTP bot API on `backend`: two bots (one game per seed), a stream dropped mid-game
 * and reopened (`dropped`), a human on a socket against a bot (`human`).
 */
export function wholeGames(backend: Backend, seeds: number[], o: { dropped: boolean; human: boolean }): void {
  describe(`whole games over the HTTP bot API (${backend})`, () => {
    let ts: TestServer;
    let states: Map<string, State<WatergateState>>;
    let a: Awaited<ReturnType<typeof botAccount>>;
    let b: Awaited<ReturnType<typeof botAccount>>;
    beforeAll(async () => {
      ts = await startTestServer(backend, { limits: { botMove: { points: 100_000, seconds: 60 }, botStream: { points: 1000, seconds: 60 } } });
      states = recordStates(ts);
      a = await botAccount(ts.url, `games_a_${backend}`);
      b = await botAccount(ts.url, `games_b_${backend}`);
    }, 60_000);
    afterAll(() => ts?.stop());

    it('two bots play a whole game over streams and move POSTs, each line exactly its seat\'s view', async () => {
      for (const seed of seeds) {
        const matchID = await newMatch(ts.url);
        expect((await join(ts.url, matchID, '0', a.token)).status).toBe(200);
        expect((await join(ts.url, matchID, '1', b.token)).status).toBe(200);
        const sa = openStream(ts.url, matchID, a.token);
        const sb = openStream(ts.url, matchID, b.token);
        expect((await sa.res).headers.get('content-type')).toMatch(/application\/x-ndjson/);
        const rng = seeded(seed).next;
        const [la, lb] = await Promise.all([drive(ts.url, a.token, matchID, sa, rng), drive(ts.url, b.token, matchID, sb, rng)]);
        expect(la?.type).toBe('gameFinish');
        expect(lb?.type).toBe('gameFinish');
        expect(sa.lines[0]).toMatchObject({ type: 'gameFull', seat: '0' });
        expect(sb.lines[0]).toMatchObject({ type: 'gameFull', seat: '1' });
        expect(sa.lines.length).toBeGreaterThan(20);
        for (const l of sa.lines) checkPrivate(states, matchID, '0', l);
        for (const l of sb.lines) checkPrivate(states, matchID, '1', l);
        // Every state of the game reached both streams, in order.
        const ids = sa.lines.filter((l) => l.type !== 'chatLine').map((l) => l.stateID);
        const last = ids.at(-1)!;
        expect(ids).toEqual(Array.from({ length: last - ids[0] + 1 }, (_, k) => ids[0] + k).concat(last)); // gameFinish repeats the last id
        expect(new Set(sb.lines.map((l) => l.stateID)).size).toBe(last - sb.lines[0].stateID + 1);
        await until(() => sa.ended() && sb.ended(), 'both streams closed at the end');
      }
    }, 240_000);

    if (o.dropped)
      it('a stream dropped mid-game reopens with gameFull at the current state and plays on', async () => {
        const matchID = await newMatch(ts.url);
        await join(ts.url, matchID, '0', a.token);
        await join(ts.url, matchID, '1', b.token);
        const rng = seeded(7).next;
        const sb = openStream(ts.url, matchID, b.token);
        const sa = openStream(ts.url, matchID, a.token);
        const bDone = drive(ts.url, b.token, matchID, sb, rng);
        await drive(ts.url, a.token, matchID, sa, rng, 15);
        sa.abort();
        await until(() => sa.ended(), 'dropped');
        const again = openStream(ts.url, matchID, a.token);
        await until(() => again.lines.length > 0, 'gameFull again');
        expect(again.lines[0].type).toBe('gameFull');
        // At the current state: no older than what the dropped stream saw, and any later state follows as gameState lines.
        expect(again.lines[0].stateID).toBeGreaterThanOrEqual(sa.lines.at(-1)!.stateID);
        expect(again.lines[0].stateID).toBeLessThanOrEqual(ts.server.service.peek(matchID)!.state._stateID);
        const last = await drive(ts.url, a.token, matchID, again, rng);
        expect(last?.type).toBe('gameFinish');
        expect((await bDone)?.type).toBe('gameFinish');
        for (const l of again.lines) checkPrivate(states, matchID, '0', l);
      }, 120_000);

    if (o.human)
      it('a human on a socket plays a bot to the end', async () => {
        const matchID = await newMatch(ts.url);
        const h = await api(ts.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Woodward' });
        expect((await join(ts.url, matchID, '1', b.token)).status).toBe(200);
        const human = player(ts.url, matchID, '0', h.body.playerCredentials);
        const s = openStream(ts.url, matchID, b.token);
        await until(() => s.lines.length > 0 && human.state() !== null, 'both synced');
        // The players' chat, both ways.
        human.client.sendChatMessage('hello bot');
        await until(() => s.lines.some((l) => l.type === 'chatLine'), 'the chat line on the stream');
        expect(s.lines.find((l) => l.type === 'chatLine')).toMatchObject({ type: 'chatLine', seat: '0', text: 'hello bot' });
        expect((await api(ts.url, `/api/bot/game/${matchID}/chat`, { text: 'good luck' }, bearer(b.token))).status).toBe(200);
        await until(() => human.client.chatMessages.some((m) => m.payload === 'good luck' && m.sender === '1'), 'the bot\'s line at the human');
        s.lines.splice(0, s.lines.length, ...s.lines.filter((l) => l.type !== 'chatLine'));
        const botDone = drive(ts.url, b.token, matchID, s, seeded(3).next);
        const rng = seeded(4).next;
        for (let n = 0; n < 2000; n++) {
          await until(() => human.state() !== null, 'synced');
          const st = human.state()!;
          if (st.ctx.gameover) break;
          if (st.G.prompt?.player !== '0') {
            await until(() => human.state()!._stateID !== st._stateID, 'the bot moved', 20_000);
            continue;
          }
          const options = legalMoves(st.G as unknown as WatergateState, '0');
          const m = options[Math.floor(rng() * options.length)];
          (human.client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
          await until(() => human.state()!._stateID !== st._stateID, 'the human\'s move', 5_000).catch(() => undefined);
        }
        expect(human.state()!.ctx.gameover).toBeDefined();
        expect((await botDone)?.type).toBe('gameFinish');
        for (const l of s.lines) checkPrivate(states, matchID, '1', l);
        human.stop();
      }, 180_000);
  });
}
