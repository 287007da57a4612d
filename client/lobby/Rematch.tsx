/**
 * After the game: "Play again" (sides swapped unless the player unticks it) and, once anyone has asked,
 * the invitation on the other board — "Ann wants a rematch: you would play Nixon" with one button to
 * accept, saying what the rematch changed (and that a rated game's rematch is then unrated) — or, for a spectator, a link to watch the next match — and a link to the replay of the game just
 * played. Loaded only when a game is over (which keeps these out of the play page's bundle).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { openSeat, type PublicMatch } from '../../protocol/index';
import { roleName } from '../i18n/words';
import { go } from '../route';
import { errorText, getMatch, playAgain, retryAfter } from './api';
import { seatFor, type HeldSeat } from './seats';
import { changeText } from './rows';

const SWAP = 'watergate.swapSides';

type Props = { matchID: string; seat: HeldSeat | undefined; next: string | null };

export default function AfterTheGame(props: Props): ReactNode {
  const { t } = useTranslation();
  return (
    <>
      <Rematch {...props} />
      <a className="button" href={`#/replay/${props.matchID}`} data-replay-link>
        {t('lobby.replay')}
      </a>
    </>
  );
}

function Rematch({ matchID, seat, next }: Props): ReactNode {
  const { t, i18n } = useTranslation();
  const [swap, setSwap] = useState(() => localStorage.getItem(SWAP) !== 'keep');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [offer, setOffer] = useState<PublicMatch | null>(null);
  // Whether the game just played was rated: a rematch that changed its settings is not, and says so.
  const [wasRated, setWasRated] = useState(false);
  // A next match exists: who waits there, which seat is left for us, and what it changed?
  useEffect(() => {
    if (!next || seatFor(next)) return;
    let gone = false;
    Promise.all([getMatch(next), getMatch(matchID)]).then(
      ([m, old]) => {
        if (gone) return;
        setOffer(m);
        setWasRated(old.rated === true);
      },
      () => undefined,
    );
    return () => void (gone = true);
  }, [next, matchID]);

  const ask = async () => {
    if (!seat) return;
    setBusy(true);
    try {
      go(`#/match/${await playAgain(matchID, seat, swap)}`);
    } catch (e) {
      const wait = retryAfter(e);
      setError(wait !== null ? t('lobby.rateLimited', { seconds: wait }) : t('lobby.error', { message: errorText(e) }));
      setBusy(false);
    }
  };

  if (next && seatFor(next))
    return (
      <a className="button primary" href={`#/match/${next}`} data-rematch-go>
        {t('lobby.playAgain')}
      </a>
    );
  const left = offer ? openSeat(offer.players) : null;
  const host = offer?.players.find((p) => p.name)?.name;
  return (
    <>
      {seat && next && left && host ? (
        <div className="rematch-offer" role="status" data-rematch-offer={left}>
          <p>{t('lobby.rematchOffer', { name: host, role: roleName(t, left) })}</p>
          {offer?.changed && offer.changed.length > 0 && (
            <p data-rematch-changes={wasRated && !offer.rated ? 'unrated' : 'changed'}>
              {t(wasRated && !offer.rated ? 'rematch.unrated' : 'rematch.changed', { changes: offer.changed.map((c) => changeText(t, i18n.language, c)).join(t('rematch.and')) })}
            </p>
          )}
          <button type="button" className={`primary role-${left}`} data-rematch-accept disabled={busy} onClick={() => void ask()}>
            {t('lobby.rematchAccept', { role: roleName(t, left) })}
          </button>
        </div>
      ) : seat ? (
        <>
          <button type="button" className="primary" data-play-again disabled={busy} onClick={() => void ask()}>
            {t('lobby.playAgain')}
          </button>
          <label className="check">
            <input
              type="checkbox"
              data-swap
              checked={swap}
              onChange={(e) => {
                setSwap(e.target.checked);
                localStorage.setItem(SWAP, e.target.checked ? 'swap' : 'keep');
              }}
            />{' '}
            {t('lobby.swapSides')}
          </label>
        </>
      ) : (
        next && (
          <a className="button primary" href={`#/match/${next}`} data-watch-next>
            {t('lobby.watchNext')}
          </a>
        )
      )}
      {error && <p className="error">{error}</p>}
    </>
  );
}
