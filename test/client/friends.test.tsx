// @vitest-environment happy-dom
/**
 * Friends and push on the page, with the server's answers stubbed (the server's side is
 * test/server/follows.test.ts and push.test.ts): the lobby lists followed players with who is online,
 * their games and watch links, in the page's language; the profile's Follow button follows and
 * unfollows by name; the account page subscribes this browser (the server key, the page language) and
 * ends it on both sides, or says when this browser cannot take pushes; nothing shows signed out.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import { usePageWords } from '../helpers/page-words';
import { Friends } from '../../client/lobby/Friends';
import { FollowButton } from '../../client/account/FollowButton';
import { PushSettings } from '../../client/account/PushSettings';
import { rememberAccount } from '../../client/account/session';
import pages from '../../client/i18n/locales/pages/pt-BR';

usePageWords('pt-BR');

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A stubbed server: `GET /api/following` answers `players`; follow/unfollow change it; every request is noted. */
function server(players: { username: string; online: boolean; playing: number; watch: string[] }[]) {
  const sent: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const method = init?.method ?? 'GET';
      sent.push(`${method} ${url.pathname}`);
      const m = /^\/api\/follow\/(.+)$/.exec(url.pathname);
      if (m && method === 'POST') return players.push({ username: decodeURIComponent(m[1]), online: false, playing: 0, watch: [] }), json({ following: true });
      if (m && method === 'DELETE') return players.splice(0, players.length), json({ following: false });
      if (url.pathname === '/api/following') return json({ players });
      return json({ error: 'no' }, 404);
    }),
  );
  return sent;
}

describe('the lobby friends list', () => {
  it('shows each followed player online or away, their games and a watch link for public ones, in Portuguese', async () => {
    rememberAccount('Ann');
    server([
      { username: 'Bob', online: true, playing: 2, watch: ['m1'] },
      { username: 'Cy', online: false, playing: 0, watch: [] },
    ]);
    const { container } = render(<Friends />);
    await vi.waitFor(() => expect(container.querySelector('[data-friends]')).not.toBeNull());
    const bob = container.querySelector('[data-friend="Bob"]')!;
    expect(bob.getAttribute('data-online')).toBe('true');
    expect(bob.textContent).toContain(pages.friends!.online);
    expect(bob.textContent).toContain('jogando 2 partidas');
    expect(bob.querySelector('a[data-watch="m1"]')?.getAttribute('href')).toBe('#/match/m1');
    expect(bob.querySelector('a[href="#/player/Bob"]')).not.toBeNull();
    const cy = container.querySelector('[data-friend="Cy"]')!;
    expect(cy.textContent).toContain(pages.friends!.away);
    expect(cy.querySelector('[data-watch]')).toBeNull();
  });

  it('says how to follow someone when the list is empty, and shows nothing signed out', async () => {
    rememberAccount('Ann');
    server([]);
    const { container, unmount } = render(<Friends />);
    await vi.waitFor(() => expect(container.querySelector('[data-friends="0"]')?.textContent).toContain(pages.friends!.none));
    unmount();
    rememberAccount(null);
    const sent = server([]);
    const out = render(<Friends />);
    await new Promise((r) => setTimeout(r, 50));
    expect(out.container.innerHTML).toBe('');
    expect(sent).toEqual([]);
  });
});

describe('the profile Follow button', () => {
  it('follows, then unfollows, by name; absent on your own profile', async () => {
    rememberAccount('Ann');
    const sent = server([]);
    const { container } = render(<FollowButton username="Bob Woodward" />);
    await vi.waitFor(() => expect(container.querySelector('[data-follow="off"] button')?.textContent).toBe(pages.friends!.follow));
    fireEvent.click(container.querySelector('button')!);
    await vi.waitFor(() => expect(container.querySelector('[data-follow="on"] button')?.textContent).toBe(pages.friends!.unfollow));
    expect(container.querySelector('[data-follow="on"]')!.textContent).toContain('Você segue Bob Woodward.');
    fireEvent.click(container.querySelector('button')!);
    await vi.waitFor(() => expect(container.querySelector('[data-follow="off"]')).not.toBeNull());
    expect(sent).toEqual(['GET /api/following', 'POST /api/follow/Bob%20Woodward', 'DELETE /api/follow/Bob%20Woodward']);
    const own = render(<FollowButton username="ann" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(own.container.innerHTML).toBe('');
  });
});

describe('the account page push settings', () => {
  it('subscribes this browser with the server key and the page language, then ends it on both sides', async () => {
    const key = Buffer.from(Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i))).toString('base64url');
    const sent: string[] = [];
    let current: { endpoint: string; toJSON(): unknown; unsubscribe(): Promise<boolean> } | null = null;
    let askedKey: Uint8Array | null = null;
    const sub = {
      endpoint: 'https://push.example/abc',
      toJSON: () => ({ endpoint: 'https://push.example/abc', keys: { p256dh: 'P', auth: 'A' } }),
      unsubscribe: async () => ((current = null), sent.push('browser unsubscribe'), true),
    };
    vi.stubGlobal('PushManager', class {});
    vi.stubGlobal('Notification', Object.assign(class {}, { permission: 'default', requestPermission: async () => 'granted' }));
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve({ pushManager: { getSubscription: async () => current, subscribe: async (o: { applicationServerKey: Uint8Array }) => ((askedKey = o.applicationServerKey), (current = sub)) } }) },
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        sent.push(`${init?.method ?? 'GET'} ${url.pathname}${init?.body ? ` ${String(init.body)}` : ''}`);
        if (url.pathname === '/api/push/key') return json({ publicKey: key });
        if (url.pathname === '/api/push/subscribe') return json(init?.method === 'DELETE' ? { removed: true } : { subscribed: true });
        return json({ error: 'no' }, 404);
      }),
    );
    try {
      const { container } = render(<PushSettings />);
      await vi.waitFor(() => expect(container.querySelector('[data-push="off"]')?.textContent).toContain(pages.push!.off));
      fireEvent.click(container.querySelector('button')!);
      await vi.waitFor(() => expect(container.querySelector('[data-push="on"]')?.textContent).toContain(pages.push!.on));
      expect(Buffer.from(askedKey!).toString('base64url')).toBe(key);
      fireEvent.click(container.querySelector('button')!);
      await vi.waitFor(() => expect(container.querySelector('[data-push="off"]')).not.toBeNull());
      expect(sent).toEqual([
        'GET /api/push/key',
        `POST /api/push/subscribe ${JSON.stringify({ endpoint: sub.endpoint, keys: { p256dh: 'P', auth: 'A' }, lang: 'pt-BR' })}`,
        `DELETE /api/push/subscribe ${JSON.stringify({ endpoint: sub.endpoint })}`,
        'browser unsubscribe',
      ]);
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker;
    }
  });


  it('says this browser cannot take pushes when it has no service worker or Push API', async () => {
    server([]);
    const { container } = render(<PushSettings />);
    await vi.waitFor(() => expect(container.querySelector('[data-push="unsupported"]')?.textContent).toContain(pages.push!.unsupported));
    expect(container.querySelector('button')).toBeNull();
  });
});
