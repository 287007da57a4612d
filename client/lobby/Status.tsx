/**
 * Above the board of an online match: both clocks counting down (the running one marked), the seats the
 * computer plays for their owners with "Take my seat back" for the owner, and — when the match allows it —
 * the offer to hand an away opponent's seat to the computer. Everything comes from the server's status
 * (protocol MatchStatus); the countdown uses the server's time, corrected by this browser's offset.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { timeLeft, type MatchStatus } from '../../protocol/index';
import { roleName } from '../i18n/words';
import { standInAction } from './api';
import type { HeldSeat } from './seats';

const SEATS = ['0', '1'] as const;
const LOW_MS = 30_000;

/** 1:05:09, 4:09, 0:07 — or "2 d 3:00:00" for a relaxed clock. */
function clockText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hms = h > 0 || d > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
  return d > 0 ? `${d} d ${hms}` : hms;
}

export default function Status({ status, seat, over }: { status: MatchStatus; seat: HeldSeat | null; over: boolean }): ReactNode {
  const { t } = useTranslation();
  // The server's time now = Date.now() + offset (measured when the status arrived).
  const offset = useMemo(() => status.now - Date.now(), [status]);
  const [now, setNow] = useState(() => Date.now() + offset);
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setNow(Date.now() + offset);
    if (over) return;
    const id = setInterval(() => setNow(Date.now() + offset), 250);
    return () => clearInterval(id);
  }, [offset, over]);
  useEffect(() => setRefused(null), [status]);

  const act = async (action: 'standIn' | 'takeBack') => {
    if (!seat || busy) return;
    setBusy(true);
    const why = await standInAction(status.matchID, action, seat).catch((e: unknown) => String(e));
    setBusy(false);
    setRefused(why);
  };
  const { clock, standIns, away, abandonMinutes, rated } = status;
  const opponent = seat ? (seat.playerID === '0' ? '1' : '0') : null;
  const awayMinutes = opponent && away[opponent] !== undefined ? Math.floor((now - away[opponent]!) / 60_000) : null;

  return (
    <section className="match-status" aria-label={t('status.clocks')}>
      {clock && (
        <ul className="clocks">
          {SEATS.map((s) => {
            const left = timeLeft(clock, s, now);
            const running = !over && clock.running === s;
            return (
              <li key={s} className={`clock role-${s}${running ? ' running' : ''}${left < LOW_MS ? ' low' : ''}`} data-clock={s} data-running={running || undefined} role="timer">
                {t('status.clockOf', { role: roleName(t, s), time: clockText(left) })}
                {running && <span className="sr-only"> ({t('status.running')})</span>}
                {running && left < LOW_MS && <span className="sr-only"> {t('status.timeLow')}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {!over &&
        SEATS.filter((s) => standIns[s]).map((s) => (
          <p key={s} className="stand-in" data-stand-in={s} role="status">
            {t('status.standIn', { role: roleName(t, s), why: t(`status.why.${standIns[s]!.reason}`) })}{' '}
            {seat?.playerID === s && (
              <button type="button" className="primary" data-take-back disabled={busy} onClick={() => void act('takeBack')}>
                {t('status.takeBack')}
              </button>
            )}
          </p>
        ))}
      {!over && opponent && awayMinutes !== null && !standIns[opponent] && abandonMinutes !== null && (
        <p className="away" data-away={opponent}>
          {t('status.away', { role: roleName(t, opponent), minutes: awayMinutes })}{' '}
          {now - away[opponent]! >= abandonMinutes * 60_000 ? (
            <button type="button" data-hand-over disabled={busy} onClick={() => void act('standIn')}>
              {t(rated ? 'status.claim' : 'status.handOver', { role: roleName(t, opponent) })}
            </button>
          ) : (
            t(rated ? 'status.claimLater' : 'status.handOverLater', { role: roleName(t, opponent), minutes: abandonMinutes })
          )}
        </p>
      )}
      {refused && (
        <p className="error" role="alert">
          {t('status.refused', { reason: refused })}
        </p>
      )}
    </section>
  );
}
