/**
 * A lobby "vs computer" match, end to end on a real server: the route seats the bot (marked in the
 * metadata as `data.bot`), the server plays it in-process through the match service (worker-thread
 * search, no socket of its own), while a socket client plays the human seat to the end of the game.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LobbyClient } from 'boardgame.io/client';
import { legalMoves, type WatergateView } from '../../game';
import { LEVEL_NAMES } from '../../protocol/index';
import { samplerFor } from '../../bots/determinize';
import { botRng } from '../../bots/rng';
import { playSeat } from '../../bots/seat';
import { startServer, type RunningServer } from '../../server/app';
import { openStore } from '../../server/storage/index';
import { stored } from '../server/helpers';

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wg-bots-'));
  const store = await openStore({ dataDir: dir });
  server = await startServer({ store, port: 0, host: '127.0.0.1', bots: { threads: 1 } });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A "human" that picks uniformly among its legal moves, from its own view like any client. */
const randomHuman = (seed: number) => {
  const rng = botRng(seed);
  return (view: WatergateView) => {
    const moves = legalMoves(samplerFor(view).sample(rng), view.viewer!);
    return { move: moves[rng.int(moves.length)], iterations: 0, elapsedMs: 0, stats: [] };
  };
};

describe('lobby match vs computer', () => {
  it('the server plays the bot seat in-process until the game ends', async () => {
    const res = await post('/games/watergate/vs-computer', { botSeat: '1', level: 'easy' });
    expect(res.status).toBe(200);
    const { matchID, botSeat, humanSeat } = await res.json();
    expect([botSeat, humanSeat]).toEqual(['1', '0']);

    const lobby = new LobbyClient({ server: server.url });
    // The bot's seat is marked in the public metadata (no credentials shown); the match is unlisted.
    const match = await lobby.getMatch('watergate', matchID);
    expect(match.players[1]).toEqual({ id: 1, name: 'Computer', data: { bot: 'easy' }, isConnected: true });
    expect((await lobby.listMatches('watergate')).matches.some((m) => m.matchID === matchID)).toBe(false);
    // The bot's seat is taken: a human cannot claim it.
    await expect(lobby.joinMatch('watergate', matchID, { playerID: '1', playerName: 'Mallory' })).rejects.toThrow();

    const { playerCredentials } = await lobby.joinMatch('watergate', matchID, { playerID: '0', playerName: 'Ann' });
    await expect(lobby.joinMatch('watergate', (await lobby.createMatch('watergate', { numPlayers: 2 })).matchID, { playerID: '1', playerName: 'Eve', data: { bot: 'hard' } })).rejects.toThrow(/400/);
    const human = playSeat({ server: server.url, matchID, playerID: '0', credentials: playerCredentials, thinker: randomHuman(7) });
    // The bot has no socket: the human's is the only one.
    await new Promise((r) => setTimeout(r, 500));
    expect(await server.metrics.registry.getSingleMetricAsString('wg_open_sockets')).toMatch(/wg_open_sockets 1\b/);
    const winner = await human.finished;
    expect(winner === '0' || winner === '1').toBe(true);
    const state = await stored(server.store, matchID);
    expect(state.state?.ctx.gameover).toMatchObject({ winner });
    expect(state.state!.G.log.length).toBeGreaterThan(30);
    // Every bot decision was a search in the worker pool, counted for operators.
    const bot = state.state!.G.log.filter((e: { player?: string }) => e.player === '1').length;
    const thinks = /wg_bot_think_seconds_count (\d+)/.exec(await server.metrics.registry.metrics())![1];
    expect(Number(thinks)).toBeGreaterThan(0);
    expect(bot).toBeGreaterThan(0);
  }, 120_000);

  it('refuses bad requests with a clear error and creates nothing', async () => {
    const before = (await new LobbyClient({ server: server.url }).listMatches('watergate')).matches.length;
    for (const [body, message] of [
      [{ botSeat: '2' }, /botSeat/],
      // Every level protocol/ lists, in its order, in the words of the refusal.
      [{ level: 'impossible' }, new RegExp(`^level must be ${LEVEL_NAMES.slice(0, -1).map((l) => `"${l}"`).join(', ')} or "${LEVEL_NAMES.at(-1)}"$`)],
      [{ botSeat: '0', colour: 'red' }, /unknown field "colour"/],
      [{ setupData: { jokerFallback: 'never' } }, /jokerFallback/],
    ] as const) {
      const res = await post('/games/watergate/vs-computer', body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(message);
    }
    expect(server.bots!.active).toBe(0);
    expect((await new LobbyClient({ server: server.url }).listMatches('watergate')).matches.length).toBe(before);
  });
});
