/**
 * `npm run arena` (tools/arena/): duplicate deals (every deal of a pair played from both seats, the same
 * seeds for every pair), worker threads, the JSONL of each game and the tables; unpaired play on fresh
 * seeds; a module-path engine; names refused before anything runs; and the games played as matches on a
 * real server through the HTTP bot API (`--server`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plan, table, type GameRecord } from '../../tools/arena/stats';
import { api, startTestServer, stored } from '../server/helpers';
import { signUp } from '../server/account-helpers';

const dir = mkdtempSync(join(tmpdir(), 'arena-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function arena(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'tools/arena/main.ts', ...args], { env: { ...process.env, NODE_ENV: 'production' } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('the arena', () => {
  it('paired: every pair plays each deal from both seats, in worker threads; JSONL and the tables', async () => {
    const first = join(dir, 'first.mjs');
    writeFileSync(first, 'export function decide(view, legal) { return legal[0]; }\n');
    const out = join(dir, 'games.jsonl');
    const r = await arena(['--bots', `random,mcts:6:4,${first}`, '--deals', '2', '--paired', '--threads', '2', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const games = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as GameRecord);
    expect(games).toHaveLength(3 * 2 * 2);
    for (const g of games) {
      expect(g).toMatchObject({ seed: expect.stringMatching(/^arena\/[01]$/), moves: expect.any(Number) });
      expect(g.moves).toBeGreaterThan(10);
      // Its twin: the same deal, the same two engines, the seats swapped.
      expect(games.filter((h) => h.seed === g.seed && h.seats['0'] === g.seats['1'] && h.seats['1'] === g.seats['0'])).toHaveLength(1);
      if (g.winner) expect(g.winnerBot).toBe(g.seats[g.winner]);
    }
    expect(r.out).toMatch(/Glicko-2 as Editor/);
    expect(r.out).toMatch(/\| random vs mcts:6:4 \| 4 \| .* \| 2 \| .* \| \d+ \/ \d+ \/ \d+ \|/);
  }, 300_000);

  it('unpaired: fresh seeds, the seats alternating; paired seeds are shared by every pair', () => {
    const u = plan(['a', 'b', 'c'], 3, false);
    expect(u).toHaveLength(3 * 6);
    expect(new Set(u.map((t) => t.seed)).size).toBe(u.length);
    expect(u.filter((t) => t.pair[0] === 'a' && t.pair[1] === 'b' && t.seats['0'] === 'a')).toHaveLength(3);
    const p = plan(['a', 'b', 'c'], 3, true);
    expect(new Set(p.map((t) => t.seed))).toEqual(new Set(['arena/0', 'arena/1', 'arena/2']));
  });

  it('the paired-deal score counts a split deal as ½ and a sweep as 1', () => {
    const g = (seed: string, e: string, n: string, winner: '0' | '1'): GameRecord => ({ seed, deal: Number(seed), pair: ['x', 'y'], seats: { '0': e, '1': n }, winner, winnerBot: winner === '0' ? e : n, reason: 'connected', moves: 50, rounds: 5, ms: 1 });
    const t = table(['x', 'y'], [g('0', 'x', 'y', '0'), g('0', 'y', 'x', '1'), g('1', 'x', 'y', '0'), g('1', 'y', 'x', '0')], true);
    expect(t).toMatch(/\| x vs y \| 4 \| 75\.0% .* \| 2 \| 75\.0% .* \| 1 \/ 1 \/ 0 \|/);
    expect(t).toMatch(/\| x \| 4 \| 3 \| 2\/2 \| 1\/2 \|/);
  });

  it('refuses unknown engines, and --paired or missing tokens with --server, before playing', async () => {
    const bad = await arena(['--bots', 'random,watergate:godlike', '--deals', '1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/unknown level/);
    const paired = await arena(['--bots', 'random,mcts', '--deals', '1', '--paired', '--server', 'http://127.0.0.1:1', '--token', 'x,y']);
    expect(paired.code).toBe(2);
    expect(paired.err).toMatch(/seeded deals/);
    const tokens = await arena(['--bots', 'random,mcts', '--deals', '1', '--server', 'http://127.0.0.1:1', '--token', 'x']);
    expect(tokens.code).toBe(2);
    expect(tokens.err).toMatch(/one bot account token per engine/);
  }, 60_000);

  it('--server: the games are matches on a running server, each seat played through the HTTP bot API by its engine\'s bot account', async () => {
    const ts = await startTestServer('embedded', { limits: { botMove: { points: 100_000, seconds: 60 }, botStream: { points: 1000, seconds: 60 }, token: { points: 1000, seconds: 60 } } });
    try {
      const tokens: string[] = [];
      for (const name of ['arena_one', 'arena_two']) {
        const who = await signUp(ts.url, name);
        const t = await who.call('/auth/tokens', { name: 'arena', scopes: ['bot'] });
        expect((await api(ts.url, '/api/bot/upgrade', {}, { authorization: `Bearer ${t.body.token}` })).status).toBe(200);
        tokens.push(t.body.token);
      }
      const out = join(dir, 'server.jsonl');
      const r = await arena(['--bots', 'random,mcts:6:4', '--deals', '1', '--server', ts.url, '--token', tokens.join(','), '--threads', '2', '--out', out]);
      expect(r.code, r.err).toBe(0);
      const games = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as GameRecord);
      expect(games).toHaveLength(2);
      expect(new Set(games.map((g) => g.seats['0']))).toEqual(new Set(['random', 'mcts:6:4']));
      for (const g of games) {
        const { state } = await stored(ts.store, g.seed);
        expect(state.ctx.gameover).toBeDefined();
        expect(g.winner).toBe(state.G.winner);
        expect(state._stateID).toBeGreaterThan(20);
      }
      expect(r.out + r.err).not.toContain(tokens[0]);
    } finally {
      await ts.stop();
    }
  }, 300_000);
});
