/** "Nixon's last move" beside the board: the record lines in words and the cards played (unless the prompt shows them). */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { logText, roleName } from '../i18n/words';
import { Card } from './Card';
import type { LastMove } from './lastMove';

export function LastMovePanel({ last, hideCards }: { last: LastMove | null; hideCards?: boolean }): ReactNode {
  const { t } = useTranslation();
  if (!last) return null;
  return (
    <details className={`last-move role-${last.player}`} open data-last-move-by={last.player}>
      <summary>{t('info.lastMove', { role: roleName(t, last.player) })}</summary>
      <ul>
        {last.lines.map((e, i) => (
          <li key={i}>{logText(t, e)}</li>
        ))}
      </ul>
      {!hideCards && (
        <div className="last-cards">
          {last.cards.map((id) => (
            <div key={id} className="last-card" data-last-move="card">
              <Card id={id} />
            </div>
          ))}
        </div>
      )}
    </details>
  );
}
