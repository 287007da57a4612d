/**
 * What a finished game did to its players' ratings, in the game-over dialog and the match history: each
 * rated seat's change by side ("Editor Ann 1512 → 1527, +15", "?" after a provisional rating), or why the
 * game was not rated (the server's code, docs/RATINGS.md, worded here).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MatchResult, SeatResult, UnratedReason } from '../../protocol/accounts';
import { roleName } from '../i18n/words';
import { call } from './api';

/** A rating as shown everywhere: rounded, with "?" when provisional (not yet established). */
export const ratingText = (r: number, provisional = false) => `${Math.round(r)}${provisional ? '?' : ''}`;

type T = ReturnType<typeof useTranslation>['t'];

/** Why a game was not rated, in the player's language (an older record without a code: just "not rated"). */
export const unratedText = (t: T, why: UnratedReason | null) => t('result.unrated', { why: t(`result.why.${why ?? 'unknown'}`) });

/** One seat's change: "Editor (Ann) 1500 → 1527?, +27" (without a name: "Editor 1500 → 1527?, +27"). */
export function changeText(t: T, s: Pick<SeatResult, 'side' | 'ratingBefore' | 'ratingAfter' | 'provisional'> & { username?: string | null }): string {
  const delta = Math.round(s.ratingAfter!) - Math.round(s.ratingBefore!);
  return t('result.change', {
    who: s.username ? `${roleName(t, s.side)} (${s.username})` : roleName(t, s.side),
    before: ratingText(s.ratingBefore!),
    after: ratingText(s.ratingAfter!, s.provisional),
    delta: delta >= 0 ? `+${delta}` : `−${-delta}`,
  });
}

export function SeatResults({ result }: { result: MatchResult }): ReactNode {
  const { t } = useTranslation();
  const rated = result.seats.filter((s) => s.rated && s.ratingBefore !== null && s.ratingAfter !== null);
  return (
    <div className="rated-result" data-rated-result={rated.length > 0 ? 'rated' : (result.seats[0]?.unratedReason ?? 'unknown')}>
      {rated.length > 0 ? (
        <ul>
          {rated.map((s) => (
            <li key={s.side} className={`role-${s.side}`}>
              {changeText(t, s)}
            </li>
          ))}
        </ul>
      ) : (
        <p>{unratedText(t, result.seats[0]?.unratedReason ?? null)}</p>
      )}
      {rated.some((s) => s.provisional) && <p className="hint">{t('result.provisional')}</p>}
    </div>
  );
}

/** The finished match's result as the server keeps it; nothing when it has none (nobody with an account played, or not yours to see). */
export function MatchRatedResult({ matchID }: { matchID: string }): ReactNode {
  const [result, setResult] = useState<MatchResult | null>(null);
  useEffect(() => {
    let live = true;
    // The result is written in the same write that ends the game: it is there by the time the end is seen.
    call<MatchResult>(`/games/watergate/${encodeURIComponent(matchID)}/result`).then(
      (r) => live && setResult(r),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [matchID]);
  return result && result.seats.length > 0 ? <SeatResults result={result} /> : null;
}
