/**
 * "Play now" in the lobby: a side (or either), a time control, rated or not (rated needs an account).
 * First, and at every poll while waiting, the open list: a person already waiting there in a match on
 * these terms is joined at once (client/lobby/openFit.ts). Otherwise the server pairs this player with a waiting one whose rating is close (the window widens while they
 * wait); this page asks every POLL_MS and opens the match once paired. After the chosen wait with nobody,
 * the computer is offered at the level nearest the player's rating. A ticket not asked about for a while
 * lapses on the server (its page is taken for closed); a page the browser kept in the background, its
 * timers slowed, finds its ticket gone and asks again, in the queue anew, instead of showing an error.
 */
import './account.css';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PairRequest, PairStatus } from '../../protocol/accounts';
import { roleName } from '../i18n/words';
import { holdSeat } from '../lobby/seats';
import { ClockSelect } from '../lobby/ClockSelect';
import { go } from '../route';
import { AccountError, cancelPair, pair, pollPair } from './api';
import { openMatchFor, type Wish } from '../lobby/openFit';
import type { PublicMatch } from '../../protocol/index';
import type { PlayerID } from '../../game';
import { refusalText } from './AccountPage';

const POLL_MS = 1500;
const OFFER_AFTER = [15, 30, 60] as const;

export interface OpenList {
  /** The open matches the lobby last listed, and the matches this browser already sits in. */
  read: () => { matches: readonly PublicMatch[]; mine: ReadonlySet<string> };
  /** Takes the seat and opens the match; throws as joinSeat does (the seat taken meanwhile…). */
  join: (matchID: string, seat: PlayerID, name: string) => Promise<void>;
}

export default function PlayNow({ name, signedIn, vsComputer, open }: { name: () => string | null; signedIn: boolean; vsComputer: (level: string, side: '0' | '1') => void; open?: OpenList }): ReactNode {
  const { t } = useTranslation();
  const [side, setSide] = useState<PairRequest['side']>('either');
  const [clock, setClock] = useState<PairRequest['clock']>('none');
  const [rated, setRated] = useState(true);
  const [offerAfter, setOfferAfter] = useState<number>(30);
  const [waiting, setWaiting] = useState<PairStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ticket = useRef<string | null>(null);
  const asked = useRef<PairRequest | null>(null);
  const player = useRef('');

  /** Joins a person waiting in the open list on these terms, if there is one; false when none was taken. */
  const findOpen = (r: PairRequest) => {
    if (!open) return null;
    const { matches, mine } = open.read();
    return openMatchFor(matches, { side: r.side, clock: r.clock, rated: r.rated } as Wish, mine);
  };
  const joinOpen = async (r: PairRequest): Promise<boolean> => {
    const fit = findOpen(r);
    if (!fit || !open) return false;
    try {
      await open.join(fit.matchID, fit.seat, player.current);
      return true;
    } catch {
      return false; // taken meanwhile, or refused: the queue as before
    }
  };

  const opened = (s: PairStatus) => {
    if (s.status !== 'paired' || !s.matchID || !s.playerID || !s.playerCredentials) return false;
    ticket.current = null;
    holdSeat({ matchID: s.matchID, playerID: s.playerID, credentials: s.playerCredentials, name: name() ?? '' });
    go(`#/match/${s.matchID}`);
    return true;
  };

  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => {
      if (!ticket.current) return;
      pollPair(ticket.current).then(
        async (s) => {
          if (opened(s)) return;
          // Someone opened a match on these terms meanwhile: take it, giving the ticket up.
          // The ticket is given up first: paired meanwhile, that match opens instead.
          const r = asked.current;
          if (r && ticket.current && findOpen(r)) {
            const tk = ticket.current;
            ticket.current = null;
            const c = await cancelPair(tk).catch(() => null);
            if (c && c.status === 'paired') return void opened(c as PairStatus);
            if (!(await joinOpen(r))) await ask(r);
            return;
          }
          setWaiting(s);
        },
        (e: unknown) => {
          if (!ticket.current) return; // given up meanwhile
          if (e instanceof AccountError && e.status === 404 && asked.current) return void ask(asked.current);
          setError(refusalText(t, e));
          setWaiting(null);
        },
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, t]);
  // Leaving the lobby while waiting gives the ticket up.
  useEffect(() => () => void (ticket.current && cancelPair(ticket.current).catch(() => undefined)), []);

  const ask = async (r: PairRequest) => {
    try {
      const s = await pair(r);
      ticket.current = s.ticket;
      if (!opened(s)) setWaiting(s);
    } catch (e) {
      ticket.current = null;
      setWaiting(null);
      setError(refusalText(t, e));
    }
  };
  const start = async () => {
    setError(null);
    const n = name();
    if (n === null) return;
    player.current = n;
    asked.current = { side, clock, rated: signedIn && rated, ...(signedIn ? {} : { name: n }) };
    if (await joinOpen(asked.current)) return;
    await ask(asked.current);
  };
  const stop = async () => {
    const tk = ticket.current;
    ticket.current = null;
    asked.current = null;
    setWaiting(null);
    if (tk) {
      const s = await cancelPair(tk).catch(() => null);
      if (s && s.status === 'paired') opened(s as PairStatus);
    }
  };

  return (
    <div className="play-now" role="group" aria-labelledby="play-now-title" data-play-now>
      <h2 id="play-now-title">{t('playNow.title')}</h2>
      <p className="hint">{t('playNow.hint')}</p>
      {!waiting ? (
        <>
          <label className="field">
            <span>{t('playNow.side')}</span>
            <select value={side} onChange={(e) => setSide(e.target.value as PairRequest['side'])} data-pair-side>
              <option value="either">{t('playNow.either')}</option>
              <option value="0">{roleName(t, '0')}</option>
              <option value="1">{roleName(t, '1')}</option>
            </select>
          </label>
          <ClockSelect value={clock} onChange={setClock} marker="data-pair-clock" />
          <label className="field">
            <span>{t('playNow.offerAfter')}</span>
            <select value={offerAfter} onChange={(e) => setOfferAfter(Number(e.target.value))} data-pair-offer>
              {OFFER_AFTER.map((s) => (
                <option key={s} value={s}>
                  {t('playNow.seconds', { count: s })}
                </option>
              ))}
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={signedIn && rated} disabled={!signedIn} onChange={(e) => setRated(e.target.checked)} data-pair-rated /> {t('playNow.rated')}
          </label>
          {!signedIn && <p className="hint">{t('playNow.ratedNeedsAccount')}</p>}
          <button type="button" className="primary" onClick={() => void start()}>
            {t('playNow.start')}
          </button>
        </>
      ) : (
        <div role="status" data-pairing>
          <p>{t('playNow.looking', { seconds: waiting.waitedSeconds })}</p>
          {waiting.waitedSeconds >= offerAfter && (
            <p>
              {t('playNow.nobody')}{' '}
              <button
                type="button"
                className="primary"
                data-pair-computer
                onClick={() => {
                  void stop();
                  vsComputer(waiting.suggestedLevel, side === '1' ? '1' : '0');
                }}
              >
                {t('playNow.computer', { level: t(`lobby.levels.${waiting.suggestedLevel}`) })}
              </button>
            </p>
          )}
          <button type="button" onClick={() => void stop()}>
            {t('playNow.cancel')}
          </button>
        </div>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
