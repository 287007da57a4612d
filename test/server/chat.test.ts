/**
 * Chat kept with the match: only seated players speak, as themselves; at most 500 characters and 5 lines
 * in 10 seconds per seat, refused with the reason beyond that; both players hear it (spectators never do:
 * privacy.test.ts); a seat's socket that comes (a reload) gets the lines kept so far, also after a server
 * restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { GuardError } from '../../protocol/index';
import { startServer, type RunningServer } from '../../server/app';
import { openStore } from '../../server/storage/index';
import { createAndJoin, next, rawSocket } from './helpers';

const dir = mkdtempSync(joinPath(tmpdir(), 'wg-chat-'));
let server: RunningServer | null = null;
const start = async () => (server = await startServer({ store: await openStore({ dataDir: dir }), port: 0 }));
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Line = { id: string; sender: string; payload: string; at: number };

async function join(url: string, matchID: string, seat: '0' | '1' | null, credentials?: string) {
  const s = await rawSocket(url);
  const heard: Line[] = [];
  s.on('chat', (_m: string, line: Line) => heard.push(line));
  const synced = next(s, 'sync');
  s.emit('sync', matchID, seat, credentials, 2);
  await synced;
  return { s, heard };
}

const say = (s: Socket, matchID: string, sender: string | null, payload: unknown, id = `m${Math.random().toString(36).slice(2, 10)}`) => s.emit('chat', matchID, { id, sender, payload });
/** Waits until `n` of what `list` collects have come (a loaded machine can take a while), then a moment for any extra one. */
async function settle(list: () => unknown[], n: number): Promise<void> {
  await expect.poll(list, { timeout: 10_000, interval: 25 }).toHaveLength(n);
  await new Promise((r) => setTimeout(r, 150));
}

describe('chat', () => {
  it('seated players speak as themselves; both hear; lines are text of at most 500 characters, 5 per 10 s', async () => {
    const { url } = await start();
    const { matchID, creds } = await createAndJoin(url);
    const ed = await join(url, matchID, '0', creds['0']);
    const nx = await join(url, matchID, '1', creds['1']);
    const watcher = await join(url, matchID, null);

    say(ed.s, matchID, '0', '  <b>Follow the money</b>  ');
    for (const who of [ed, nx]) await settle(() => who.heard, 1);
    for (const who of [ed, nx]) expect(who.heard.map((l) => [l.sender, l.payload])).toEqual([['0', '<b>Follow the money</b>']]);

    const refusals: GuardError[] = [];
    for (const s of [ed.s, nx.s, watcher.s]) s.on('watergate:error', (e: GuardError) => refusals.push(e));
    say(watcher.s, matchID, null, 'I am only watching'); // spectators read, they do not speak
    say(nx.s, matchID, '0', 'I am the Editor'); // nobody speaks for another seat
    say(nx.s, matchID, '1', 'x'.repeat(501));
    say(nx.s, matchID, '1', '   ');
    await settle(() => refusals, 4);
    expect(refusals.map((r) => r.message)).toEqual([
      'only a seated player may chat, as themselves',
      'only a seated player may chat, as themselves',
      'a chat message is 1 to 500 characters of text',
      'a chat message is 1 to 500 characters of text',
    ]);
    refusals.length = 0;
    for (let i = 1; i <= 6; i++) say(nx.s, matchID, '1', `line ${i}`);
    await settle(() => refusals, 1);
    await settle(() => ed.heard, 6);
    expect(refusals.map((r) => r.message)).toEqual(['at most 5 messages in 10 seconds: wait a moment']);
    expect(ed.heard.map((l) => l.payload).slice(1)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    expect(watcher.heard).toEqual([]);
    for (const who of [ed, nx, watcher]) who.s.close();

    // A reload (a new socket) gets the chat kept so far; so does a page after a server restart.
    const again = await join(url, matchID, '0', creds['0']);
    await settle(() => again.heard, 6);
    expect(again.heard).toHaveLength(6);
    again.s.close();
    await server!.close();
    const restarted = await start();
    const after = await join(restarted.url, matchID, '1', creds['1']);
    await settle(() => after.heard, 6);
    expect(after.heard.map((l) => l.payload)).toEqual(['<b>Follow the money</b>', 'line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
    after.s.close();
  });
});
