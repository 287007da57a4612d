/**
 * Chat kept with a match (docs/ARCHITECTURE.md "Request paths"): seated players only, as themselves, with
 * the seat's credentials checked now (the seat may have changed hands since the socket synced); at most
 * CHAT.maxLength characters and CHAT.burst lines per CHAT.perMs per seat (in this process); stored with
 * the match, then delivered to the seated players' sockets only — also on other processes, through the
 * bus — as text (clients never render it as HTML). Spectators never receive it, in any match, neither
 * live nor as the history a sync brings (socket/sockets.ts; docs/SECURITY.md "Unlisted matches and the players' chat").
 */
import type { PlayerID } from '../../game/index';
import { seatEntry, type GuardError } from '../../protocol/index';
import { authenticateCredentials } from '../auth';
import type { Bus } from '../bus/index';
import type { ChatLine, MatchStore } from '../storage/types';
import { CHAT_KEPT, storageDown, unavailable, type MatchMemory } from './memory';

export const CHAT = { maxLength: 500, burst: 5, perMs: 10_000, kept: CHAT_KEPT } as const;

export interface ChatOptions {
  memory: MatchMemory;
  store: MatchStore;
  bus: Bus;
  refuse(r: GuardError): GuardError;
}

/** One line said by `seat`; null when kept and delivered, or the refusal. */
export async function say(o: ChatOptions, matchID: string, seat: PlayerID, credentials: string | null, message: { id?: unknown; payload?: unknown }): Promise<GuardError | null> {
  const text = typeof message.payload === 'string' ? message.payload.trim() : '';
  if (text.length === 0 || text.length > CHAT.maxLength) return o.refuse({ matchID, type: 'bad-request', message: `a chat message is 1 to ${CHAT.maxLength} characters of text` });
  const id = typeof message.id === 'string' && /^[A-Za-z0-9_-]{1,40}$/.test(message.id) ? message.id : null;
  if (!id) return o.refuse({ matchID, type: 'bad-request', message: 'a chat message needs an id' });
  const e = o.memory.get(matchID) ?? (await o.memory.open(matchID));
  if (!e) return o.refuse({ matchID, type: 'not-found', message: `match ${matchID} not found` });
  if (!authenticateCredentials(credentials, seatEntry(e.metadata.players, seat)))
    return o.refuse({ matchID, type: 'unauthorized', message: `wrong or missing credentials for seat ${seat}` });
  const now = Date.now();
  const recent = (e.spoke[seat] ?? []).filter((t) => now - t < CHAT.perMs);
  if (recent.length >= CHAT.burst) return o.refuse({ matchID, type: 'bad-request', message: `at most ${CHAT.burst} messages in ${CHAT.perMs / 1000} seconds: wait a moment` });
  e.spoke[seat] = [...recent, now];
  const line: ChatLine = { id, sender: seat, payload: text, at: now };
  try {
    await o.store.addChat(matchID, line);
  } catch (err) {
    if (!storageDown(err)) throw err;
    return o.refuse(unavailable(matchID));
  }
  e.chat = [...e.chat, line].slice(-CHAT.kept);
  o.memory.delivery?.chat(matchID, line);
  o.bus.publish({ t: 'chat', matchID, chat: line });
  return null;
}
