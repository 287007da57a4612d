/**
 * The follow and push API of this page's server (server/social/follows.ts, server/notify/push-routes.ts):
 * same origin, the session cookie goes along by itself. A refusal throws AccountError with the server's words.
 */
import { AccountError } from './api';

/** A followed player as the server lists them for their follower. */
export interface FollowedPlayer {
  username: string;
  online: boolean;
  playing: number;
  /** Matches in play anyone may watch (#/match/:id). */
  watch: string[];
}

async function send<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${window.location.origin}${path}`, body === undefined ? { method } : { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = (await res.json().catch(() => null)) as (T & { error?: string; retryAfter?: number }) | null;
  if (!res.ok) throw new AccountError(res.status, data?.error ?? `HTTP ${res.status}`, data?.retryAfter ?? (Number(res.headers.get('Retry-After')) || null));
  return data as T;
}

const named = (username: string) => `/api/follow/${encodeURIComponent(username)}`;
export const following = async (): Promise<FollowedPlayer[]> => (await send<{ players: FollowedPlayer[] }>('GET', '/api/following')).players;
export const follow = (username: string) => send<{ following: boolean }>('POST', named(username));
export const unfollow = (username: string) => send<{ following: boolean }>('DELETE', named(username));

export const pushKey = async (): Promise<string> => (await send<{ publicKey: string }>('GET', '/api/push/key')).publicKey;
export const pushSubscribed = async (endpoint: string): Promise<boolean> => (await send<{ subscribed: boolean }>('GET', `/api/push/subscribe?endpoint=${encodeURIComponent(endpoint)}`)).subscribed;
export const subscribePush = (sub: PushSubscriptionJSON, lang: string) => send<{ subscribed: boolean }>('POST', '/api/push/subscribe', { endpoint: sub.endpoint, keys: sub.keys, lang });
export const unsubscribePush = (endpoint: string) => send<{ removed: boolean }>('DELETE', '/api/push/subscribe', { endpoint });
