/**
 * Play starts only when both seats are taken: a move (a resign too) before that is refused with the
 * reason and changes nothing, over the socket and from inside; the computer does not think while its
 * human has not joined, and starts as soon as they do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type WatergateState } from '../../game/index';
import { samplerFor } from '../../bots/determinize';
import { botRng } from '../../bots/rng';
import type { Thinker } from '../../bots/bgio';
import type { GuardError } from '../../protocol/index';
import { api, next, nextState, player, rawSocket, startTestServer, stored, until, type TestServer } from './helpers';

/** A quick stand-in for the search: a legal move of a world sampled from the bot's own view; counted. */
let thoughts = 0;
const rng = botRng(11);
const thinker: Thinker = (view) => {
  thoughts++;
  const moves = legalMoves(samplerFor(view).sample(rng), view.viewer!);
  return { move: moves[0], iterations: 0, elapsedMs: 0, stats: [] };
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded', { bots: { thinker } });
});
afterAll(async () => t?.stop());

const stateID = async (matchID: string) => (await stored(t.store, matchID)).state._stateID as number;
const action = (type: string, args: unknown[], playerID: string, credentials: string) => ({ type: 'MAKE_MOVE', payload: { type, args, playerID, credentials } });

describe('play starts when both seats are taken', () => {
  it('refuses every move, resign included, while a seat is open, with the reason; nothing is written', async () => {
    const { matchID } = (await api(t.url, '/games/watergate/create', {})).body;
    const ann = (await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '0', playerName: 'Ann' })).body.playerCredentials as string;
    const s = await rawSocket(t.url);
    const synced = next<[string, { state: { G: WatergateState; _stateID: number } }]>(s, 'sync');
    s.emit('sync', matchID, '0', ann, 2);
    const { state } = (await synced)[1];
    const m = legalMoves(state.G, '0')[0];
    const waiting = { matchID, type: 'invalid-move', message: 'the game starts when both seats are taken: waiting for Nixon' };
    for (const [type, args] of [[m.move, m.args], ['resign', []]] as const) {
      const refused = next<[GuardError]>(s, 'watergate:error');
      s.emit('update', action(type, [...args], '0', ann), state._stateID, matchID, '0');
      expect((await refused)[0]).toEqual(waiting);
    }
    expect(await t.server.move(matchID, '0', m.move, m.args[0])).toBe(waiting.message);
    expect(await stateID(matchID)).toBe(state._stateID);
    expect((await stored(t.store, matchID)).metadata.gameover).toBeUndefined();

    // With the other seat taken, the same move goes through.
    await api(t.url, `/games/watergate/${matchID}/join`, { playerID: '1', playerName: 'Bob' });
    const moved = nextState(s);
    s.emit('update', action(m.move, m.args, '0', ann), state._stateID, matchID, '0');
    await moved;
    expect(await stateID(matchID)).toBe(state._stateID + 1);
    s.close();

    // Waiting for the Editor, as seen from Nixon's side.
    const other = (await api(t.url, '/games/watergate/create', {})).body.matchID as string;
    await api(t.url, `/games/watergate/${other}/join`, { playerID: '1', playerName: 'Bob' });
    expect(await t.server.move(other, '1', 'resign', undefined)).toBe('the game starts when both seats are taken: waiting for the Editor');
  });

  it('the computer as the Editor waits for its human, and moves once they join', async () => {
    const { matchID, humanSeat } = (await api(t.url, '/games/watergate/vs-computer', { botSeat: '0', level: 'easy' })).body;
    const before = await stateID(matchID);
    thoughts = 0;
    // A spectator brings the match into memory (the bot is asked), and a Lobby read looks at it.
    const spectator = player(t.url, matchID, null);
    try {
      await until(() => spectator.state() !== null, 'spectator synced');
      expect((await api(t.url, `/games/watergate/${matchID}`)).body.toMove).toBeNull();
      await new Promise((r) => setTimeout(r, 300));
      expect(thoughts).toBe(0);
      expect(await stateID(matchID)).toBe(before);

      const join = await api(t.url, `/games/watergate/${matchID}/join`, { playerID: humanSeat, playerName: 'Ann' });
      expect(join.status).toBe(200);
      await until(() => spectator.state()!._stateID > before, 'the bot to move');
      expect(thoughts).toBeGreaterThan(0);
      const G = (await stored(t.store, matchID)).state.G as WatergateState;
      expect(G.log.some((e) => e.player === '0')).toBe(true);
    } finally {
      spectator.stop();
    }
  });
});
