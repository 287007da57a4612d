/** A profile's season results: the player's place in the current season and in the past ones shown on #/seasons. */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SeasonStanding } from '../../protocol/seasons';
import { getSeason, listSeasons } from './api';

export function ProfileSeasons({ username }: { username: string }): ReactNode {
  const { t } = useTranslation();
  const [rows, setRows] = useState<{ id: string; current: boolean; me: SeasonStanding }[]>([]);
  useEffect(() => {
    let live = true;
    const key = username.toLowerCase();
    listSeasons()
      .then((l) => Promise.all([l.current.id, ...l.past.map((p) => p.id)].map((id) => getSeason(id))))
      .then((seasons) => {
        if (!live) return;
        setRows(seasons.flatMap((s) => s.table.filter((r) => r.username.toLowerCase() === key).map((me) => ({ id: s.id, current: s.current, me }))));
      })
      .catch(() => undefined); // no seasons shown is the answer when they cannot be read
    return () => {
      live = false;
    };
  }, [username]);
  if (rows.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="seasons-title" data-profile-seasons>
      <h2 id="seasons-title">{t('seasons.heading')}</h2>
      <ul>
        {rows.map((r) => (
          <li key={r.id}>
            <a href={`#/seasons/${r.id}`}>{r.id}</a>: {t(r.current ? 'seasons.placeNow' : 'seasons.place', { rank: r.me.rank, points: r.me.points })}
          </li>
        ))}
      </ul>
    </section>
  );
}
