/** "Nixon's last move" beside the board (its own chunk): the record lines in words and the cards played. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { logText, roleName } from '../i18n/words';
import { Card } from './Card';
import type { LastMove } from './lastMove';

export default function LastMovePanel({ last, hideCards }: { last: LastMove; hideCards?: boolean }): ReactNode {
  const { t } = useTranslation();
  return (
    <details className={`last-move role-${last.player}`} open data-last-move-by={last.player}>
      <summary>{t('info.lastMove', { role: roleName(t, last.player) })}</summary>
      <ul>
        {last.lines.map((e, i) => (
          <li key={i}>{logText(t, e)}</li>
        ))}
      </ul>
      {!hideCards &&
        last.cards.map((id) => (
          <div key={id} className="last-card" data-last-move="card">
            <Card id={id} />
          </div>
        ))}
    </details>
  );
}
