/**
 * Take-backs over a real server (HTTP and sockets, SQLite and PostgreSQL, two processes on PostgreSQL and
 * Redis): free against the computer, its replies taken back with the player's decision; refused with the
 * reason after a private draw, after the opponent decided, on an old or repeated request; with the
 * opponent's consent, accepted and refused; one durable write each, a new state id holding the earlier
 * state, the clocks as they were; delivered to every board, also on the other process; the replay
 * rebuilding every state; no secret in any answer; the route's bodies checked and its use limited.
 */
import type { State } from 'boardgame.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Thinker } from '../../bots/bgio';
import { replayStates, takenBackSteps } from '../../client/replay/steps';
import { advance, EMPTY, hide, legalMoves, legalOption, refill, secretsOf, type MoveChoice, type PlayArgs, type PlayerID, type WatergateState } from '../../game/index';
import { sealedBy, TAKE_BACK_KINDS } from '../../game/undo';
import { seatEntry, STATUS_EVENT, type GuardError, type MatchStatus, type TakeBackStatus } from '../../protocol/index';
import type { ReplayData } from '../../protocol/replay';
import { startServer } from '../../server/app';
import { openStore } from '../../server/storage/index';
import type { MatchStore } from '../../server/storage/types';
import { signUp, twoProcesses } from './account-helpers';
import { api, createAndJoin, logCapture, next, openTestStore, statusIn, player, postgresAvailable, rawSocket, startTestServer, stored, until, type Backend, type TestServer } from './helpers';

const hasPg = await postgresAvailable();
type S = State<WatergateState>;
type Player = ReturnType<typeof player>;
type Seat = '0' | '1';

/** The computer, quick and plain: a value play on a marker when it has one, a pass, else the first option (from its own view only). */
const views: unknown[] = [];
const thinker: Thinker = (view) => {
  views.push(structuredClone(view));
  const moves = legalMoves(refill(view, EMPTY), view.viewer!);
  const m =
    moves.find((x) => x.move === 'play' && (x.args[0] as PlayArgs).as === 'value' && ['initiative', 'momentum'].includes((x.args[0] as PlayArgs).target!.kind)) ??
    moves.find((x) => x.move === 'react' && x.args[0] === null) ??
    moves[0];
  return { move: m, iterations: 0, elapsedMs: 0, stats: [] };
};

/** Whether the engine would let `seat` take this move back: not an ask, and it draws, shuffles and shows the seat nothing. */
function open(s: S, seat: PlayerID, m: MoveChoice): boolean {
  const legal = legalOption(s.G, seat, m.move, m.args[0]);
  if ('error' in legal) return false;
  const after = advance(s, { type: 'MAKE_MOVE', payload: { type: m.move, args: [legal.arg], playerID: seat } }).state;
  return !TAKE_BACK_KINDS[s.G.prompt!.kind](legal.arg) && sealedBy(s, after, seat) === null;
}
/** A move that would draw or reveal something to `seat` (a private draw, a new deal), if there is one now. */
function drawing(s: S, seat: PlayerID): MoveChoice | undefined {
  return legalMoves(s.G, seat).find((m) => {
    const legal = legalOption(s.G, seat, m.move, m.args[0]);
    if ('error' in legal || TAKE_BACK_KINDS[s.G.prompt!.kind](legal.arg)) return false;
    return sealedBy(s, advance(s, { type: 'MAKE_MOVE', payload: { type: m.move, args: [legal.arg], playerID: seat } }).state, seat) !== null;
  });
}
/** A value play that draws nothing, preferring the markers (then an event may be played with the same card). */
const valuePlay = (s: S, seat: PlayerID) => {
  const ms = legalMoves(s.G, seat).filter((m) => m.move === 'play' && (m.args[0] as PlayArgs).as === 'value' && open(s, seat, m));
  return ms.find((m) => ['initiative', 'momentum'].includes((m.args[0] as PlayArgs).target!.kind)) ?? ms[0];
};
const anyOpen = (s: S, seat: PlayerID) => legalMoves(s.G, seat).find((m) => open(s, seat, m)) ?? legalMoves(s.G, seat)[0];

/** Sends a move through the seat's own socket client and waits until its board has a newer state. */
async function send(pl: Player, m: MoveChoice): Promise<void> {
  const id = pl.state()!._stateID;
  (pl.client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
  await until(() => pl.state()!._stateID > id, `${m.move} delivered`);
}

const lastStatus = (pl: Player): MatchStatus | undefined => pl.received.map(statusIn).filter((s) => s !== undefined).at(-1);
const takeBackOf = (pl: Player): TakeBackStatus | undefined => lastStatus(pl)?.takeBack;

/** Counts the store's writes (the real store, its methods wrapped). */
function countWrites(store: MatchStore) {
  const writes: string[] = [];
  for (const name of ['commitMove', 'updateMetadata', 'createMatch'] as const) {
    const f = store[name].bind(store) as (...a: unknown[]) => Promise<unknown>;
    (store as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => (writes.push(name), f(...a));
  }
  return writes;
}

for (const backend of ['embedded', 'postgres'] as Backend[]) {
  describe.skipIf(backend === 'postgres' && !hasPg)(`take-backs (${backend})`, () => {
    let t: TestServer;
    let writes: string[];
    beforeAll(async () => {
      t = await startTestServer(backend, { bots: { thinker } });
      writes = countWrites(t.store);
    });
    afterAll(async () => t?.stop());
    const undo = (matchID: string, body: Record<string, unknown>) => api(t.url, `/games/watergate/${matchID}/undo`, body);
    const truth = (matchID: string) => t.server.service.peek(matchID)!.state as S;
    /** The seats' presence stored (a write of its own after each sync), so the writes a test counts next are its own. */
    const present = (matchID: string, seats: PlayerID[]) =>
      until(() => seats.every((s) => seatEntry(t.server.service.peek(matchID)!.metadata.players, s)?.isConnected === true), 'the seats stored as present');

    async function vsComputer(setupData?: unknown) {
      const { matchID } = (await api(t.url, '/games/watergate/vs-computer', { botSeat: '1', ...(setupData ? { setupData } : {}) })).body;
      const creds = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' })).body.playerCredentials as string;
      const me = player(t.url, matchID, '0', creds);
      await until(() => me.state() !== null && me.state()!.G.prompt?.player === '0', 'the Editor to decide');
      await present(matchID, ['0']);
      return { matchID, creds, me };
    }
    /** The computer has answered: the decision is the human's again, on a state past `id`. */
    const answered = (pl: Player, id: number) => until(() => pl.state()!._stateID > id && pl.state()!.G.prompt?.player === '0', "the computer's reply");

    it('against the computer (free by default): a value play is taken back with the computer\'s reply, as ONE write of a new state holding the earlier one', async () => {
      const { matchID, creds, me } = await vsComputer();
      try {
        const before = truth(matchID);
        const beforeView = structuredClone(me.state()!.G);
        const play = valuePlay(before, '0');
        const firstReply = views.length;
        await send(me, play);
        await answered(me, before._stateID + 1);
        const head = truth(matchID);
        expect(head._stateID).toBeGreaterThanOrEqual(before._stateID + 2);
        await until(() => takeBackOf(me)?.stateID === head._stateID, 'the status of the head');
        expect(takeBackOf(me)).toMatchObject({ mode: 'free', why: { '0': null, '1': 'computer' }, request: null });
        const rowsBefore = (await t.store.movesAfter(matchID, -1)).length;
        writes.length = 0;

        const r = await undo(matchID, { playerID: '0', credentials: creds, stateID: head._stateID });
        expect(r).toMatchObject({ status: 200, body: { stateID: head._stateID + 1 } });
        expect(Object.keys(r.body)).toEqual(['stateID']);
        // One durable write: the row saying it was a take-back, with a snapshot of the earlier state.
        expect(writes).toEqual(['commitMove']);
        const rows = await t.store.movesAfter(matchID, -1);
        expect(rows).toHaveLength(rowsBefore + 1);
        expect(rows.at(-1)!.action.payload).toEqual({ type: 'undo', args: [{ to: before._stateID }], playerID: '0' });
        const loaded = (await t.store.load(matchID))!;
        expect(loaded.snapshot._stateID).toBe(head._stateID + 1);
        expect(loaded.moves).toEqual([]);
        // The earlier position under a new, higher id: in memory, in storage and on the board.
        const back = truth(matchID);
        expect(back._stateID).toBe(head._stateID + 1);
        expect(back.G).toEqual(before.G);
        expect(back.ctx).toEqual(before.ctx);
        expect(back.plugins.random).toEqual(before.plugins.random);
        expect((await stored(t.store, matchID)).state.G).toEqual(before.G);
        await until(() => me.state()!._stateID === back._stateID, 'the board taken back');
        expect(me.state()!.G).toEqual(beforeView);
        await until(() => takeBackOf(me)?.stateID === back._stateID, 'the status after it');
        expect(takeBackOf(me)!.why['0']).toBe('none');

        // The same play again: the computer sees exactly what it saw the first time (the take-back leaves
        // no trace in its seat's view), and answers.
        const thought = views.length;
        await send(me, play);
        await answered(me, back._stateID + 1);
        expect(views[thought]).toEqual(views[firstReply]);
        // The same card may now be played otherwise (an event, if it has one): the position is the earlier one.
        expect(legalMoves(back.G, '0')).toEqual(legalMoves(before.G, '0'));
      } finally {
        me.stop();
      }
    });

    it('a take-back after a private draw is refused with the reason, and nothing is written', async () => {
      const { matchID, creds } = await createAndJoin(t.url, { takeBacks: 'free' });
      const ps = { '0': player(t.url, matchID, '0', creds['0']), '1': player(t.url, matchID, '1', creds['1']) };
      try {
        await until(() => ps['0'].state() !== null && ps['1'].state() !== null, 'both boards');
        let draw: MoveChoice | undefined;
        let seat: Seat = '0';
        for (let i = 0; i < 300 && !draw; i++) {
          const s = truth(matchID);
          seat = s.G.prompt!.player as Seat;
          draw = drawing(s, seat);
          if (!draw) await send(ps[seat], anyOpen(s, seat));
        }
        expect(draw).toBeDefined();
        await send(ps[seat], draw!);
        const head = truth(matchID);
        // The decision is still the drawer's, or the opponent's who has not decided yet: either way, refused for the draw.
        writes.length = 0;
        const r = await undo(matchID, { playerID: seat, credentials: creds[seat], stateID: head._stateID });
        expect(r.status).toBe(409);
        expect(r.body).toEqual({ error: 'a draw, a shuffle or something revealed came after your decision', reason: 'hidden' });
        expect(writes).toEqual([]);
        expect(truth(matchID)._stateID).toBe(head._stateID);
        await until(() => takeBackOf(ps[seat])?.stateID === head._stateID, 'the status');
        expect(takeBackOf(ps[seat])!.why[seat]).toBe('hidden');
      } finally {
        ps['0'].stop();
        ps['1'].stop();
      }
    });

    it('between people (consent by default): the opponent accepts; refuses; or has decided since', async () => {
      const { matchID, creds } = await createAndJoin(t.url);
      const spectator = player(t.url, matchID, null);
      const ps = { '0': player(t.url, matchID, '0', creds['0']), '1': player(t.url, matchID, '1', creds['1']) };
      const answers: string[] = [];
      const call = async (seat: Seat, extra: Record<string, unknown> = {}) => {
        const r = await undo(matchID, { playerID: seat, credentials: creds[seat], ...extra });
        answers.push(JSON.stringify(r.body));
        return r;
      };
      try {
        await until(() => ps['0'].state() !== null && ps['1'].state() !== null && spectator.state() !== null, 'three boards');
        await present(matchID, ['0', '1']);
        const before = truth(matchID);
        await send(ps['0'], valuePlay(before, '0'));
        const head = truth(matchID);
        await until(() => takeBackOf(ps['1'])?.stateID === head._stateID, 'the status');
        expect(takeBackOf(ps['1'])).toMatchObject({ mode: 'consent', why: { '0': null } });

        // Asked: it waits for the opponent, and every board sees the request.
        writes.length = 0;
        expect(await call('0', { stateID: head._stateID })).toMatchObject({ status: 202, body: { pending: true } });
        expect(writes).toEqual(['updateMetadata']);
        for (const pl of [ps['0'], ps['1'], spectator]) await until(() => takeBackOf(pl)?.request?.by === '0', 'the request on every board');
        expect(takeBackOf(ps['1'])!.request).toMatchObject({ by: '0', stateID: head._stateID });
        expect(takeBackOf(ps['1'])!.request!.expiresAt).toBeGreaterThan(Date.now());
        // Asking twice, or answering one's own request: refused.
        expect((await call('0')).body.reason).toBe('pending');
        expect((await call('0', { accept: true })).body.reason).toBe('own');
        // Accepted: taken back, one write, both boards and the spectator on the earlier position.
        writes.length = 0;
        const accepted = await call('1', { accept: true, stateID: head._stateID });
        expect(accepted).toMatchObject({ status: 200, body: { stateID: head._stateID + 1 } });
        expect(writes).toEqual(['commitMove']);
        expect(truth(matchID).G).toEqual(before.G);
        for (const pl of [ps['0'], ps['1'], spectator]) await until(() => pl.state()!._stateID === head._stateID + 1, 'every board taken back');
        expect(ps['1'].state()!.G).toEqual(hide(before.G, '1'));
        expect(spectator.state()!.G).toEqual(hide(before.G, null));
        // The answer again (a duplicate): nothing left to answer.
        expect((await call('1', { accept: true })).body.reason).toBe('noRequest');

        // Refused: the asker sees it, may not ask again on this position, and the opponent's move clears it.
        await send(ps['0'], valuePlay(truth(matchID), '0'));
        const again = truth(matchID);
        expect((await call('0')).status).toBe(202);
        expect(await call('1', { accept: false })).toMatchObject({ status: 200, body: { refused: true } });
        await until(() => takeBackOf(ps['0'])?.request?.refused === true, 'the refusal on the asker\'s board');
        expect(takeBackOf(ps['0'])!.why['0']).toBe('refused');
        expect((await call('0')).body).toEqual({ error: 'your opponent refused to take back this position', reason: 'refused' });
        expect(truth(matchID)._stateID).toBe(again._stateID);
        await send(ps['1'], anyOpen(again, '1'));
        const later = truth(matchID);
        await until(() => takeBackOf(ps['0'])?.stateID === later._stateID, 'the status after the move');
        expect(takeBackOf(ps['0'])!.request).toBe(null);
        // The move's status came in the move's own message: one frame for each board, not two.
        for (const pl of [ps['0'], ps['1']]) {
          const frames = pl.received.filter((m) => (m.event === 'patch' && m.args[2] === later._stateID) || (m.event === STATUS_EVENT && (m.args[0] as MatchStatus).takeBack?.stateID === later._stateID));
          expect(frames.map((m) => m.event)).toEqual(['patch']);
          expect(statusIn(frames[0])?.takeBack?.stateID).toBe(later._stateID);
        }
        // The opponent decided since: refused with that reason (and the old state's request, if sent, is stale).
        expect((await call('0')).body).toEqual({ error: 'your opponent has decided since your last decision', reason: 'opponent' });
        expect((await call('0', { stateID: again._stateID })).body.reason).toBe('stale');
        expect(takeBackOf(ps['0'])!.why['0']).toBe('opponent');

        // No secret in any answer: the HTTP bodies are reasons and ids only; the boards' states and
        // statuses carry nothing their viewer may not see (checked on the taken-back state, and on every status).
        for (const a of answers) expect(a).toMatch(/^\{("stateID":\d+|"pending":true|"refused":true|"error":"[^"]+","reason":"[a-zA-Z]+")\}$/);
        const undoneAt = head._stateID + 1;
        for (const [pl, viewer] of [[ps['0'], '0'], [ps['1'], '1'], [spectator, null]] as const) {
          const secrets = secretsOf(before.G, viewer);
          const delivered = pl.received.filter((m) => (m.event === 'patch' && m.args[2] === undoneAt) || (m.event === 'update' && (m.args[1] as { _stateID: number })._stateID === undoneAt));
          expect(delivered.length).toBe(1);
          const text = JSON.stringify(delivered) + JSON.stringify(pl.received.map(statusIn));
          for (const id of secrets) expect(text).not.toContain(`"${id}"`);
          for (const c of Object.values(creds)) expect(JSON.stringify(pl.received)).not.toContain(c);
        }
      } finally {
        for (const pl of [ps['0'], ps['1'], spectator]) pl.stop();
      }
    });

    it('stale and repeated requests are refused: one of two identical requests takes back, the other is told the game moved on', async () => {
      const { matchID, creds } = await createAndJoin(t.url, { takeBacks: 'free' });
      const p0 = player(t.url, matchID, '0', creds['0']);
      try {
        await until(() => p0.state() !== null, 'the board');
        const s0 = truth(matchID);
        await send(p0, valuePlay(s0, '0'));
        const head = truth(matchID);
        const body = { playerID: '0', credentials: creds['0'], stateID: head._stateID };
        const both = await Promise.all([undo(matchID, body), undo(matchID, body)]);
        expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
        expect(both.find((r) => r.status === 409)!.body).toEqual({ error: 'the game has moved on since the state you saw', reason: 'stale' });
        expect(truth(matchID)._stateID).toBe(head._stateID + 1);
        // Nothing further of the Editor's to take back (the game's start): refused, however often asked.
        expect((await undo(matchID, { playerID: '0', credentials: creds['0'] })).body.reason).toBe('none');
        expect((await undo(matchID, { playerID: '1', credentials: creds['1'] })).body.reason).toBe('none');
      } finally {
        p0.stop();
      }
    });

    it('a timed match: the clocks return to their values at the position taken back, the decider\'s running again', async () => {
      const { matchID, creds } = await createAndJoin(t.url, { takeBacks: 'free', clock: { initialSeconds: 600, incrementSeconds: 5 } });
      const p0 = player(t.url, matchID, '0', creds['0']);
      try {
        await until(async () => (await stored(t.store, matchID)).metadata.clock !== undefined && p0.state() !== null, 'the clock started');
        await new Promise((r) => setTimeout(r, 300));
        await send(p0, valuePlay(truth(matchID), '0'));
        await new Promise((r) => setTimeout(r, 300));
        const rows = await t.store.movesAfter(matchID, -1);
        const found = rows.at(-1)!.clock!;
        expect(found.running).toBe('0');
        const moved = (await stored(t.store, matchID)).metadata.clock;
        expect(moved.running).toBe('1');
        const at = Date.now();
        const r = await undo(matchID, { playerID: '0', credentials: creds['0'] });
        expect(r.status).toBe(200);
        const c = (await stored(t.store, matchID)).metadata.clock;
        expect(found.remaining).toEqual({ '0': 600_000, '1': 600_000 });
        expect(moved.remaining['0']).not.toBe(600_000);
        expect(c.remaining).toEqual(found.remaining);
        expect(c).toMatchObject({ running: '0', stateID: r.body.stateID });
        expect(c.since).toBeGreaterThanOrEqual(at);
        expect(c.deadline).toBe(c.since + found.remaining['0']);
        await until(() => lastStatus(p0)?.clock?.stateID === r.body.stateID, 'the clock on the board');
      } finally {
        p0.stop();
      }
    });

    it('the replay keeps the take-back as a step of its own and rebuilds every state exactly; the steps taken back are marked', async () => {
      const { matchID, creds } = await createAndJoin(t.url, { takeBacks: 'free' });
      const p0 = player(t.url, matchID, '0', creds['0']);
      const p1 = player(t.url, matchID, '1', creds['1']);
      try {
        await until(() => p0.state() !== null && p1.state() !== null, 'the boards');
        const ps = { '0': p0, '1': p1 };
        await send(p0, valuePlay(truth(matchID), '0'));
        const d = truth(matchID).G.prompt!.player as Seat;
        await send(ps[d], anyOpen(truth(matchID), d));
        expect((await undo(matchID, { playerID: d, credentials: creds[d] })).status).toBe(200);
        await send(ps[d], anyOpen(truth(matchID), d));
        await send(p0, { move: 'resign', args: [] });
        const data = (await api(t.url, `/games/watergate/${matchID}/replay`)).body as ReplayData;
        expect(data.moves.map((m) => m.move)).toEqual(['play', expect.any(String), 'undo', expect.any(String), 'resign']);
        const states = replayStates(data);
        expect(states.at(-1)).toEqual((await stored(t.store, matchID)).state);
        expect(states[3].G).toEqual(states[1].G);
        expect(states[3]._stateID).toBe(states[2]._stateID + 1);
        expect([...takenBackSteps(data)]).toEqual([2]);
      } finally {
        p0.stop();
        p1.stop();
      }
    });
  });
}

describe('the route', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded', { limits: { undo: { points: 10, seconds: 60 } } });
  });
  afterAll(async () => t?.stop());
  const undo = (matchID: string, body: unknown) => api(t.url, `/games/watergate/${matchID}/undo`, body);

  it('checks every field (400 names it), the credentials (403) and the match (404), and limits how often an address asks', async () => {
    const { matchID, creds } = await createAndJoin(t.url, { takeBacks: 'off' });
    const bad: [unknown, RegExp][] = [
      [[], /^request body must be a JSON object$/],
      [{ playerID: '0', credentials: creds['0'], extra: 1 }, /^unknown field "extra"$/],
      [{ playerID: '2', credentials: creds['0'] }, /^playerID must be/],
      [{ playerID: '0' }, /^credentials are required/],
      [{ playerID: '0', credentials: creds['0'], stateID: -1 }, /^stateID must be a whole number/],
      [{ playerID: '0', credentials: creds['0'], stateID: '3' }, /^stateID must be a whole number/],
      [{ playerID: '0', credentials: creds['0'], accept: 'yes' }, /^accept must be true or false$/],
    ];
    for (const [body, why] of bad) {
      const r = await undo(matchID, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(why);
    }
    expect((await undo(matchID, { playerID: '0', credentials: creds['1'] })).status).toBe(403);
    expect((await undo('nosuchmatch', { playerID: '0', credentials: creds['0'] })).status).toBe(404);
    // Every request counts, refused or not: the tenth is answered, the next one meets the limit's 429 with its wait.
    expect((await undo(matchID, { playerID: '0', credentials: creds['0'] })).body.reason).toBe('off');
    const r = await undo(matchID, { playerID: '0', credentials: creds['0'] });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r.body.error).toMatch(/^too many take-backs from your address: try again in \d+ seconds?$/);
  });

  it('a take-back is never a move: sent on the socket as one, it is refused and nothing changes', async () => {
    const { matchID, creds } = await createAndJoin(t.url, { takeBacks: 'free' });
    const s = await rawSocket(t.url);
    try {
      const synced = next<[string, { state: { _stateID: number } }]>(s, 'sync');
      s.emit('sync', matchID, '0', creds['0'], 2);
      const { state } = (await synced)[1];
      const refused = next<[GuardError]>(s, 'watergate:error');
      s.emit('update', { type: 'MAKE_MOVE', payload: { type: 'undo', args: [{ to: 0 }], playerID: '0', credentials: creds['0'] } }, state._stateID, matchID, '0');
      expect((await refused)[0]).toMatchObject({ type: 'bad-request' });
      expect((await stored(t.store, matchID)).state._stateID).toBe(state._stateID);
      expect(await t.server.move(matchID, '0', 'undo', { to: 0 })).toMatch(/^the game waits for "play", not "undo"$/);
    } finally {
      s.close();
    }
  });

  it('off in this match: refused with the reason; a rated match may only be created with take-backs off', async () => {
    const t2 = await startTestServer('embedded');
    try {
      const { matchID, creds } = await createAndJoin(t2.url, { takeBacks: 'off' });
      expect((await api(t2.url, `/games/watergate/${matchID}/undo`, { playerID: '0', credentials: creds['0'] })).body).toEqual({ error: 'take-backs are off in this match', reason: 'off' });
      const ann = await signUp(t2.url, 'takeback_ann');
      const rated = await ann.call('/games/watergate/create', { setupData: { takeBacks: 'free' } });
      expect(rated).toMatchObject({ status: 400, body: { error: 'takeBacks must be "off" in a rated match' } });
      expect((await ann.call('/games/watergate/create', { setupData: { takeBacks: 'off' } })).status).toBe(200);
      expect((await ann.call('/games/watergate/create', { rated: false, setupData: { takeBacks: 'free' } })).status).toBe(200);
      expect((await api(t2.url, '/games/watergate/create', { setupData: { takeBacks: 'sometimes' } })).body.error).toMatch(/takeBacks must be "off", "consent" or "free"/);
    } finally {
      await t2.stop();
    }
  });
});

describe('after a restart', () => {
  it('a match loaded from a snapshot at its head reads its line of play again from storage, and takes back', async () => {
    const { store, cleanup } = await openTestStore('embedded');
    const dir = (store as unknown as { dir: string }).dir;
    const { log } = logCapture();
    let server = await startServer({ store, port: 0, log, snapshotEvery: 1, limits: 'off' });
    try {
      const { matchID, creds } = await createAndJoin(server.url, { takeBacks: 'free' });
      const p0 = player(server.url, matchID, '0', creds['0']);
      await until(() => p0.state() !== null, 'the board');
      const before = server.service.peek(matchID)!.state as S;
      await send(p0, valuePlay(before, '0'));
      p0.stop();
      await server.close();
      server = await startServer({ store: await openStore({ dataDir: dir }), port: 0, log, snapshotEvery: 1, limits: 'off' });
      const r = await api(server.url, `/games/watergate/${matchID}/undo`, { playerID: '0', credentials: creds['0'] });
      expect(r).toMatchObject({ status: 200, body: { stateID: before._stateID + 2 } });
      expect((await stored(server.store, matchID)).state.G).toEqual(before.G);
    } finally {
      await server.close();
      await cleanup();
    }
  });
});

describe.skipIf(!hasPg)('two processes on PostgreSQL and Redis', () => {
  const procs = twoProcesses();
  it('asked on one process, accepted on the other: both boards, on either process, get the earlier position', async () => {
    const [a, b] = await procs();
    const { matchID, creds } = await createAndJoin(a.url);
    const ps = { '0': player(a.url, matchID, '0', creds['0']), '1': player(b.url, matchID, '1', creds['1']) };
    try {
      await until(() => ps['0'].state() !== null && ps['1'].state() !== null, 'both boards');
      const start = ps['0'].state()!;
      const mine = legalMoves(refill(start.G as never, EMPTY), '0').find((m) => m.move === 'play' && (m.args[0] as PlayArgs).as === 'value' && (m.args[0] as PlayArgs).target!.kind === 'initiative')!;
      await send(ps['0'], mine);
      await until(() => ps['1'].state()!._stateID === start._stateID + 1, 'the move on the other process');
      const asked = await api(a.url, `/games/watergate/${matchID}/undo`, { playerID: '0', credentials: creds['0'], stateID: start._stateID + 1 });
      expect(asked).toMatchObject({ status: 202, body: { pending: true } });
      // The request reaches the opponent's board on the other process (the bus carries the id; it reads storage).
      await until(() => takeBackOf(ps['1'])?.request?.by === '0', 'the request on the other process');
      const accepted = await api(b.url, `/games/watergate/${matchID}/undo`, { playerID: '1', credentials: creds['1'], accept: true });
      expect(accepted).toMatchObject({ status: 200, body: { stateID: start._stateID + 2 } });
      for (const pl of [ps['0'], ps['1']]) await until(() => pl.state()!._stateID === start._stateID + 2, 'both boards taken back');
      expect(ps['0'].state()!.G).toEqual(start.G);
      // And the asker's process plays on from there.
      await send(ps['0'], mine);
      await until(() => ps['1'].state()!._stateID === start._stateID + 3, 'play goes on');
    } finally {
      ps['0'].stop();
      ps['1'].stop();
    }
  });
});
