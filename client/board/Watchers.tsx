/**
 * The spectators' room on a spectator's page (server/socket/watchers.ts): what the spectators of this
 * match say among themselves, live (nothing is kept: a page hears what is said once it is here), each
 * under the pseudonym the server gave its connection. The players never see it, as a spectator never
 * sees the players' chat. Lines are shown as text, never as HTML. Loaded on demand, like the chat.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { WatcherLine } from '../../protocol/index';
import ChatRoom from './ChatRoom';

/** The server's own bound (WATCHERS.maxLength): the field stops there. */
const MAX = 300;

export interface WatchersRoom {
  lines: WatcherLine[];
  say: (text: string) => void;
}

export default function Watchers({ lines, say }: WatchersRoom): ReactNode {
  const { t } = useTranslation();
  return (
    <ChatRoom
      className="watchers"
      lines={lines.map((l) => ({ id: l.id, who: t('watchers.who', { name: l.who }), text: l.text }))}
      words={{ title: t('watchers.title'), hint: t('watchers.hint'), say: t('watchers.say') }}
      max={MAX}
      say={say}
    />
  );
}
