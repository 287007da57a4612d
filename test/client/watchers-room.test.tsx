// @vitest-environment happy-dom
/**
 * The spectators' room on the match page's client (client/net/GameClient.tsx, client/board/Watchers.tsx)
 * against a real server over socket.io: two spectators' pages hear each other's lines; a seat's page
 * shows the players' chat and never the room. The server runs as a process of its own (as `npm start`
 * runs it), and the page's address is the server's, as in a browser.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { SocketIO } from 'boardgame.io/multiplayer';
import { Watergate } from '../../game';
import { WatergateBoard } from '../../client/board/Board';
import { ShellContext } from '../../client/board/shell';
import { GameClient } from '../../client/net/GameClient';
import { initI18n } from '../../client/i18n';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { createAndJoin } from '../server/helpers';

const dir = mkdtempSync(join(tmpdir(), 'wg-watchers-'));
let t: ServerProcess;
beforeAll(async () => {
  localStorage.setItem('watergate.lang', 'en');
  await initI18n();
  const port = await freePort();
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`http://127.0.0.1:${port}/`);
  t = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'warn' }, port);
}, 120_000);
afterAll(() => {
  cleanup();
  t?.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const page = (matchID: string, seat?: '0' | '1', credentials?: string) =>
  render(
    <ShellContext.Provider value={{ online: true }}>
      <GameClient game={Watergate} board={WatergateBoard} loading={() => <p>loading</p>} multiplayer={SocketIO({ server: t.url, socketOpts: { transports: ['websocket'], forceNew: true } as never })} matchID={matchID} playerID={seat} credentials={credentials} />
    </ShellContext.Provider>,
  );

describe("the spectators' room on the page", () => {
  it("two spectators' pages hear each other; a seat's page has the players' chat and no room", async () => {
    const { matchID, creds } = await createAndJoin(t.url);
    const [a, b] = [page(matchID), page(matchID)];
    const seat = page(matchID, '0', creds['0']);
    const roomOf = (r: ReturnType<typeof page>) => r.container.querySelector('section.watchers');
    await waitFor(() => expect(roomOf(a) && roomOf(b)).toBeTruthy(), { timeout: 15_000 });
    fireEvent.change(roomOf(a)!.querySelector('input')!, { target: { value: 'Anyone for coffee at the Hay-Adams' } });
    fireEvent.submit(roomOf(a)!.querySelector('form')!);
    await waitFor(() => expect([...roomOf(b)!.querySelectorAll('li')].map((li) => li.textContent)).toEqual([expect.stringMatching(/^Spectator [A-Za-z0-9_-]{4}: Anyone for coffee at the Hay-Adams$/)]), { timeout: 15_000 });
    await waitFor(() => expect(seat.container.querySelector('section.chat form.chat-say')).not.toBeNull(), { timeout: 15_000 });
    expect(roomOf(seat)).toBeNull();
    expect(seat.container.textContent).not.toContain('Hay-Adams');
  }, 60_000);
});
