/**
 * The bus over Redis pub/sub (ioredis): one channel per match, `<REDIS_PREFIX>match:<matchID>`, so a
 * process hears only of the matches it serves and several deployments can share one Redis. Publishing
 * never waits for Redis: with Redis down a publish fails at once (no offline queue) and is counted;
 * ioredis reconnects and resubscribes by itself, and `onReconnect` tells the match service to check
 * its cached matches against storage for what it missed.
 */
import { Redis } from 'ioredis';
import { processId, type Bus, type BusMessage } from './index';

export interface RedisBusOptions {
  url: string;
  prefix?: string;
  onError?: (e: Error, where: 'publish' | 'connection') => void;
}

export function redisBus({ url, prefix = 'wg:', onError }: RedisBusOptions): Bus {
  const id = processId();
  const opts = { lazyConnect: false, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: (n: number) => Math.min(n * 100, 1000) };
  const pub = new Redis(url, opts);
  // The subscriber keeps its queue: SUBSCRIBE sent while Redis is away is sent once it is back.
  const sub = new Redis(url, { ...opts, enableOfflineQueue: true, maxRetriesPerRequest: null });
  const channel = (matchID: string) => `${prefix}match:${matchID}`;
  const handlers: ((m: BusMessage) => void)[] = [];
  const reconnects: (() => void)[] = [];
  let everReady = false;
  let lost = false;
  const report = (where: 'publish' | 'connection') => (e: Error) => onError?.(e, where);
  pub.on('error', report('connection'));
  sub.on('error', report('connection'));
  for (const c of [pub, sub])
    c.on('close', () => {
      if (everReady) lost = true;
    });
  sub.on('ready', () => {
    if (everReady && lost) {
      lost = false;
      for (const fn of reconnects) fn();
    }
    everReady = true;
  });
  sub.on('message', (_channel: string, text: string) => {
    let msg: BusMessage & { from?: string };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.from === id) return;
    for (const fn of handlers) fn(msg);
  });
  return {
    kind: 'redis',
    id,
    status: () => (pub.status === 'ready' && sub.status === 'ready' ? 'ok' : 'down'),
    publish(msg) {
      pub.publish(channel(msg.matchID), JSON.stringify({ ...msg, from: id })).catch(report('publish'));
    },
    subscribe: (matchID) => sub.subscribe(channel(matchID)).then(() => undefined, report('connection')),
    unsubscribe: (matchID) => void sub.unsubscribe(channel(matchID)).catch(() => undefined),
    onMessage: (fn) => void handlers.push(fn),
    onReconnect: (fn) => void reconnects.push(fn),
    async close() {
      pub.disconnect();
      sub.disconnect();
    },
  };
}
