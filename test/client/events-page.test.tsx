// @vitest-environment happy-dom
/**
 * The event page (client/events/EventPage.tsx) in Portuguese against a real server process: an event's
 * players, then its rounds and standings as the event runs, read again by the page by itself (no
 * reload); the events list links it. A paired event's pairings: both games of each pair with their sides
 * and links, then the pair's score (here every game is forfeited by its no-show, so each pair is ½ – ½).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import EventPage from '../../client/events/EventPage';
import EventsPage from '../../client/events/EventsPage';
import { freePort, startServerProcess, type ServerProcess } from '../../tools/cluster';
import { usePageWords } from '../helpers/page-words';
import { apiFrom, TEST_PASSWORD_COST } from '../server/helpers';

usePageWords('pt-BR');
const dir = mkdtempSync(join(tmpdir(), 'wg-events-page-'));
let t: ServerProcess;
beforeAll(async () => {
  const port = await freePort();
  (window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(`http://127.0.0.1:${port}/`);
  t = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'warn', PASSWORD_COST: String(TEST_PASSWORD_COST), EVENT_TICK_MS: '100' }, port);
}, 120_000);
afterAll(() => {
  t?.proc.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A signed-in account's calls from Node (node:http: the page's own fetch keeps no cookie of ours). */
async function account(name: string) {
  const r = await apiFrom('127.0.0.1', t.url, '/auth/signup', { username: name, password: 'correct horse battery' }, { origin: t.url });
  const cookie = ([] as string[]).concat(r.headers['set-cookie'] ?? []).find((c) => c.startsWith('wg_session='))!.split(';')[0];
  return (path: string, body?: unknown) => apiFrom('127.0.0.1', t.url, path, body, { cookie, origin: t.url });
}

describe('the event page', () => {
  it('shows the entrants, then round 1 and the standings once the creator starts it, by itself, in Portuguese', async () => {
    const calls = await Promise.all(['ana', 'bia', 'caio', 'davi'].map(account));
    const id = (await calls[0]('/api/tournaments', { name: 'Copa de Teste', rounds: 3, clock: 'none', rated: false, paired: true })).body.id as string;
    for (const c of calls) await c(`/api/tournaments/${id}/join`, {});
    const list = render(<EventsPage />);
    await waitFor(() => expect(list.container.querySelector(`[data-event="${id}"]`)?.textContent).toContain('inscrições abertas'), { timeout: 15_000 });
    list.unmount();
    const page = render(<EventPage id={id} />);
    await waitFor(() => expect(page.container.querySelectorAll('tr[data-player]')).toHaveLength(4), { timeout: 15_000 });
    expect(page.container.textContent).toContain('Começa com pelo menos 4 jogadores.');
    expect(page.container.textContent).toContain('Mãos espelhadas');
    expect(page.container.querySelector('button')).toBeNull(); // signed out: nothing to join
    await calls[0](`/api/tournaments/${id}/start`, {});
    await waitFor(() => expect(page.container.textContent).toContain('Rodada 1'), { timeout: 20_000 });
    expect(page.container.textContent).toContain('em andamento');
    expect(page.container.querySelectorAll('li[data-match]')).toHaveLength(2);
    // Paired deals: everyone has played (or is to play) both sides once.
    for (const row of page.container.querySelectorAll('tr[data-player]')) expect(row.textContent).toContain('Editor 1 · Nixon 1');
  }, 90_000);
});

describe('a paired event on its page', () => {
  const dir2 = mkdtempSync(join(tmpdir(), 'wg-events-pairs-'));
  let u: ServerProcess;
  beforeAll(async () => {
    // Nobody plays: each game is forfeited by its no-show after a second (the Editor, as neither decided), so each player wins one game of the pair.
    const port = await freePort();
    // The page (and happy-dom's fetch, which checks origins) is on this server's origin from now on.
    (window as unknown as { happyDOM: { setURL(x: string): void } }).happyDOM.setURL(`http://127.0.0.1:${port}/`);
    u = await startServerProcess({ DATA_DIR: dir2, LOG_LEVEL: 'warn', PASSWORD_COST: String(TEST_PASSWORD_COST), EVENT_TICK_MS: '100', EVENT_NO_SHOW_SECONDS: '1' }, port);
  }, 120_000);
  afterAll(() => {
    u?.proc.kill('SIGKILL');
    rmSync(dir2, { recursive: true, force: true });
  });

  it("shows each pairing's two games, sides swapped, with links, and the pair's score once both are over", async () => {
    const at = async (name: string) => {
      const r = await apiFrom('127.0.0.1', u.url, '/auth/signup', { username: name, password: 'correct horse battery' }, { origin: u.url });
      const cookie = ([] as string[]).concat(r.headers['set-cookie'] ?? []).find((c) => c.startsWith('wg_session='))!.split(';')[0];
      return (path: string, body?: unknown) => apiFrom('127.0.0.1', u.url, path, body, { cookie, origin: u.url });
    };
    const calls = await Promise.all(['eva', 'fabi', 'gil', 'hugo'].map(at));
    const id = (await calls[0]('/api/tournaments', { name: 'Copa dos Pares', rounds: 1, clock: 'none', rated: false, paired: true })).body.id as string;
    for (const c of calls) await c(`/api/tournaments/${id}/join`, {});
    await calls[0](`/api/tournaments/${id}/start`, {});
    const page = render(<EventPage id={id} />);
    await waitFor(() => expect(page.container.querySelectorAll('[data-pair-score]')).toHaveLength(2), { timeout: 30_000 });
    const pairs = [...page.container.querySelectorAll('li[data-pair]')];
    expect(pairs).toHaveLength(2);
    for (const p of pairs) {
      const games = [...p.querySelectorAll('li[data-match]')];
      expect(games).toHaveLength(2);
      expect(games[0].textContent).toMatch(/^Partida 1: /);
      expect(games[1].textContent).toMatch(/^Partida 2: /);
      // Sides swapped: game 1's Editor is game 2's Nixon.
      const [e1, n1] = (games[0].textContent!.match(/: (\w+) \(Editor\) – (\w+) \(Nixon\)/) ?? []).slice(1);
      expect(games[1].textContent).toContain(`${n1} (Editor) – ${e1} (Nixon)`);
      // Each game links its replay (both are over).
      expect(games.map((g) => g.querySelector('a')!.getAttribute('href'))).toEqual(games.map((g) => `#/replay/${g.getAttribute('data-match')}`));
      expect(p.querySelector('[data-pair-score]')!.textContent).toBe(`Par: ${e1} ½ – ½ ${n1}`);
    }
    page.unmount();
  }, 90_000);
});
