/**
 * The players' chat beside the game record: kept with the match by the server (it survives reloads and
 * restarts), spoken and read by the seated players only, each as themselves (a spectator's page has
 * none: the server never sends it). Lines are shown as text, never as HTML. Loaded on demand: the board
 * is drawn without it.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID } from '../../game';
import { roleName } from '../i18n/words';
import ChatRoom from './ChatRoom';

export interface ChatLine {
  id: string;
  sender: string;
  payload: unknown;
}

const MAX = 500;

export default function Chat({ lines, names, send }: { lines: ChatLine[]; names: Record<string, string | undefined>; send: (text: string) => void }): ReactNode {
  const { t } = useTranslation();
  // A reconnect may hear the kept lines again: each line once.
  const seen = new Set<string>();
  const shown = lines.filter((l) => typeof l.payload === 'string' && !seen.has(l.id) && seen.add(l.id));
  const who = (sender: string) => (names[sender] ? `${roleName(t, sender as PlayerID)} (${names[sender]})` : roleName(t, sender as PlayerID));
  return (
    <ChatRoom
      lines={shown.map((l) => ({ id: l.id, who: who(l.sender), text: String(l.payload), className: `role-${l.sender}` }))}
      words={{ title: t('chat.title'), say: t('chat.say') }}
      max={MAX}
      say={send}
    />
  );
}
