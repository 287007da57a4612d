/**
 * The lobby's list of players you follow (signed in only): who is online now and the games each plays,
 * with a link to watch those that are not private. Asked again every minute; asking also tells the
 * server this page is open (that is what "online" means besides a board: server/social/follows.ts).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccount } from '../account/session';
import { following, type FollowedPlayer } from '../account/social';

/** Under the server's "online" window (FOLLOWS.activeMs): an open lobby stays online. */
export const FRIENDS_REFRESH_MS = 60_000;

export function Friends(): ReactNode {
  const { t } = useTranslation();
  const account = useAccount();
  const [players, setPlayers] = useState<FollowedPlayer[] | null>(null);
  useEffect(() => {
    if (!account) return;
    let live = true;
    // A failed ask keeps the list shown before: the next minute tries again.
    const load = () => void following().then((p) => live && setPlayers(p), () => undefined);
    load();
    const timer = setInterval(load, FRIENDS_REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [account]);
  if (!account || players === null) return null;
  return (
    <section className="panel friends" aria-labelledby="friends-title" data-friends={players.length}>
      <h2 id="friends-title">{t('friends.title')}</h2>
      {players.length === 0 ? (
        <p className="hint">{t('friends.none')}</p>
      ) : (
        <ul>
          {players.map((p) => (
            <li key={p.username} data-friend={p.username} data-online={p.online}>
              <span className={p.online ? 'presence on' : 'presence'} aria-hidden="true" /> <a href={`#/player/${encodeURIComponent(p.username)}`}>{p.username}</a>{' '}
              <span className="hint">
                {p.online ? t('friends.online') : t('friends.away')}
                {p.playing > 0 && <> · {t('friends.playing', { count: p.playing })}</>}
              </span>
              {p.watch.map((id) => (
                <a key={id} className="button" href={`#/match/${id}`} data-watch={id}>
                  {t('friends.watch')}
                </a>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
