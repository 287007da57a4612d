/**
 * The players' chat beside the game record: kept with the match by the server (it survives reloads and
 * restarts), spoken and read by the seated players only, each as themselves (a spectator's page has
 * none: the server never sends it). Lines are shown as text, never as HTML. Loaded on demand: the board
 * is drawn without it.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID } from '../../game';
import { roleName } from '../i18n/words';

export interface ChatLine {
  id: string;
  sender: string;
  payload: unknown;
}

const MAX = 500;

export default function Chat({ lines, names, send }: { lines: ChatLine[]; names: Record<string, string | undefined>; send: (text: string) => void }): ReactNode {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const list = useRef<HTMLOListElement>(null);
  // A reconnect may hear the kept lines again: each line once.
  const seen = new Set<string>();
  const shown = lines.filter((l) => typeof l.payload === 'string' && !seen.has(l.id) && seen.add(l.id));
  useEffect(() => {
    // To the end, in the next frame: at once it would lay the whole page out inside the move's own task.
    const frame = requestAnimationFrame(() => {
      if (list.current) list.current.scrollTop = list.current.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [shown.length]);
  const submit = () => {
    const s = text.trim();
    if (!s) return;
    send(s.slice(0, MAX));
    setText('');
  };
  return (
    <section className="chat" aria-label={t('chat.title')}>
      <h2>{t('chat.title')}</h2>
      <ol ref={list} className="chat-lines" aria-live="polite">
        {shown.map((l) => (
          <li key={l.id} className={`role-${l.sender}`}>
            <strong>{names[l.sender] ? `${roleName(t, l.sender as PlayerID)} (${names[l.sender]})` : roleName(t, l.sender as PlayerID)}:</strong> {String(l.payload)}
          </li>
        ))}
      </ol>
      <form
        className="chat-say"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <input aria-label={t('chat.say')} placeholder={t('chat.say')} value={text} maxLength={MAX} onChange={(e) => setText(e.target.value)} />
        <button type="submit" disabled={!text.trim()}>
          {t('chat.send')}
        </button>
      </form>
    </section>
  );
}
