/**
 * Player aids under the piles: "Show sources" (card provenance badges and space codes, hidden by default:
 * they mean nothing to a player; remembered in this browser) and the card tracker, loaded when opened.
 */
import { lazy, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID, WatergateView } from '../../game';
import { Optional } from '../Optional';

const CardTracker = lazy(() => import('./CardTracker'));
const KEY = 'watergate.sources';

export function useShowSources(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => typeof localStorage !== 'undefined' && localStorage.getItem(KEY) === 'on');
  return [on, (v) => (localStorage.setItem(KEY, v ? 'on' : 'off'), setOn(v))];
}

export function BoardInfo({ view, me, sources, setSources, children }: { view: WatergateView; me: PlayerID | null; sources: boolean; setSources: (on: boolean) => void; children?: ReactNode }): ReactNode {
  const { t } = useTranslation();
  const [tracker, setTracker] = useState(false);
  return (
    <section className="board-info">
      <label className="sources-toggle" title={t('info.sourcesHint')}>
        <input type="checkbox" data-show-sources checked={sources} onChange={(e) => setSources(e.target.checked)} /> {t('info.showSources')}
      </label>
      {children}
      <button type="button" className="link" data-tracker-toggle aria-expanded={tracker} onClick={() => setTracker(!tracker)}>
        {t('info.tracker')}
      </button>
      <details className="legend" data-legend>
        <summary>{t('legend.title')}</summary>
        <ul>
          {(['initiative', 'momentum', 'faceDown', 'colours', 'target', 'last', 'discredited', 'supply'] as const).map((k) => (
            <li key={k}>{t(`legend.${k}`)}</li>
          ))}
        </ul>
      </details>
      {sources && (
        <p className="sources-legend" data-sources-legend>
          {t('provenance.legend')}
        </p>
      )}
      {tracker && (
        <Optional fallback={<p className="hint">{t('app.loading')}</p>}>
          <CardTracker view={view} me={me} />
        </Optional>
      )}
    </section>
  );
}
