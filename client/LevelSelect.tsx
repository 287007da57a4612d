/** The bot level picker, shared by the lobby's "vs computer" and local mode. */
import { useTranslation } from 'react-i18next';
import { LEVEL_NAMES, type Level } from '../protocol/index';

export function LevelSelect({ value, onChange, marker }: { value: Level; onChange: (level: Level) => void; marker: 'data-level' | 'data-vs-level' }) {
  const { t } = useTranslation();
  return (
    <select value={value} {...{ [marker]: true }} onChange={(e) => onChange(e.target.value as Level)}>
      {LEVEL_NAMES.map((l) => (
        <option key={l} value={l}>
          {t(`lobby.levels.${l}`)}
        </option>
      ))}
    </select>
  );
}
