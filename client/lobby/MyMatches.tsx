/**
 * "Your matches": the seats this browser holds, each with its opponent and whose move it is (a mark when
 * it is yours, first in the list). A match the server no longer has (removed as stale, or left by
 * everyone) is forgotten here too.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { otherSeat, timeLeft, type PublicMatch } from '../../protocol/index';
import { roleName } from '../i18n/words';
import { getMatch, isGone, retryAfter } from './api';
import { MatchFacts, seatNamed, seatText, timeText } from './rows';
import { dropSeat, type HeldSeat } from './seats';

type Status = { m: PublicMatch } | { unknown: true };


export function MyMatches({ seats, busy, leave, forget, tick }: { seats: HeldSeat[]; busy: boolean; leave: (s: HeldSeat) => void; forget: () => void; tick: number }): ReactNode {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<Record<string, Status>>({});
  const load = useCallback(async () => {
    const next: Record<string, Status> = {};
    // Told to wait (429): what was shown stays.
    const waited: string[] = [];
    let dropped = false;
    await Promise.all(
      seats.map(async (s) => {
        try {
          next[s.matchID] = { m: await getMatch(s.matchID) };
        } catch (e) {
          if (isGone(e)) {
            dropSeat(s.matchID);
            dropped = true;
          } else if (retryAfter(e) !== null) waited.push(s.matchID);
          else next[s.matchID] = { unknown: true };
        }
      }),
    );
    setStatus((shown) => {
      for (const id of waited) next[id] = shown[id] ?? { unknown: true };
      return next;
    });
    if (dropped) forget();
  }, [seats, forget]);
  useEffect(() => void load(), [load, tick]);

  if (seats.length === 0) return null;
  const mine = (s: HeldSeat) => {
    const st = status[s.matchID];
    return st && 'm' in st && st.m.toMove === s.playerID && st.m.gameover === undefined;
  };
  const ordered = [...seats].sort((a, b) => Number(mine(b)) - Number(mine(a)));
  return (
    <section className="panel">
      <h2>{t('lobby.yourMatches')}</h2>
      <ul className="matches">
        {ordered.map((s) => {
          const st = status[s.matchID];
          const m = st && 'm' in st ? st.m : null;
          const opp = m ? seatNamed(m, otherSeat(s.playerID)) : undefined;
          const state = !m ? null : m.gameover !== undefined ? 'over' : !opp?.name ? 'waiting' : mine(s) ? 'yours' : 'theirs';
          return (
            <li key={s.matchID} className={`match${state === 'yours' ? ' your-turn' : ''}`} data-my-match={s.matchID} data-state={state ?? undefined}>
              <span className="who">
                {state === 'yours' && (
                  <span className="turn-mark" aria-hidden="true">
                    ●{' '}
                  </span>
                )}
                {t('lobby.youPlay', { role: roleName(t, s.playerID), name: s.name })}
                {opp?.name && <> {t('lobby.against', { who: seatText(t, opp, otherSeat(s.playerID)) })}</>}
                {state && (
                  <>
                    {' — '}
                    <strong data-turn>{state === 'theirs' ? t('lobby.state.theirs', { name: opp?.name }) : t(`lobby.state.${state}`, { role: roleName(t, otherSeat(s.playerID)) })}</strong>
                  </>
                )}
                {m?.clock && (state === 'yours' || state === 'theirs') && (
                  <span data-time-left>
                    {' · '}
                    {t('lobby.timeLeft', { time: timeText(i18n.language, timeLeft(m.clock, s.playerID, Date.now())) })}
                  </span>
                )}
                {m && (
                  <>
                    <br />
                    <MatchFacts m={m} />
                  </>
                )}
              </span>
              <span className="actions">
                <a className="button primary" href={`#/match/${s.matchID}`}>
                  {t('lobby.rejoin')}
                </a>
                {state === 'over' && (
                  <a className="button" href={`#/replay/${s.matchID}`} data-replay-link>
                    {t('lobby.replay')}
                  </a>
                )}
                <button type="button" disabled={busy} onClick={() => leave(s)}>
                  {t('lobby.leave')}
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
