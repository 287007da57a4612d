/** "The computer's moves: instant / normal / slow", beside the players when the computer plays a seat (net/pace.ts). */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PACES, setPace, usePace, type Pace } from '../net/pace';

export function PaceSelect(): ReactNode {
  const { t } = useTranslation();
  const pace = usePace();
  return (
    <label className="pace">
      {t('pace.label')}{' '}
      <select value={pace} data-pace onChange={(e) => setPace(e.target.value as Pace)}>
        {(Object.keys(PACES) as Pace[]).map((p) => (
          <option key={p} value={p}>
            {t(`pace.${p}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
