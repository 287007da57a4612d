/** The time controls a match may have (none, live, relaxed: CLOCK_PRESETS), as the create form and "Play now" offer them. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type ClockChoice = 'none' | 'live' | 'relaxed';

export function ClockSelect({ value, onChange, marker }: { value: ClockChoice; onChange: (c: ClockChoice) => void; marker: string }): ReactNode {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{t('clock.label')}</span>
      <select {...{ [marker]: true }} value={value} onChange={(e) => onChange(e.target.value as ClockChoice)}>
        {(['none', 'live', 'relaxed'] as const).map((c) => (
          <option key={c} value={c}>
            {t(`clock.${c}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
