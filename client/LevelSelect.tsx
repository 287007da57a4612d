/** The bot level picker, shared by the lobby's "vs computer" and local mode. */
import { useTranslation } from 'react-i18next';
import type { Level } from '../protocol/index';

const LEVELS: readonly Level[] = ['easy', 'normal', 'hard'];

export function LevelSelect({ value, onChange, marker }: { value: Level; onChange: (level: Level) => void; marker: 'data-level' | 'data-vs-level' }) {
  const { t } = useTranslation();
  return (
    <select value={value} {...{ [marker]: true }} onChange={(e) => onChange(e.target.value as Level)}>
      {LEVELS.map((l) => (
        <option key={l} value={l}>
          {t(`lobby.levels.${l}`)}
        </option>
      ))}
    </select>
  );
}
