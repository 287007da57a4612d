/**
 * Moves are kept as the rules read them, over a real socket to a running server: a legal move padded
 * with a field the rules never read (small, or 50 kB) is refused with a reason and changes nothing; the
 * same move as the engine offers it is played; nothing of the padding reaches the opponent, a spectator,
 * the stored moves or the replay after the game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { legalMoves, type WatergateState } from '../../game/index';
import type { GuardError } from '../../protocol/index';
import { MAX_MOVE_ARG_CHARS } from '../../server/match/service';
import { api, createAndJoin, next, nextState, rawSocket, startTestServer, stored, until, type TestServer } from './helpers';

const MARK = 'PADDING-THE-RULES-NEVER-READ';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded');
});
afterAll(async () => t?.stop());

async function synced(matchID: string, seat: string | null, credentials?: string) {
  const s = await rawSocket(t.url);
  const heard: string[] = [];
  s.onAny((event: string, ...args: unknown[]) => heard.push(`${event} ${JSON.stringify(args)}`));
  const got = next(s, 'sync');
  s.emit('sync', matchID, seat, credentials, 2);
  await got;
  return { s, heard };
}

const action = (type: string, arg: unknown, playerID: string, credentials: string) => ({ type: 'MAKE_MOVE', payload: { type, args: arg === undefined ? [] : [arg], playerID, credentials } });

async function refusal(s: Socket, ...args: unknown[]): Promise<GuardError> {
  const err = next<[GuardError]>(s, 'watergate:error');
  s.emit('update', ...args);
  return (await err)[0];
}

describe('a move is stored as the rules read it', () => {
  it('refuses padded moves, plays the engine option, and no padding reaches anyone or anything', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const truth = async () => (await stored(t.store, matchID)).state as { G: WatergateState; _stateID: number };
    const start = await truth();
    const mover = start.G.prompt!.player as '0' | '1';
    const other = mover === '0' ? '1' : '0';
    const me = await synced(matchID, mover, creds[mover]);
    const them = await synced(matchID, other, creds[other]);
    const watcher = await synced(matchID, null);

    const option = legalMoves(start.G, mover)[0];
    const arg = option.args[0] as Record<string, unknown>;
    expect(option.move).toBe('play');
    // 10 kB: refused by the argument's cap (a 50 kB message is more than a socket frame may carry: below).
    const padded: unknown[] = [{ ...arg, note: MARK }, { ...arg, note: MARK + 'x'.repeat(10_000) }];
    if (arg.target) padded.push({ ...arg, target: { ...(arg.target as object), note: MARK } });
    for (const p of padded) {
      const r = await refusal(me.s, action('play', p, mover, creds[mover]), start._stateID, matchID, mover);
      if (JSON.stringify(p).length > MAX_MOVE_ARG_CHARS) expect(r).toMatchObject({ type: 'bad-request', message: expect.stringContaining(`${MAX_MOVE_ARG_CHARS} characters`) });
      else expect(r).toMatchObject({ type: 'invalid-move', message: expect.stringContaining("not one of the rules' options") });
    }
    // 50 kB of padding is more than one socket message may carry: that connection is closed, nothing else.
    const big = await synced(matchID, mover, creds[mover]);
    const closed = next(big.s, 'disconnect');
    big.s.emit('update', action('play', { ...arg, note: MARK + 'x'.repeat(50_000) }, mover, creds[mover]), start._stateID, matchID, mover);
    await closed;
    // Nothing was played: not in storage, not in the server's memory.
    expect((await truth())._stateID).toBe(start._stateID);
    expect(t.server.service.peek(matchID)!.state._stateID).toBe(start._stateID);
    // The bots' path (in-process) is held to the same rule.
    expect(await t.server.move(matchID, mover, 'play', { ...arg, note: MARK })).toContain("not one of the rules' options");

    // The option itself, its fields written in another order, is played as the engine's own object.
    const reordered = Object.fromEntries(Object.entries(arg).reverse());
    const delivered = nextState(them.s);
    me.s.emit('update', action('play', reordered, mover, creds[mover]), start._stateID, matchID, mover);
    expect(await delivered).toBe(start._stateID + 1);
    const rows = await t.store.movesAfter(matchID, 0);
    expect(rows.at(-1)!.action.payload.args).toEqual([arg]);

    // A padded resignation is refused; a plain one ends the game, so the replay can be read.
    const now = await truth();
    const resignMark = await refusal(me.s, action('resign', { note: MARK }, mover, creds[mover]), now._stateID, matchID, mover);
    expect(resignMark.type).toBe('invalid-move');
    me.s.emit('update', action('resign', undefined, mover, creds[mover]), now._stateID, matchID, mover);
    await until(async () => (await truth()).G.winner !== null, 'the resignation saved');
    await until(() => watcher.heard.length >= 3 && them.heard.length >= 3, 'the deliveries');

    const replay = await api(t.url, `/games/watergate/${matchID}/replay`);
    expect(replay.status).toBe(200);
    const everything = [JSON.stringify(replay.body), JSON.stringify(await t.store.movesAfter(matchID, 0)), JSON.stringify((await stored(t.store, matchID)).log), ...them.heard, ...watcher.heard];
    for (const text of everything) expect(text).not.toContain(MARK);
    // The mover heard only the refusals' reasons, never the padding echoed back.
    for (const line of me.heard) expect(line).not.toContain(MARK);
    for (const x of [me, them, watcher]) x.s.close();
  });
});
