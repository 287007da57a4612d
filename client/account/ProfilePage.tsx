/**
 * #/player/<name>: a player's ratings by side with their chart over time (uPlot, loaded on demand), the
 * record by side, by opponent and against each level of the computer, the average game, and the finished
 * matches with their replays.
 */
import './account.css';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '../../protocol/accounts';
import { roleName } from '../i18n/words';
import { Optional } from '../Optional';
import { profile } from './api';
import { ChallengeForm } from './Challenges';
import { useAccount } from './session';
import { FollowButton } from './FollowButton';
import { refusalText } from './AccountPage';
import { changeText, ratingText, unratedText } from './RatedResult';
import { ProfileSeasons } from '../seasons/ProfileSeasons';

const RatingChart = lazy(() => import('./RatingChart'));


/** Wins and losses against each opponent (or each level of the computer); nothing when there are none. */
function Records({ id, title, rows }: { id: string; title: string; rows: { key: string; who: string; won: number; lost: number }[] }): ReactNode {
  const { t } = useTranslation();
  if (rows.length === 0) return null;
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-records={id}>
      <h2 id={`${id}-title`}>{title}</h2>
      <ul>
        {rows.map((r) => (
          <li key={r.key}>
            {r.who} — {t('profile.record', { won: r.won, lost: r.lost })}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function ProfilePage({ username }: { username: string }): ReactNode {
  const { t, i18n } = useTranslation();
  const [p, setP] = useState<Profile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const account = useAccount();
  useEffect(() => {
    profile(username).then(setP, (e: unknown) => setError(refusalText(t, e)));
  }, [username, t]);
  const labels = useMemo(() => ({ editor: roleName(t, '0'), nixon: roleName(t, '1'), title: t('profile.chart') }), [t]);
  if (error) return <p className="error" role="alert">{error}</p>;
  if (!p) return <p>{t('app.loading')}</p>;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const sides = [['editor', '0'], ['nixon', '1']] as const;
  return (
    <div className="profile-page" data-profile={p.username}>
      <h1>{t('profile.title', { name: p.username })}</h1>
      {p.bot && <p className="hint" data-bot>{t('profile.bot')}</p>}
      <FollowButton username={p.username} />
      <section className="panel" aria-labelledby="ratings-title">
        <h2 id="ratings-title">{t('profile.ratings')}</h2>
        <ul className="ratings">
          {sides.map(([side, seat]) => (
            <li key={side} className={`role-${seat}`} data-side-rating={side}>
              <strong>{roleName(t, seat)}</strong> {ratingText(p.ratings[side].rating, p.ratings[side].provisional)} <span className="hint">± {Math.round(p.ratings[side].rd * 2)}</span> ·{' '}
              {t('profile.rated', { count: p.ratings[side].games })} · {t('profile.record', { won: p.bySide[side].won, lost: p.bySide[side].lost })}
            </li>
          ))}
        </ul>
        {p.history.editor.length + p.history.nixon.length > 0 ? (
          <Optional>
            <Suspense fallback={<p>{t('app.loading')}</p>}>
              <RatingChart history={p.history} labels={labels} />
            </Suspense>
          </Optional>
        ) : (
          <p className="hint">{t('profile.noRated')}</p>
        )}
        <p>
          {p.averageMoves === null ? t('profile.noGames') : t('profile.average', { moves: Math.round(p.averageMoves), minutes: Math.round(p.averageMinutes ?? 0) })}
        </p>
      </section>
      {account && account.toLowerCase() !== p.username.toLowerCase() && <ChallengeForm username={p.username} bot={!!p.bot} />}
      <ProfileSeasons username={p.username} />
      <Records id="opponents" title={t('profile.byOpponent')} rows={p.byOpponent.map((o) => ({ key: o.opponent, who: o.opponent, ...o }))} />
      <Records id="levels" title={t('profile.byLevel')} rows={p.byLevel.map((l) => ({ key: l.level, who: t('profile.computer', { level: t(`lobby.levels.${l.level}`) }), ...l }))} />
      <section className="panel" aria-labelledby="finished-title">
        <h2 id="finished-title">{t('profile.finished')}</h2>
        {p.matches.length === 0 ? (
          <p className="hint">{t('profile.noGames')}</p>
        ) : (
          <ul className="matches">
            {p.matches.map((m) => (
              <li key={m.matchID} className="match" data-finished={m.matchID}>
                <span className="who">
                  {t(m.won ? 'profile.won' : 'profile.lost', { role: roleName(t, m.side), opponent: m.level ? t('profile.computer', { level: t(`lobby.levels.${m.level}`) }) : m.opponent })}
                  {m.rated && m.ratingAfter !== null && <> · {m.ratingBefore !== null ? changeText(t, m) : t('profile.after', { rating: ratingText(m.ratingAfter, m.provisional) })}</>}
                  {!m.rated && !m.level && <span data-unrated={m.unratedReason ?? 'unknown'}> · {unratedText(t, m.unratedReason)}</span>}
                  <br />
                  <span className="facts">
                    {date.format(m.finishedAt)} · {t('profile.moves', { count: m.moves })}
                  </span>
                </span>
                <a className="button" href={`#/replay/${m.matchID}`}>
                  {t('lobby.replay')}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
