/** #/leaderboard: the best players by Editor rating, by Nixon rating and combined (a minimum of rated games on the server's terms). */
import './account.css';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Leaderboard } from '../../protocol/accounts';
import { roleName } from '../i18n/words';
import { leaderboard } from './api';
import { refusalText } from './AccountPage';
import { ratingText } from './RatedResult';

const ROLES: Leaderboard['role'][] = ['editor', 'nixon', 'combined'];

export default function LeaderboardPage(): ReactNode {
  const { t } = useTranslation();
  const [boards, setBoards] = useState<Leaderboard[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    Promise.all(ROLES.map(leaderboard)).then(setBoards, (e: unknown) => setError(refusalText(t, e)));
  }, [t]);
  const title = (r: Leaderboard['role']) => (r === 'combined' ? t('leaderboard.combined') : t('leaderboard.by', { role: roleName(t, r === 'editor' ? '0' : '1') }));
  return (
    <div className="leaderboard-page">
      <h1>{t('leaderboard.title')}</h1>
      {error && <p className="error" role="alert">{error}</p>}
      {!boards && !error && <p>{t('app.loading')}</p>}
      {boards && (
        <p className="hint">
          {t('leaderboard.minimum', { count: boards[0].minGames })} {t('leaderboard.established', { rd: boards[0].provisionalRD, opponents: boards[0].minOpponents })}
        </p>
      )}
      <div className="boards">
        {boards?.map((b) => (
          <section key={b.role} className="panel" aria-labelledby={`board-${b.role}`} data-board={b.role}>
            <h2 id={`board-${b.role}`}>{title(b.role)}</h2>
            {b.players.length === 0 ? (
              <p className="hint">{t('leaderboard.empty')}</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">{t('leaderboard.player')}</th>
                    <th scope="col">{t('leaderboard.rating')}</th>
                    <th scope="col">{t('leaderboard.games')}</th>
                  </tr>
                </thead>
                <tbody>
                  {b.players.map((p, i) => (
                    <tr key={p.username} data-player={p.username}>
                      <td>{i + 1}</td>
                      <td>
                        <a href={`#/player/${encodeURIComponent(p.username)}`}>{p.username}</a>
                      </td>
                      <td>{ratingText(p.rating, p.provisional)}</td>
                      <td>{p.games}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        ))}
      </div>
    </div>
  );
}
