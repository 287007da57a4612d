/**
 * "New chat message" where the chat is out of sight (below the fold, behind the phone's dock, scrolled
 * away in its column): the count and the newest line, in the part of the page that is always in view.
 * A click brings the chat into view. Lines already there when the page opened are not news.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID } from '../../game';
import { roleName } from '../i18n/words';
import type { ChatLine } from './Chat';

/** Whether the chat's lines are on screen: inside the window and above a dock fixed at the bottom. */
function chatInSight(): boolean {
  const list = document.querySelector('.chat-lines');
  if (!list) return false;
  const r = list.getBoundingClientRect();
  const dock = document.querySelector('.dock');
  const bottom = dock && getComputedStyle(dock).position === 'fixed' ? dock.getBoundingClientRect().top : window.innerHeight;
  return r.height > 0 && r.bottom > 0 && r.top < bottom - 16;
}

export function ChatMark({ lines, me, names }: { lines: ChatLine[]; me: PlayerID | null; names: Record<string, string | undefined> }): ReactNode {
  const { t } = useTranslation();
  const [seen, setSeen] = useState(() => new Set(lines.map((l) => l.id)));
  const unread = lines.filter((l) => typeof l.payload === 'string' && l.sender !== me && !seen.has(l.id));
  const count = unread.length;
  useEffect(() => {
    if (count === 0) return;
    const check = () => {
      if (chatInSight()) setSeen(new Set(lines.map((l) => l.id)));
    };
    check();
    window.addEventListener('scroll', check, { capture: true, passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check, { capture: true });
      window.removeEventListener('resize', check);
    };
  }, [count, lines]);
  if (count === 0) return null;
  const last = unread[count - 1];
  const who = roleName(t, last.sender as PlayerID) + (names[last.sender] ? ` (${names[last.sender]})` : '');
  return (
    <button
      type="button"
      className="chat-unread"
      data-chat-unread={count}
      onClick={() => {
        document.querySelector('.chat')?.scrollIntoView({ block: 'center' });
        (document.querySelector('.chat-say input') as HTMLInputElement | null)?.focus({ preventScroll: true });
        setSeen(new Set(lines.map((l) => l.id)));
      }}
    >
      <strong>{t('chat.unread', { count })}</strong> <span className="chat-unread-line">{`${who}: ${String(last.payload)}`}</span>
    </button>
  );
}
