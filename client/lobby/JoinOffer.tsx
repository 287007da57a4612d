/**
 * A match page opened by someone who holds no seat in it, while a seat is free: the address was an
 * invitation. Offers that seat (with a name, remembered), or to just watch. Loaded on demand.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID } from '../../game';
import { roleName } from '../i18n/words';
import { SEEN_TOGETHER_REFUSAL } from '../../protocol/accounts';
import { errorText, isRegisteredName, joinSeat } from './api';
import { formName, savedName, saveName } from './seats';

export default function JoinOffer({ matchID, free, host, joined, watch }: { matchID: string; free: PlayerID[]; host: string | null; joined: () => void; watch: () => void }): ReactNode {
  const { t } = useTranslation();
  const [name, setName] = useState(savedName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const join = async (seat: PlayerID) => {
    const checked = formName(name);
    if ('error' in checked) return setError(t(checked.error));
    const n = checked.name;
    setBusy(true);
    try {
      saveName(n);
      await joinSeat(matchID, seat, n);
      joined();
    } catch (e) {
      // A rated seat next to an account seen together with this one (server/lobby/routes.ts): said in the player's language.
      setError(isRegisteredName(e) ? t('lobby.nameRefused.registered') : errorText(e) === SEEN_TOGETHER_REFUSAL ? t('challenge.seenTogether') : t('lobby.error', { message: errorText(e) }));
      setBusy(false);
    }
  };
  return (
    <section className="panel join-offer" aria-labelledby="join-offer-title" data-join-offer>
      <h2 id="join-offer-title">{host ? t('lobby.invitedBy', { name: host }) : t('lobby.freeSeat')}</h2>
      <label className="field">
        <span>{t('lobby.yourName')}</span>
        <input value={name} maxLength={40} placeholder={t('lobby.namePlaceholder')} onChange={(e) => setName(e.target.value)} autoComplete="nickname" />
      </label>
      <p className="actions">
        {free.map((seat) => (
          <button key={seat} type="button" className={`primary role-${seat}`} data-take-seat={seat} disabled={busy} onClick={() => void join(seat)}>
            {t('lobby.join', { role: roleName(t, seat) })}
          </button>
        ))}
        <button type="button" data-just-watch onClick={watch}>
          {t('lobby.justWatch')}
        </button>
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
