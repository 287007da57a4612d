/**
 * The spectators' room on a spectator's page (server/socket/watchers.ts): what the spectators of this
 * match say among themselves, live (nothing is kept: a page hears what is said once it is here), each
 * under the pseudonym the server gave its connection. The players never see it, as a spectator never
 * sees the players' chat. Lines are shown as text, never as HTML. Loaded on demand, like the chat.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { WatcherLine } from '../../protocol/index';

/** The server's own bound (WATCHERS.maxLength): the field stops there. */
const MAX = 300;

export interface WatchersRoom {
  lines: WatcherLine[];
  say: (text: string) => void;
}

export default function Watchers({ lines, say }: WatchersRoom): ReactNode {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      if (list.current) list.current.scrollTop = list.current.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [lines.length]);
  const submit = () => {
    const s = text.trim();
    if (!s) return;
    say(s.slice(0, MAX));
    setText('');
  };
  return (
    <section className="chat watchers" aria-label={t('watchers.title')}>
      <h2>{t('watchers.title')}</h2>
      <p className="hint">{t('watchers.hint')}</p>
      <ol ref={list} className="chat-lines" aria-live="polite">
        {lines.map((l) => (
          <li key={l.id}>
            <strong>{t('watchers.who', { name: l.who })}:</strong> {l.text}
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
        <input aria-label={t('watchers.say')} placeholder={t('watchers.say')} value={text} maxLength={MAX} onChange={(e) => setText(e.target.value)} />
        <button type="submit" disabled={!text.trim()}>
          {t('chat.send')}
        </button>
      </form>
    </section>
  );
}
