/**
 * One authority on the move path: for every move a player sends over the socket, the rules are asked
 * once — one `check` of the decision it answers, one listing of its options (to find the engine's own
 * option), one `apply` — and nothing else on the server asks them again (boardgame.io's flow is not run:
 * its ctx follows the engine's state, game/advance.ts). Refused moves cost one check and no apply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECISIONS } from '../../game/decisions';
import { legalMoves, type WatergateState } from '../../game/index';
import { createAndJoin, player, startTestServer, until, type TestServer } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('embedded');
});
afterAll(async () => t?.stop());

describe('the move path asks the rules once per move', () => {
  it('one check, one listing of options and one apply per move; a refused move is checked once and never applied', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const players = { '0': player(t.url, matchID, '0', creds['0']), '1': player(t.url, matchID, '1', creds['1']) };
    await until(() => players['0'].state() !== null && players['1'].state() !== null, 'both synced');

    // The players here share the server's process: only what the server does is counted.
    let counting = true;
    const calls = { check: 0, options: 0, apply: 0 };
    const restore: (() => void)[] = [];
    for (const d of Object.values(DECISIONS) as Record<'check' | 'options' | 'apply', (...a: unknown[]) => unknown>[]) {
      for (const k of ['check', 'options', 'apply'] as const) {
        const fn = d[k];
        d[k] = (...a: unknown[]) => {
          if (counting) calls[k]++;
          return fn(...a);
        };
        restore.push(() => (d[k] = fn));
      }
    }
    let refusedMoves = 0;
    try {
      const before = t.server.service.peek(matchID)!.state._stateID;
      for (let i = 0; i < 40; i++) {
        const seat = t.server.service.peek(matchID)!.state.G.prompt!.player as '0' | '1';
        const mine = players[seat].state()!;
        counting = false;
        const options = legalMoves(mine.G as unknown as WatergateState, seat);
        counting = true;
        // Each player picks from its own view; the first option the server takes (a choice the view
        // could not see through is refused, and counted like any refused move).
        let moved = false;
        for (const m of options) {
          const id = mine._stateID;
          const refused = new Promise<string>((r) => players[seat].socket.once('watergate:error', () => r('refused')));
          (players[seat].client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
          const moves = until(() => players['0'].state()!._stateID > id && players['1'].state()!._stateID > id, `state past ${id}`).then(() => 'moved');
          if ((await Promise.race([moves, refused])) === 'moved') {
            moved = true;
            break;
          }
          refusedMoves++;
        }
        expect(moved).toBe(true);
      }
      const moves = t.server.service.peek(matchID)!.state._stateID - before;
      expect(moves).toBeGreaterThanOrEqual(40);
      expect(calls).toEqual({ check: moves + refusedMoves, options: moves + refusedMoves, apply: moves });

      // A move of the right kind with an argument that is no option: checked once, refused, not applied.
      const G = t.server.service.peek(matchID)!.state.G;
      const seat = G.prompt!.player as '0' | '1';
      const kind = DECISIONS[G.prompt!.kind].move;
      const refused = new Promise((r) => players[seat].socket.once('watergate:error', r));
      Object.assign(calls, { check: 0, options: 0, apply: 0 });
      (players[seat].client.moves as Record<string, (a: unknown) => void>)[kind]({ nothing: 'like an option' });
      await refused;
      expect(calls.apply).toBe(0);
      expect(calls.check).toBe(1);
    } finally {
      for (const r of restore) r();
      players['0'].stop();
      players['1'].stop();
    }
  });
});
