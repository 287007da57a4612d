/**
 * The lobby, following boardgame.io's Lobby flow with LobbyClient: enter a name, create a match as the
 * Editor or Nixon, list open matches with their seats by role, join a free seat, watch, leave, rejoin.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID } from '../../game';
import { roleName } from '../i18n/words';
import { go } from '../route';
import { GAME, errorText, joinSeat, lobby, playVsComputer, type Level, type MatchSummary } from './api';
import { dropSeat, heldSeats, savedName, saveName, type HeldSeat } from './seats';
import { LevelSelect } from '../LevelSelect';

const ROLES: PlayerID[] = ['0', '1'];

export default function LobbyPage(): ReactNode {
  const { t } = useTranslation();
  const [name, setName] = useState(savedName);
  const [matches, setMatches] = useState<MatchSummary[] | null>(null);
  const [mine, setMine] = useState<HeldSeat[]>(heldSeats);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [vsRole, setVsRole] = useState<PlayerID>('0');
  const [vsLevel, setVsLevel] = useState<Level>('normal');
  const [unlisted, setUnlisted] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const { matches } = await lobby.listMatches(GAME, { isGameover: false });
      setMatches(matches.sort((a, b) => b.createdAt - a.createdAt));
      setError(null);
    } catch (e) {
      setError(e instanceof TypeError ? t('lobby.offline') : t('lobby.error', { message: errorText(e) }));
    }
  }, [t]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), 3000);
    return () => clearInterval(timer);
  }, [refresh]);

  const needName = (): string | null => {
    const n = name.trim();
    if (!n) {
      setError(t('lobby.nameNeeded'));
      document.getElementById('player-name')?.focus();
      return null;
    }
    saveName(n);
    return n;
  };

  const run = async (f: () => Promise<void>) => {
    setBusy(true);
    try {
      await f();
    } catch (e) {
      setError(t('lobby.error', { message: errorText(e) }));
    } finally {
      setBusy(false);
    }
  };

  const create = (role: PlayerID) => {
    const n = needName();
    if (!n) return;
    void run(async () => {
      const { matchID } = await lobby.createMatch(GAME, { numPlayers: 2, unlisted });
      await joinSeat(matchID, role, n);
      go(`#/match/${matchID}`);
    });
  };

  const vsComputer = () => {
    const n = needName();
    if (!n) return;
    void run(async () => {
      const matchID = await playVsComputer(vsRole, vsLevel, n);
      go(`#/match/${matchID}`);
    });
  };

  const join = (matchID: string, role: PlayerID) => {
    const n = needName();
    if (!n) return;
    void run(async () => {
      await joinSeat(matchID, role, n);
      go(`#/match/${matchID}`);
    });
  };

  const leave = (seat: HeldSeat) =>
    void run(async () => {
      try {
        await lobby.leaveMatch(GAME, seat.matchID, { playerID: seat.playerID, credentials: seat.credentials });
      } finally {
        dropSeat(seat.matchID);
        setMine(heldSeats());
        await refresh();
      }
    });

  return (
    <div className="lobby">
      <p className="tagline">{t('app.tagline')}</p>
      <section className="panel">
        <h1>{t('lobby.title')}</h1>
        <label className="field">
          <span>{t('lobby.yourName')}</span>
          <input id="player-name" value={name} maxLength={40} placeholder={t('lobby.namePlaceholder')} onChange={(e) => setName(e.target.value)} autoComplete="nickname" />
        </label>
        <div className="create" role="group" aria-label={t('lobby.create')}>
          <h2>{t('lobby.create')}</h2>
          {ROLES.map((r) => (
            <button key={r} type="button" className={`primary role-${r}`} data-create={r} disabled={busy} onClick={() => create(r)}>
              {t('lobby.createAs', { role: roleName(t, r) })}
            </button>
          ))}
          <label className="check">
            <input type="checkbox" data-private checked={unlisted} onChange={(e) => setUnlisted(e.target.checked)} /> {t('lobby.private')}
          </label>
        </div>
        <div className="vs-computer" role="group" aria-labelledby="vs-computer-title">
          <h2 id="vs-computer-title">{t('lobby.vsComputer')}</h2>
          <p className="hint">{t('lobby.vsComputerHint')}</p>
          <label className="field">
            <span>{t('lobby.yourRole')}</span>
            <select data-vs-role value={vsRole} onChange={(e) => setVsRole(e.target.value as PlayerID)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleName(t, r)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('lobby.level')}</span>
            <LevelSelect value={vsLevel} onChange={setVsLevel} marker="data-vs-level" />
          </label>
          <button type="button" className={`primary role-${vsRole}`} data-vs-computer disabled={busy} onClick={vsComputer}>
            {t('lobby.vsComputerStart')}
          </button>
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </section>

      {mine.length > 0 && (
        <section className="panel">
          <h2>{t('lobby.yourMatches')}</h2>
          <ul className="matches">
            {mine.map((s) => (
              <li key={s.matchID} className="match" data-my-match={s.matchID}>
                <span>
                  {t('lobby.matchId', { id: s.matchID })} · {roleName(t, s.playerID)} ({s.name})
                </span>
                <span className="actions">
                  <a className="button primary" href={`#/match/${s.matchID}`}>
                    {t('lobby.rejoin')}
                  </a>
                  <button type="button" disabled={busy} onClick={() => leave(s)}>
                    {t('lobby.leave')}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="panel" data-open-matches={matches?.length}>
        <h2>
          {t('lobby.openMatches')}{' '}
          <button type="button" className="link" onClick={() => void refresh()}>
            {t('lobby.refresh')}
          </button>
        </h2>
        {matches === null ? (
          <p>{t('app.loading')}</p>
        ) : matches.length === 0 ? (
          <p className="hint">{t('lobby.noMatches')}</p>
        ) : (
          <ul className="matches">
            {matches.map((m) => (
              <li key={m.matchID} className="match" data-match={m.matchID}>
                <span className="seats">
                  {ROLES.map((r) => {
                    const p = m.players.find((x) => String(x.id) === r);
                    return (
                      <span key={r} className={`seat role-${r}${p?.name ? ' taken' : ''}`}>
                        {t('lobby.seat', { role: roleName(t, r), name: p?.name ?? t('lobby.free') })}
                      </span>
                    );
                  })}
                </span>
                <span className="actions">
                  {ROLES.filter((r) => !m.players.find((x) => String(x.id) === r)?.name).map((r) => (
                    <button key={r} type="button" className={`primary role-${r}`} data-join={r} disabled={busy || mine.some((s) => s.matchID === m.matchID)} onClick={() => join(m.matchID, r)}>
                      {t('lobby.join', { role: roleName(t, r) })}
                    </button>
                  ))}
                  <a className="button" href={`#/match/${m.matchID}`} data-watch={m.matchID}>
                    {t('lobby.spectate')}
                  </a>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <p className="hint dev">
        {t('lobby.localHint', { link: '#/local' }).split('#/local')[0]}
        <a href="#/local">{t('app.local')}</a>
        {t('lobby.localHint', { link: '#/local' }).split('#/local')[1]}
      </p>
    </div>
  );
}
