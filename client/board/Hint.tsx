/**
 * "What would the computer do?": asks our bot (level normal) for the player's own decision, from the
 * player's own view only, and shows its choice as a suggestion (marked on the board by Board.tsx). Loaded
 * on demand like the chat; the bot and its Web Worker load on the first question (./suggest).
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MoveChoice, PlayArgs, WatergateView } from '../../game';
import { cardName, moveText } from '../i18n/words';

interface Props {
  view: WatergateView;
  /** The suggestion for this decision, once the computer has answered. */
  hint: MoveChoice | null;
  onHint: (move: MoveChoice) => void;
}

export default function Hint({ view, hint, onHint }: Props): ReactNode {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'thinking' | 'failed'>('idle');
  const ask = async () => {
    setState('thinking');
    try {
      const { suggest } = await import('./suggest');
      onHint(await suggest(view));
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  const play = hint?.move === 'play' ? (hint.args[0] as PlayArgs) : null;
  const text = hint ? (play ? `${cardName(t, play.card)} — ${moveText(t, view, hint)}` : moveText(t, view, hint)) : null;
  return (
    <section className="hint-box" aria-live="polite">
      <button type="button" data-hint disabled={state === 'thinking'} onClick={() => void ask()}>
        {state === 'thinking' ? t('hint.thinking') : t('hint.button')}
      </button>
      {text && (
        <p className="hint-text" data-hint-text>
          {t('hint.would', { move: text })}
        </p>
      )}
      {state === 'failed' && <p className="hint">{t('hint.failed')}</p>}
    </section>
  );
}
