/**
 * A room of lines beside the game record, and a field to say one: the players' chat (Chat.tsx) and the
 * spectators' room (Watchers.tsx) are each this, with their own lines, words and bound. Lines are shown
 * as text, never as HTML; the list follows the newest line.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface RoomLine {
  id: string;
  /** Who said it, as the room words it. */
  who: string;
  text: string;
  className?: string;
}

export interface RoomWords {
  title: string;
  hint?: string;
  say: string;
}

export default function ChatRoom({ lines, words, max, say, className }: { lines: RoomLine[]; words: RoomWords; max: number; say: (text: string) => void; className?: string }): ReactNode {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // To the end, in the next frame: at once it would lay the whole page out inside the move's own task.
    const frame = requestAnimationFrame(() => {
      if (list.current) list.current.scrollTop = list.current.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [lines.length]);
  const submit = () => {
    const s = text.trim();
    if (!s) return;
    say(s.slice(0, max));
    setText('');
  };
  return (
    <section className={className ? `chat ${className}` : 'chat'} aria-label={words.title}>
      <h2>{words.title}</h2>
      {words.hint && <p className="hint">{words.hint}</p>}
      <ol ref={list} className="chat-lines" aria-live="polite">
        {lines.map((l) => (
          <li key={l.id} className={l.className}>
            <strong>{l.who}:</strong> {l.text}
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
        <input aria-label={words.say} placeholder={words.say} value={text} maxLength={max} onChange={(e) => setText(e.target.value)} />
        <button type="submit" disabled={!text.trim()}>
          {t('chat.send')}
        </button>
      </form>
    </section>
  );
}
