/** #/seasons (the current season's table and past winners) and #/seasons/ID (one season's table); docs/EVENTS.md "Seasons". */
import '../account/account.css';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SeasonList, SeasonStanding, SeasonView } from '../../protocol/seasons';
import { getSeason, listSeasons } from './api';

function Table({ rows }: { rows: SeasonStanding[] }): ReactNode {
  const { t } = useTranslation();
  if (rows.length === 0) return <p className="hint">{t('seasons.empty')}</p>;
  return (
    <table className="season-table">
      <thead>
        <tr>
          <th>#</th>
          <th>{t('seasons.player')}</th>
          <th>{t('seasons.points')}</th>
          <th>{t('seasons.wins')}</th>
          <th>{t('seasons.games')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.username} data-season-row={r.username}>
            <td>{r.rank}</td>
            <td>
              <a href={`#/player/${encodeURIComponent(r.username)}`}>{r.username}</a>
            </td>
            <td>{r.points}</td>
            <td>{r.wins}</td>
            <td>{r.games}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function SeasonsPage({ id }: { id?: string }): ReactNode {
  const { t } = useTranslation();
  const [list, setList] = useState<SeasonList | null>(null);
  const [one, setOne] = useState<SeasonView | null>(null);
  const [error, setError] = useState(false);
  useEffect(() => {
    setError(false);
    if (id) getSeason(id).then(setOne, () => setError(true));
    else listSeasons().then(setList, () => setError(true));
  }, [id]);
  const season = id ? one : list?.current;
  return (
    <div className="seasons-page">
      <h1>{season ? t('seasons.title', { id: season.id }) : t('seasons.heading')}</h1>
      <p className="hint">{t('seasons.about')}</p>
      {error && <p className="error" role="alert">{t('seasons.missing')}</p>}
      {!season && !error && <p>{t('app.loading')}</p>}
      {season && (
        <section className="panel" aria-labelledby="season-table">
          <h2 id="season-table">{season.current ? t('seasons.current') : t('seasons.final')}</h2>
          <Table rows={season.table} />
          {!id && (
            <p>
              <a href={`#/seasons/${season.id}`}>{t('seasons.full')}</a>
            </p>
          )}
        </section>
      )}
      {list && (
        <section className="panel" aria-labelledby="season-past">
          <h2 id="season-past">{t('seasons.past')}</h2>
          <ul>
            {list.past.map((p) => (
              <li key={p.id} data-past-season={p.id}>
                <a href={`#/seasons/${p.id}`}>{p.id}</a> — {p.winners.length === 0 ? t('seasons.noWinner') : t('seasons.winners', { names: p.winners.map((w) => w.username).join(', ') })}
              </li>
            ))}
          </ul>
        </section>
      )}
      {id && (
        <p>
          <a href="#/seasons">{t('seasons.all')}</a>
        </p>
      )}
    </div>
  );
}
