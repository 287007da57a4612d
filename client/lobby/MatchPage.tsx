/**
 * One online match: the seat this browser holds (from localStorage), a free seat offered to a visitor
 * (the address is the invitation), or spectating, over socket.io to the same server. The bar above the
 * board: invite link, the "your move" sound, turn notifications (browser, webhook), leave. After the game: play again (sides swapped unless
 * kept), the opponent's invitation to accept with one click.
 */
import { MatchRatedResult } from '../account/RatedResult';
import { syncSeats } from '../account/session';
import { lazy, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Watergate, type PlayerID } from '../../game';
import { WatergateBoard } from '../board/Board';
import { ShellContext, type Shell } from '../board/shell';
import { roleName } from '../i18n/words';
import { SocketIO } from 'boardgame.io/multiplayer';
import { GameClient, type GameClientInstance } from '../net/GameClient';
import type { Busy } from '../net/retry';
import { botLevelOf, MATCH_QUERY, type GuardError, type MatchStatus } from '../../protocol/index';
import { go } from '../route';
import { turnNotice } from '../notify';
import { loadPageWords } from '../i18n';
import { Optional } from '../Optional';
import { dropSeat, seatFor } from './seats';
import { setSound, soundOn } from '../sound';

// The lobby API is needed here only after the game or to leave: loaded then, not with the board.
const api = () => import('./api');
// A free seat offered to a visitor without one (the address is the invitation): also on demand.
const JoinOffer = lazy(() => import('./JoinOffer'));
// "Play again" and the opponent's invitation: only once a game is over.
const Rematch = lazy(() => Promise.all([import('./Rematch'), loadPageWords()]).then(([m]) => m));
// Clocks and the computer's stand-ins: only for matches that have them.
const Status = lazy(() => Promise.all([import('./Status'), loadPageWords()]).then(([m]) => m));
// "Game 1 of 2 …": only for a paired deal's games.
const Pair = lazy(() => Promise.all([import('./Pair'), loadPageWords()]).then(([m]) => m));
// "Take back" and the opponent's consent: only for matches that allow take-backs.
const TakeBack = lazy(() => Promise.all([import('./TakeBack'), loadPageWords()]).then(([m]) => m));
// Turn notifications (browser, webhook): when asked for.
const NotifyPanel = lazy(() => Promise.all([import('./NotifyPanel'), loadPageWords()]).then(([m]) => m));

/** The seat the server's bot plays (its seat's data says so): its decisions are shown one at a time. */
const computerSeat = (client: GameClientInstance): string | null => {
  const seat = client.matchData?.find((s) => botLevelOf(s as { data?: unknown }));
  return seat ? String(seat.id) : null;
};

/** The socket names its match in the handshake, so a router in front of several servers keeps a match on one. */
const serverFor = (matchID: string) => SocketIO({ server: window.location.origin, socketOpts: { query: { [MATCH_QUERY]: matchID } } });

function Loading(): ReactNode {
  const { t } = useTranslation();
  return <p className="loading">{t('app.connecting')}</p>;
}

export default function MatchPage({ matchID }: { matchID: string }): ReactNode {
  const { t } = useTranslation();
  const [forgotten, setForgotten] = useState(0); // bumped when the stored seat is dropped
  const seat = useMemo(() => seatFor(matchID), [matchID, forgotten]);
  // Signed in on a device that never held this seat: the account's seats are fetched once (on demand).
  useEffect(() => {
    if (seat || !localStorage.getItem('watergate.account')) return;
    syncSeats(matchID).then(() => seatFor(matchID) && setForgotten((n) => n + 1), () => undefined);
  }, [matchID]);
  const server = useMemo(() => serverFor(matchID), [matchID]);
  // The server's last refusal. Before any state arrived, "not found" or a refused seat ends the page;
  // later ones are shown above the board until the next state change makes them old news.
  // Only a new state clears it: a resync of the same state or news of the seats (presence) is no news.
  const [refusal, setRefusal] = useState<{ error: GuardError; fatal: boolean; stateID: number | null } | null>(null);
  // A busy server (storage away, or this page asking too fast): asked again by itself, said in a banner.
  const [busy, setBusy] = useState<Busy | null>(null);
  // This browser's seat changed hands (left from another tab or device, then taken): it watches now.
  const [seatLost, setSeatLost] = useState(false);
  const onServerError = useCallback((e: GuardError, client: GameClientInstance) => {
    if (e.type === 'unavailable' || e.type === 'rate-limited') return; // the busy banner says it
    if (e.seatLost) {
      dropSeat(matchID);
      setSeatLost(true);
      setRefusal(null);
      setForgotten((n) => n + 1);
      return;
    }
    const s = client.getState();
    setRefusal({ error: e, fatal: s === null && (e.type === 'not-found' || e.type === 'unauthorized'), stateID: s?._stateID ?? null });
  }, [matchID]);
  // A game in progress (a first move made, not over): "Leave" then keeps the seat (come back later, or resign).
  const [inGame, setInGame] = useState(false);
  // Without a seat here, a free seat of the match is offered above the board (the address is the
  // invitation), from the seats the socket reports; "Just watch" puts the offer away.
  const [offer, setOffer] = useState<{ free: PlayerID[]; host: string | null } | null>(null);
  const [justWatching, setJustWatching] = useState(false);
  const [copied, setCopied] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // The state the board shows (what the take-back status must be about before it is offered).
  const [stateID, setStateID] = useState<number | null>(null);
  const [names, setNames] = useState<[string | undefined, string | undefined]>([undefined, undefined]);
  const onUpdate = useCallback((client: GameClientInstance) => {
    const s = client.getState();
    setStateID(s?._stateID ?? null);
    setRefusal((r) => (r && !r.fatal && r.stateID !== (s?._stateID ?? null) ? null : r));
    setInGame(!!s && s.ctx.gameover === undefined && s._stateID > 0);
    setOver(!!s && s.ctx.gameover !== undefined);
    // The seats' names (a paired deal's line names the pair's players).
    const named = [0, 1].map((i) => client.matchData?.find((p) => p.id === i)?.name) as [string | undefined, string | undefined];
    setNames((n) => (n[0] === named[0] && n[1] === named[1] ? n : named));
    const seats = client.playerID === null && s?.ctx.gameover === undefined ? (client.matchData ?? []) : [];
    const free = seats.filter((p) => !p.name).map((p) => String(p.id) as PlayerID);
    const host = seats.find((p) => p.name)?.name ?? null;
    setOffer((o) => (free.length === 0 ? null : o && o.host === host && o.free.join() === free.join() ? o : { free, host }));
  }, []);

  // The clock, the computer's stand-ins and who is away (server/lobby/public.ts matchStatus), when told.
  const [status, setStatus] = useState<MatchStatus | null>(null);
  const [over, setOver] = useState(false);
  // A next match ("play again" by anyone here), as the server announces it.
  const [next, setNext] = useState<string | null>(null);
  const [sound, setSoundState] = useState(soundOn);
  // The notifications panel, and the browser's answer when its button asked for permission.
  const [notify, setNotify] = useState(false);
  const [asked, setAsked] = useState<Promise<unknown> | null>(null);
  // "What would the computer do?" when the match was created with hints (untimed only), as the server's status says.
  const hints = status?.hints ?? false;
  const shell: Shell = {
    online: true,
    hints,
    yourTurn: () => turnNotice(t('app.yourMoveTitle'), t('lobby.matchId', { id: matchID })),
    gameOverActions: () => (
      <div className="actions">
        <Optional>
          <MatchRatedResult matchID={matchID} />
        </Optional>
        <Optional>
          <Rematch matchID={matchID} seat={seat} next={next} />
        </Optional>
        <a className="button" href="#/">
          {t('app.lobby')}
        </a>
      </div>
    ),
  };

  return (
    <ShellContext.Provider value={shell}>
      {/* The match's bar, its clocks and "Take back": one line above a wide table (styles.css "Wide"). */}
      <div className="match-head">
        <div className="match-bar">
          <span className="match-id">{t('lobby.matchId', { id: matchID })}</span>
          {seat && <span className={`role-chip role-${seat.playerID}`}>{roleName(t, seat.playerID)}</span>}
          {seat && (
            <button
              type="button"
              className="link"
              data-invite
              onClick={() => {
                const link = `${window.location.origin}${window.location.pathname}#/match/${matchID}`;
                // No clipboard outside secure contexts (plain http on a LAN): show the link to copy by hand.
                const shown = () => void window.prompt(t('lobby.invite'), link);
                if (!navigator.clipboard) return shown();
                navigator.clipboard.writeText(link).then(() => setCopied(true), shown);
              }}
            >
              {t('lobby.invite')}
            </button>
          )}
          {copied && (
            <span className="hint" role="status">
              {t('lobby.copied')}
            </span>
          )}
          {seat && (
            <label className="check">
              <input
                type="checkbox"
                data-sound
                checked={sound}
                onChange={(e) => {
                  setSound(e.target.checked);
                  setSoundState(e.target.checked);
                }}
              />{' '}
              {t('lobby.sound')}
            </label>
          )}
          {seat && (
            <button
              type="button"
              className="link"
              data-notify
              aria-expanded={notify}
              aria-controls="notify-panel"
              onClick={() => {
                // Asked here, in the click: browsers show their permission question only then.
                if (!notify && 'Notification' in window && Notification.permission === 'default') setAsked(Notification.requestPermission());
                setNotify(!notify);
              }}
            >
              {t('lobby.notifyMe')}
            </button>
          )}
          {seat && (
            <button
              type="button"
              className="link"
              data-leave
              onClick={async () => {
                if (inGame) return setLeaving(true);
                const { GAME, lobby } = await api();
                try {
                  await lobby.leaveMatch(GAME, matchID, { playerID: seat.playerID, credentials: seat.credentials });
                } catch {
                  // the seat may already be gone: forget it anyway
                }
                dropSeat(matchID);
                go('#/');
              }}
            >
              {t('lobby.leave')}
            </button>
          )}
        </div>
        {!refusal?.fatal && status && (status.clock || status.abandonMinutes !== null || Object.keys(status.standIns).length > 0) && (
          <Optional>
            <Status status={status} seat={seat ?? null} over={over} />
          </Optional>
        )}
        {status?.pair && (
          <Optional>
            <Pair pair={status.pair} names={names} />
          </Optional>
        )}
        {!refusal?.fatal && seat && !over && status?.takeBack && status.takeBack.mode !== 'off' && (
          <Optional>
            <TakeBack matchID={matchID} seat={seat} status={status} stateID={stateID} />
          </Optional>
        )}
      </div>
      {seat && notify && (
        <Optional>
          <NotifyPanel matchID={matchID} seat={seat} asked={asked} />
        </Optional>
      )}
      {leaving && inGame && (
        <div className="confirm leave" role="alertdialog" aria-labelledby="leave-question">
          <p id="leave-question">{t('lobby.leaveConfirm')}</p>
          <p className="actions">
            <button type="button" className="primary" data-leave-page onClick={() => go('#/')}>
              {t('lobby.leavePage')}
            </button>
            <button type="button" autoFocus onClick={() => setLeaving(false)}>
              {t('lobby.stay')}
            </button>
          </p>
        </div>
      )}
      {offer && !seat && !justWatching && (
        <Optional>
          <JoinOffer matchID={matchID} free={offer.free} host={offer.host} joined={() => setForgotten((n) => n + 1)} watch={() => setJustWatching(true)} />
        </Optional>
      )}
      {refusal?.fatal ? (
        <div className="panel refused" role="alert" data-refused={refusal.error.type}>
          <p>{refusal.error.type === 'not-found' ? t('lobby.notFound', { id: matchID }) : t('lobby.seatRefused')}</p>
          <p className="actions">
            {refusal.error.type === 'unauthorized' && (
              <button
                type="button"
                className="primary"
                onClick={() => {
                  dropSeat(matchID);
                  setRefusal(null);
                  setForgotten((n) => n + 1);
                }}
              >
                {t('lobby.watchInstead')}
              </button>
            )}
            <a className="button" href="#/">
              {t('app.lobby')}
            </a>
          </p>
        </div>
      ) : (
        <>
          {busy && (
            <p className="error busy" role="status" data-busy={busy.type}>
              {t(`lobby.refusal.${busy.type}`, { seconds: busy.seconds })}
            </p>
          )}
          {seatLost && !seat && (
            <p className="notice seat-lost" role="status" data-seat-lost>
              {t('lobby.seatLost')}
            </p>
          )}
          {refusal && (
            <p className="error refusal" role="alert" data-refusal={refusal.error.type}>
              {t(`lobby.refusal.${refusal.error.type}`, { reason: refusal.error.message })}
            </p>
          )}
          <GameClient
            onStatus={setStatus}
            game={Watergate}
            board={WatergateBoard}
            loading={Loading}
            multiplayer={server}
            matchID={matchID}
            playerID={seat?.playerID}
            credentials={seat?.credentials}
            onUpdate={onUpdate}
            onServerError={onServerError}
            onBusy={setBusy}
            onNextMatch={setNext}
            computerSeat={computerSeat}
          />
        </>
      )}
    </ShellContext.Provider>
  );
}
