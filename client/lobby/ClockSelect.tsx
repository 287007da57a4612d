/** The time controls a match may have (none, live, relaxed: protocol/rated.ts TIME_CONTROLS), as the create form and "Play now" offer them. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TIME_CONTROL_NAMES, type TimeControl } from '../../protocol/rated';

export type ClockChoice = TimeControl;

export function ClockSelect({ value, onChange, marker }: { value: ClockChoice; onChange: (c: ClockChoice) => void; marker: string }): ReactNode {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{t('clock.label')}</span>
      <select {...{ [marker]: true }} value={value} onChange={(e) => onChange(e.target.value as ClockChoice)}>
        {TIME_CONTROL_NAMES.map((c) => (
          <option key={c} value={c}>
            {t(`clock.${c}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
