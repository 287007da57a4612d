/** The events API (/api/tournaments, protocol/events.ts) of the server this page came from. */
import type { EventCreate, EventSummary, EventView } from '../../protocol/events';
import { AccountError, call } from '../account/api';

export const listEvents = async (): Promise<EventSummary[]> => (await call<{ events: EventSummary[] }>('/api/tournaments')).events;
export const getEvent = (id: string) => call<EventView>(`/api/tournaments/${encodeURIComponent(id)}`);
export const createEvent = (e: EventCreate) => call<{ id: string }>('/api/tournaments', e);
export const eventAction = (id: string, action: 'join' | 'withdraw' | 'start') => call<EventView>(`/api/tournaments/${encodeURIComponent(id)}/${action}`, {});

type T = (key: string, o?: Record<string, unknown>) => string;

/** A refusal in the player's language: the server's own words are English. */
export function eventRefusal(t: T, e: unknown): string {
  if (e instanceof AccountError) {
    if (e.status === 401) return t('events.signIn');
    if (e.status === 403) return t('events.refused');
    if (e.status === 409) return t('events.tooLate');
    if (e.status === 429) return t('lobby.rateLimited', { seconds: e.retryAfter ?? 1 });
    if (e.status === 400) return t('events.badForm');
    return t('lobby.error', { message: e.message });
  }
  return t('lobby.offline');
}
