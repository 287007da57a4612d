/**
 * Follow / Unfollow on a player's profile (signed in, not your own): no consent asked, and the player
 * is not told; whom you follow only you see (the lobby's friends list).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { nameKey } from '../../protocol/accounts';
import { refusalText } from './AccountPage';
import { useAccount } from './session';
import { follow, following, unfollow } from './social';

export function FollowButton({ username }: { username: string }): ReactNode {
  const { t } = useTranslation();
  const account = useAccount();
  const [on, setOn] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const own = !account || nameKey(account) === nameKey(username);
  useEffect(() => {
    if (own) return;
    following().then((list) => setOn(list.some((p) => nameKey(p.username) === nameKey(username))), (e: unknown) => setError(refusalText(t, e)));
  }, [own, username, t]);
  if (own || (on === null && !error)) return null;
  const toggle = () => {
    setError(null);
    (on ? unfollow(username) : follow(username)).then((r) => setOn(r.following), (e: unknown) => setError(refusalText(t, e)));
  };
  return (
    <p className="follow" data-follow={on ? 'on' : 'off'}>
      {on !== null && (
        <button type="button" onClick={toggle} aria-pressed={on}>
          {on ? t('friends.unfollow') : t('friends.follow')}
        </button>
      )}
      {on && <span className="hint"> {t('friends.following', { name: username })} {t('friends.privateNote', { name: username })}</span>}
      {error && <span className="error" role="alert"> {error}</span>}
    </p>
  );
}
