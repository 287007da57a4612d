/**
 * How the lobby tells matches apart: who hosts and in which role, how old, which rules options and
 * clock. Small pieces shared by the open list and "Your matches".
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_OPTIONS, OPTION_VALUES, settingsFrom, type Options, type PlayerID } from '../../game';
import type { ClockValue, PublicMatch, PublicSeat, SettingChange, SettingName } from '../../protocol/index';
import { roleName } from '../i18n/words';

type T = ReturnType<typeof useTranslation>['t'];

/** "3 minutes ago" in the page's language (the browser's Intl words it). */
export function ago(lang: string, at: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  if (s < 45) return rtf.format(0, 'second');
  if (s < 3600) return rtf.format(-Math.max(1, Math.round(s / 60)), 'minute');
  if (s < 86_400) return rtf.format(-Math.round(s / 3600), 'hour');
  return rtf.format(-Math.round(s / 86_400), 'day');
}

export const seatNamed = (m: Pick<PublicMatch, 'players'>, id: PlayerID): PublicSeat | undefined => m.players.find((p) => String(p.id) === id);

/** The options that differ from the standard rules, worded; "standard rules" when none does. */
function rulesText(t: T, setupData: unknown): string {
  const chosen = (setupData && typeof setupData === 'object' ? setupData : {}) as Partial<Options>;
  const changed = (Object.keys(OPTION_VALUES) as (keyof Options)[]).filter((k) => chosen[k] !== undefined && chosen[k] !== DEFAULT_OPTIONS[k]);
  return changed.length === 0 ? t('options.standard') : changed.map((k) => t(`options.${k}.short.${chosen[k]}`)).join(' · ');
}

/** "Ann (Editor)", or "Computer (Editor, hard)". */
export function seatText(t: T, seat: PublicSeat | undefined, id: PlayerID): string {
  const level = seat?.data?.bot;
  if (level) return t('lobby.computerSeat', { role: roleName(t, id), level: t(`lobby.levels.${level}`) });
  // A signed-in player's side rating beside the name.
  if (seat?.account) return t('lobby.ratedSeat', { name: seat.name ?? '', rating: Math.round(seat.account.rating), role: roleName(t, id) });
  return t('lobby.namedSeat', { name: seat?.name ?? '', role: roleName(t, id) });
}

/** 600 → "10 min", 86400 → "1 day", 14400 → "4 hr": a clock's durations, worded by the browser (Intl). */
function durationText(lang: string, seconds: number): string {
  const units: [number, string][] = [[86_400, 'day'], [3600, 'hour'], [60, 'minute'], [1, 'second']];
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, unit] of units)
    if (rest >= size) {
      parts.push(new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short' }).format(Math.floor(rest / size)));
      rest %= size;
    }
  return parts.join(' ') || new Intl.NumberFormat(lang, { style: 'unit', unit: 'second', unitDisplay: 'short' }).format(0);
}

/** Time left on a clock, to the second under an hour and to the minute above ("3 hr 20 min"). */
export const timeText = (lang: string, ms: number): string => {
  const s = Math.ceil(ms / 1000);
  return durationText(lang, s >= 3600 ? Math.round(s / 60) * 60 : s);
};

/** "10 min + 10 s", or "no clock". */
function clockText(t: T, lang: string, c: { initialSeconds: number; incrementSeconds: number } | null): string {
  return c ? t('clock.summary', { initial: durationText(lang, c.initialSeconds), increment: durationText(lang, c.incrementSeconds) }) : t('lobby.noClock');
}
const clockSummary = (t: T, lang: string, setupData: unknown): string => clockText(t, lang, settingsFrom(setupData as never).clock);

/** A setting's value as a rematch's changes show it (protocol SettingChange): "10 min + 10 s", "15 min", "off"… */
function settingValue(t: T, lang: string, setting: SettingName, v: SettingChange['from']): string {
  if (setting === 'clock') {
    const c = v as ClockValue | null;
    return c && c.onTimeout === 'bot' ? `${clockText(t, lang, c)} (${t('clock.bot')})` : clockText(t, lang, c);
  }
  if (setting === 'abandonMinutes') return v === null ? t('clock.abandonNever') : t('clock.abandonMinutes', { count: v as number });
  if (setting === 'hints') return t(v ? 'rematch.on' : 'rematch.off');
  if (setting === 'takeBacks') return t(`takeBack.settings.${v as string}`);
  return t(`options.${setting}.short.${v as string}`);
}

/** "clock 1 s + 0 s instead of 10 min + 10 s": what a "play again" match changed, one setting at a time. */
export const changeText = (t: T, lang: string, c: SettingChange): string =>
  t('rematch.change', { setting: t(`rematch.settings.${c.setting}`), to: settingValue(t, lang, c.setting, c.to), from: settingValue(t, lang, c.setting, c.from) });

/** The line under a match's players: age, rules, clock. */
export function MatchFacts({ m }: { m: PublicMatch }): ReactNode {
  const { t, i18n } = useTranslation();
  return (
    <span className="facts">
      <span data-age>{t('lobby.created', { time: ago(i18n.language, m.createdAt) })}</span>
      {' · '}
      <span data-rules>{rulesText(t, m.setupData)}</span>
      {' · '}
      <span data-clock>{clockSummary(t, i18n.language, m.setupData)}</span>
      {m.rated && (
        <>
          {' · '}
          <span data-rated>{t('lobby.rated')}</span>
        </>
      )}
    </span>
  );
}
