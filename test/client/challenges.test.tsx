// @vitest-environment happy-dom
/**
 * Challenges in the page, with the server's answers stubbed (the routes themselves: test/server/
 * challenges.test.ts, event-stream.test.ts): a challenge arriving on the event stream shows in the lobby
 * at once, in the page's language, and accepting it opens the match; the profile's form sends what was
 * chosen (never `rated` to a bot), and its block button blocks and unblocks.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { usePageWords } from '../helpers/page-words';
import { ChallengeForm, ChallengesPanel } from '../../client/account/Challenges';
import pages from '../../client/i18n/locales/pages/pt-BR';

usePageWords('pt-BR');

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const challenge = (id: string, from: string) => ({ id, from, to: 'ana', side: 'editor', clock: 'none', rated: false, takeBacks: true, status: 'pending', createdAt: 0, expiresAt: Date.now() + 60_000 });

/** A stubbed server: each route answers from its queue (the event stream: a stream the test writes to); every request noted. */
function server(replies: Record<string, (() => Response)[]>) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  let push: (line: unknown) => void = () => undefined;
  const events = new ReadableStream<Uint8Array>({ start: (c) => void (push = (l) => c.enqueue(new TextEncoder().encode(`${JSON.stringify(l)}\n`))) });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
      const method = init?.method ?? 'GET';
      sent.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : null });
      if (path === '/api/stream/event') return new Response(events, { headers: { 'content-type': 'application/x-ndjson' } });
      const next = replies[`${method} ${path}`]?.shift();
      return next ? next() : json({ error: 'not expected' }, 500);
    }),
  );
  return { sent, push: (l: unknown) => push(l) };
}

describe('challenges in the lobby', () => {
  it('a challenge on the event stream shows at once; accepting opens the match', async () => {
    const s = server({
      'GET /api/challenge': [() => json({ in: [], out: [] }), () => json({ in: [challenge('c1', 'bruno')], out: [] }), () => json({ in: [], out: [] })],
      'POST /api/challenge/c1/accept': [() => json({ matchID: 'm1', playerID: '1', playerCredentials: 'secret' })],
    });
    window.location.hash = '#/';
    const { container } = render(<ChallengesPanel onSeats={() => undefined} />);
    await vi.waitFor(() => expect(s.sent.some((x) => x.path === '/api/stream/event')).toBe(true));
    expect(container.querySelector('[data-challenges]')).toBeNull();
    s.push({ type: 'challenge', id: 'c1', challenge: challenge('c1', 'bruno') });
    await vi.waitFor(() => expect(container.querySelector('[data-challenge="c1"]')).not.toBeNull());
    const row = container.querySelector('[data-challenge="c1"]')!;
    expect(row.textContent).toContain(pages.challenge!.from!.replace('{{name}}', 'bruno'));
    // The challenger took the Editor: the challenged player plays Nixon; take-backs said.
    expect(row.textContent).toContain('Nixon');
    expect(row.textContent).toContain(pages.challenge!.withTakeBacks!);
    fireEvent.click(row.querySelector('[data-accept]')!);
    await vi.waitFor(() => expect(window.location.hash).toBe('#/match/m1'));
    expect(JSON.parse(localStorage.getItem('watergate.seats') ?? '{}').m1).toMatchObject({ matchID: 'm1', playerID: '1', credentials: 'secret' });
  });
  it('says a challenge was accepted only for a new match, not for those the stream replays on opening', async () => {
    let seats = 0;
    const s = server({
      'GET /api/challenge': Array.from({ length: 6 }, () => () => json({ in: [], out: [] })),
      'GET /me/matches': [() => json({ matches: [{ matchID: 'old', playerID: '0', playerCredentials: 'x', name: 'ana', over: false }] })],
    });
    const { container } = render(<ChallengesPanel onSeats={() => void seats++} />);
    await vi.waitFor(() => expect(s.sent.some((x) => x.path === '/api/stream/event')).toBe(true));
    // The opening replay: the match the account already plays.
    s.push({ type: 'gameStart', matchID: 'old', seat: '0' });
    await vi.waitFor(() => expect(s.sent.filter((x) => x.path === '/api/challenge').length).toBeGreaterThanOrEqual(2));
    expect(container.querySelector('[role="status"]')).toBeNull();
    expect(seats).toBe(0);
    // A challenge accepted while the lobby is open: a new match.
    s.push({ type: 'gameStart', matchID: 'new', seat: '1' });
    await vi.waitFor(() => expect(container.querySelector('[role="status"]')?.textContent).toBe(pages.challenge!.started));
    expect(seats).toBe(1);
  });
});

describe('the profile\'s challenge form', () => {
  it('sends the chosen side, clock, rated and take-backs; blocks and unblocks', async () => {
    const s = server({
      'GET /api/block': [() => json({ blocks: [] })],
      'POST /api/challenge/bruno': [() => json({ id: 'c2', challenge: challenge('c2', 'ana') })],
      'POST /api/block/bruno': [() => json({ blocked: 'bruno' })],
      'DELETE /api/block/bruno': [() => new Response(null, { status: 204 })],
    });
    const { container } = render(<ChallengeForm username="bruno" bot={false} />);
    await vi.waitFor(() => expect(container.querySelector('[data-block="off"]')).not.toBeNull());
    fireEvent.change(container.querySelector('[data-challenge-side]')!, { target: { value: 'nixon' } });
    fireEvent.change(container.querySelector('[data-challenge-clock]')!, { target: { value: 'live' } });
    fireEvent.click(container.querySelector('[data-challenge-rated]')!);
    expect(container.querySelector('[data-challenge-takebacks]')).toBeNull(); // a rated game has none
    fireEvent.click(container.querySelector('[data-send-challenge]')!);
    await vi.waitFor(() => expect(container.querySelector('[role="status"]')).not.toBeNull());
    expect(s.sent.find((x) => x.path === '/api/challenge/bruno')!.body).toEqual({ side: 'nixon', clock: 'live', rated: true, takeBacks: false });
    // Paired deals: the box says so in the page's language and is sent; take-backs are not offered with it.
    fireEvent.click(container.querySelector('[data-challenge-rated]')!);
    expect(container.querySelector('[data-challenge-takebacks]')).not.toBeNull();
    const label = container.querySelector('[data-challenge-paired]')!.parentElement!.textContent!;
    expect(label).not.toContain('challenge.'); // a written text, not the key
    expect(label.trim().length).toBeGreaterThan(10);
    fireEvent.click(container.querySelector('[data-challenge-paired]')!);
    expect(container.querySelector('[data-challenge-takebacks]')).toBeNull();
    fireEvent.click(container.querySelector('[data-send-challenge]')!);
    await vi.waitFor(() => expect(s.sent.filter((x) => x.path === '/api/challenge/bruno')).toHaveLength(2));
    expect(s.sent.filter((x) => x.path === '/api/challenge/bruno')[1].body).toEqual({ side: 'nixon', clock: 'live', rated: false, takeBacks: false, paired: true });
    fireEvent.click(container.querySelector('[data-block]')!);
    await vi.waitFor(() => expect(container.querySelector('[data-block="on"]')).not.toBeNull());
    expect(container.querySelector('[data-send-challenge]')).toBeNull();
    fireEvent.click(container.querySelector('[data-block]')!);
    await vi.waitFor(() => expect(container.querySelector('[data-block="off"]')).not.toBeNull());
    expect(s.sent.filter((x) => x.path === '/api/block/bruno').map((x) => x.method)).toEqual(['POST', 'DELETE']);
  });

  it('offers no rated game against a bot, and says why', async () => {
    server({ 'GET /api/block': [() => json({ blocks: [] })] });
    const { container } = render(<ChallengeForm username="kitbot" bot />);
    await vi.waitFor(() => expect(container.querySelector('[data-block]')).not.toBeNull());
    expect(container.querySelector('[data-challenge-rated]')).toBeNull();
    expect(container.textContent).toContain(pages.challenge!.botCasual!);
  });
});
