/** #/events/ID: one event — its standings (live: read again every few seconds), rounds and games, join / withdraw / start. */
import '../account/account.css';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EventGame, EventView } from '../../protocol/events';
import { useAccount } from '../account/session';
import { roleName } from '../i18n/words';
import { eventAction, eventRefusal, getEvent } from './api';

/** How often the page reads the event again while it is open or running. */
const POLL_MS = 4000;

export default function EventPage({ id }: { id: string }): ReactNode {
  const { t } = useTranslation();
  const account = useAccount();
  const [event, setEvent] = useState<EventView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => getEvent(id).then(setEvent, (e: unknown) => setError(eventRefusal(t, e))), [id, t]);
  useEffect(() => {
    void load();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [load]);
  if (!event) return error ? <p className="error" role="alert">{error}</p> : <p>{t('app.loading')}</p>;
  const me = account ? event.players.find((p) => p.username === account) : undefined;
  const act = (a: 'join' | 'withdraw' | 'start') => {
    setError(null);
    eventAction(id, a).then(setEvent, (e: unknown) => setError(eventRefusal(t, e)));
  };
  const result = (g: EventGame) => (
    <a href={g.result === null ? `#/match/${g.matchID}` : `#/replay/${g.matchID}`}>{g.result === null ? t('events.watch') : t(g.result === 'none' ? 'events.noWinner' : `events.won.${g.result}`)}</a>
  );
  const sides = (g: EventGame) => (
    <>
      {side(g, g.editor)} ({roleName(t, '0')}) – {side(g, g.nixon)} ({roleName(t, '1')})
    </>
  );
  const side = (g: EventGame, who: string) => (
    <span className={g.result !== null && g.result !== 'none' && g[g.result] === who ? 'winner' : undefined}>{who}</span>
  );
  return (
    <div className="event-page">
      <h1>{event.name}</h1>
      <p className="hint">
        {t(`events.status.${event.status}`)} · {t('events.roundOf', { round: event.round, total: event.totalRounds })} · {t(`clock.${event.clock}`)} ·{' '}
        {event.rated ? t('playNow.rated') : t('events.unrated')}
        {event.paired ? ` · ${t('events.paired')}` : ''} · {t('events.createdBy', { name: event.creator })}
      </p>
      {event.note && <p className="hint">{t(`events.note.${event.note}`)}</p>}
      {event.status === 'open' && <p className="hint">{t('events.minPlayers', { count: event.minPlayers })}</p>}
      {error && <p className="error" role="alert">{error}</p>}
      {account && (event.status === 'open' || (event.status === 'running' && me && !me.withdrawn)) && (
        <p>
          {!me && event.status === 'open' && (
            <button type="button" onClick={() => act('join')}>
              {t('events.join')}
            </button>
          )}
          {me && !me.withdrawn && (
            <button type="button" onClick={() => act('withdraw')}>
              {t('events.withdraw')}
            </button>
          )}
          {event.status === 'open' && event.creator === account && (
            <button type="button" onClick={() => act('start')}>
              {t('events.start')}
            </button>
          )}
        </p>
      )}
      <section className="panel" aria-labelledby="standings">
        <h2 id="standings">{t('events.standings')}</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('leaderboard.player')}</th>
              <th scope="col">{t('events.score')}</th>
              <th scope="col">
                <abbr title={t('events.buchholzLong')}>{t('events.buchholz')}</abbr>
              </th>
              <th scope="col">
                <abbr title={t('events.sbLong')}>{t('events.sb')}</abbr>
              </th>
              <th scope="col">{t('events.sides')}</th>
            </tr>
          </thead>
          <tbody>
            {event.players.map((p, i) => (
              <tr key={p.username} data-player={p.username}>
                <td>{i + 1}</td>
                <td>
                  <a href={`#/player/${encodeURIComponent(p.username)}`}>{p.username}</a>
                  {p.withdrawn ? ` (${t('events.withdrawn')})` : ''}
                </td>
                <td>{p.score}</td>
                <td>{p.buchholz}</td>
                <td>{p.sonnebornBerger}</td>
                <td>{t('events.sideCounts', { editor: p.sides.editor, nixon: p.sides.nixon })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {event.rounds.map((r, k) => (
        <section key={k} className="panel" aria-labelledby={`round-${k + 1}`}>
          <h2 id={`round-${k + 1}`}>{t('events.round', { round: k + 1 })}</h2>
          <ul>
            {r.map((g) =>
              'bye' in g ? (
                <li key={`bye-${g.bye}`}>{t('events.bye', { name: g.bye })}</li>
              ) : event.paired ? (
                // A pair: its first game stands for both (the second, once made, follows it with the same deal).
                g.pair?.game === 2 ? null : (
                  <PairItem key={g.matchID} first={g} second={r.find((x): x is EventGame => 'matchID' in x && x !== g && x.seed === g.seed)} sides={sides} result={result} />
                )
              ) : (
                <li key={g.matchID} data-match={g.matchID}>
                  {sides(g)} · {result(g)}
                </li>
              ),
            )}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** ½ as players write it. */
const points = (p: number): string => (p === 0.5 ? '½' : String(p));

/** A paired deal's pairing: both its games (each with its sides and a link), then the pair's 1 / ½ / 0 once both are over. */
function PairItem({ first, second, sides, result }: { first: EventGame; second: EventGame | undefined; sides: (g: EventGame) => ReactNode; result: (g: EventGame) => ReactNode }): ReactNode {
  const { t } = useTranslation();
  const score = first.pair?.score;
  return (
    <li data-pair={first.seed}>
      <ul>
        <li data-match={first.matchID}>
          {t('pair.game', { n: 1 })}: {sides(first)} · {result(first)}
        </li>
        {second && (
          <li data-match={second.matchID}>
            {t('pair.game', { n: 2 })}: {sides(second)} · {result(second)}
          </li>
        )}
      </ul>
      {score && <p data-pair-score>{t('pair.score', { a: score[0].player, pa: points(score[0].points), pb: points(score[1].points), b: score[1].player })}</p>}
    </li>
  );
}
