/**
 * The service worker's push handlers (client/push-sw.ts) on a scope of our own making: a push from the
 * server becomes one notification with its words and match link; a click opens the match on our origin
 * (focusing a window of ours when there is one); a push naming another address opens only our front page.
 */
import { describe, expect, it } from 'vitest';
import { installPushHandlers, type PushScope } from '../../client/push-sw';
import { pushMessage } from '../../server/notify/push';

function scope(windows: { url: string; navigated?: string; focused?: boolean }[] = []) {
  const listeners: Record<string, (e: any) => void> = {};
  const shown: { title: string; options: any }[] = [];
  const opened: string[] = [];
  const waits: Promise<unknown>[] = [];
  const s = {
    location: { origin: 'https://wg.example' },
    registration: { showNotification: async (title: string, options: unknown) => void shown.push({ title, options }) },
    clients: {
      matchAll: async () => windows.map((w) => ({ url: w.url, focus: async () => (w.focused = true), navigate: async (u: string) => (w.navigated = u) })),
      openWindow: async (u: string) => opened.push(u),
    },
    addEventListener: (type: string, fn: (e: any) => void) => (listeners[type] = fn),
  };
  installPushHandlers(s as unknown as PushScope);
  const fire = async (type: string, e: object) => {
    listeners[type]({ ...e, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  return { shown, opened, fire };
}

describe('the service worker push handlers', () => {
  it("shows the server's notice and opens its match when clicked", async () => {
    const s = scope();
    const message = pushMessage({ matchID: 'abc123', seat: '1', kind: 'turn' }, 'en');
    await s.fire('push', { data: { json: () => message } });
    expect(s.shown).toEqual([{ title: 'Watergate: Your turn', options: { body: 'Nixon in match abc123', tag: 'wg-abc123', data: { url: '/#/match/abc123' }, icon: '/favicon.svg' } }]);
    let closed = false;
    await s.fire('notificationclick', { notification: { data: s.shown[0].options.data, close: () => (closed = true) } });
    expect(closed).toBe(true);
    expect(s.opened).toEqual(['https://wg.example/#/match/abc123']);
  });

  it('focuses an open window of ours, sent to the match, instead of opening another', async () => {
    const windows = [{ url: 'https://elsewhere.example/' }, { url: 'https://wg.example/#/' }] as { url: string; navigated?: string; focused?: boolean }[];
    const s = scope(windows);
    await s.fire('notificationclick', { notification: { data: { url: '/#/match/xyz' }, close: () => undefined } });
    expect(s.opened).toEqual([]);
    expect(windows[1]).toMatchObject({ navigated: 'https://wg.example/#/match/xyz', focused: true });
    expect(windows[0].focused).toBeUndefined();
  });

  it('never opens another address a push names, and shows a plain notice for a malformed push', async () => {
    const s = scope();
    await s.fire('push', { data: { json: () => ({ title: 'x', url: 'https://evil.example/' }) } });
    await s.fire('push', { data: { json: () => { throw new SyntaxError('not JSON'); } } });
    expect(s.shown.map((n) => [n.title, n.options.data.url])).toEqual([['x', '/'], ['Watergate', '/']]);
    await s.fire('notificationclick', { notification: { data: { url: '//evil.example/#/match/a' }, close: () => undefined } });
    expect(s.opened).toEqual(['https://wg.example/']);
  });
});
