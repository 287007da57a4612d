/**
 * Two boardgame.io clients play a whole match over socket.io to game over, each move picked from
 * legalMoves (what ai.enumerate returns) on the server's true state. Along the way, every message each
 * player receives is checked for the other side's secrets (hardening 7): hands, decks, the bag, face-down
 * track tokens (Editor), peeked tokens and drawn cards of the other player, and credentials — in the
 * state, the initial state, and boardgame.io's action log (move arguments). What the game record
 * (G.log) may say is the rules engine's business and is tested with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, secretsOf, type WatergateState } from '../../game/index';
import { seeded } from '../helpers/rng';
import { createAndJoin, player, startTestServer, until, type TestServer, stored } from './helpers';

type Seat = '0' | '1';
const other = (p: Seat): Seat => (p === '0' ? '1' : '0');

/** Everything in the true state that `viewer` must not learn (game/infostate.ts), but the bag (checked apart). */
const secretsFor = (G: WatergateState, viewer: Seat): string[] => [...secretsOf(G, viewer)].filter((id) => !G.bag.includes(id));

/**
 * A message split into what it shows now and what it reports:
 * - `shown`: the state (without the game record), where no secret and no bag content may appear;
 * - `actions`: boardgame.io's action log of the other seat's moves (move arguments), where no secret may
 *   appear unless the public game record of the same message names it (a card played and reshuffled
 *   into a deck within one move was public when played);
 * - `record`: the game record's entries added since the previous message (public by design).
 */
function split(msg: { event: string; args: unknown[] }, seenLog: { n: number }, viewer: Seat) {
  type Entry = { action: { payload: { playerID?: string } } };
  if (msg.event === 'update' || msg.event === 'sync') {
    // A whole state: what it shows, and the record entries since the last message.
    const [state, actions] =
      msg.event === 'update'
        ? [msg.args[1] as { G: { log: unknown[] } }, msg.args[2] as Entry[]]
        : [(msg.args[1] as { state: { G: { log: unknown[] } } }).state, (msg.args[1] as { log: Entry[] }).log];
    const from = msg.event === 'update' ? seenLog.n : 0;
    const { log, ...G } = state.G;
    seenLog.n = log.length;
    return {
      shown: JSON.stringify({ ...state, G, initial: msg.event === 'sync' ? (msg.args[1] as { initialState: unknown }).initialState : null }),
      actions: JSON.stringify(actions.filter((e) => e.action.payload.playerID !== viewer)), // own moves are no news
      record: JSON.stringify(log.slice(from)),
    };
  }
  if (msg.event === 'patch') {
    // [matchID, prevStateID, stateID, operations, deltalog]: operations on the record are its new entries.
    const ops = msg.args[3] as { path: string; value?: unknown }[];
    const onRecord = (o: { path: string }) => o.path === '/G/log' || o.path.startsWith('/G/log/');
    const added = ops.filter(onRecord);
    seenLog.n += added.length;
    return {
      shown: JSON.stringify(ops.filter((o) => !onRecord(o))),
      actions: JSON.stringify((msg.args[4] as Entry[]).filter((e) => e.action.payload.playerID !== viewer)),
      record: JSON.stringify(added.map((o) => o.value)),
    };
  }
  return { shown: JSON.stringify(msg.args), actions: '', record: '' };
}

describe('a complete match over socket.io', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('embedded');
  });
  afterAll(async () => t?.stop());

  it('two clients play from the first card to game over, and neither ever receives the other side\'s secrets', async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const players = { '0': player(t.url, matchID, '0', creds['0']), '1': player(t.url, matchID, '1', creds['1']) };
    const seen = { '0': { checked: 0, log: { n: 0 } }, '1': { checked: 0, log: { n: 0 } } };
    const rng = seeded(20260707);
    try {
      await until(() => players['0'].state() !== null && players['1'].state() !== null, 'both clients synced');
      let moves = 0;
      for (;;) {
        const { state } = await stored(t.store, matchID);
        const G = state.G as WatergateState;
        // Every message so far is checked against the true state it was made from.
        for (const p of ['0', '1'] as Seat[]) {
          const secrets = secretsFor(G, p);
          for (const msg of players[p].received.slice(seen[p].checked)) {
            const { shown, actions, record } = split(msg, seen[p].log, p);
            const where = `${msg.event} to seat ${p} (move ${moves})`;
            for (const s of [...secrets, ...G.bag]) expect(shown, `${where} shows ${s}`).not.toContain(`"${s}"`);
            for (const s of secrets) if (!record.includes(`"${s}"`)) expect(actions, `${where}: a move's arguments reveal ${s}`).not.toContain(`"${s}"`);
            for (const text of [shown, actions, record]) expect(text).not.toContain(creds[other(p)]);
          }
          seen[p].checked = players[p].received.length;
        }
        if (state.ctx.gameover) break;
        const p = G.prompt!.player as Seat;
        const options = legalMoves(G, p);
        expect(options.length, `seat ${p} has a legal move`).toBeGreaterThan(0);
        const m = options[rng.int(options.length)];
        const id = state._stateID;
        (players[p].client.moves as Record<string, (a: unknown) => void>)[m.move](m.args[0]);
        await until(() => players['0'].state()!._stateID > id && players['1'].state()!._stateID > id, `both clients past state ${id}`);
        moves++;
        expect(moves).toBeLessThan(2000);
      }
      const { state, metadata } = await stored(t.store, matchID);
      expect(state.ctx.gameover).toMatchObject({ winner: (state.G as WatergateState).winner });
      expect(metadata.gameover).toEqual(state.ctx.gameover);
      expect(players['0'].state()!.ctx.gameover).toEqual(state.ctx.gameover);
      expect(players['1'].state()!.G.winner).toBe((state.G as WatergateState).winner);
      expect(moves).toBeGreaterThan(20);
      // Neither credentials nor hands reached the server's log.
      const logs = t.logs.join('\n');
      expect(logs).not.toContain(creds['0']);
      expect(logs).not.toContain(creds['1']);
    } finally {
      players['0'].stop();
      players['1'].stop();
    }
  }, 300_000);
});
