/**
 * The lobby, following boardgame.io's Lobby flow with LobbyClient. A returning player's own matches come
 * first (whose move it is, leave, rejoin); then a name and three doors, as Lichess and Board Game Arena
 * offer them: Play now (a person waiting in the open list on these terms, else quick pairing, else the
 * computer), play a friend (create as the Editor or Nixon and send the invite link; clock, take-backs
 * and rules folded), play the computer. Then the sections below the doors, each its own panel
 * (challenges, friends, the open list: host, age, rules, join a free seat, watch): one more slots in.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ABANDON_CHOICES, DEFAULT_OPTIONS, OPTION_VALUES, TAKE_BACK_SETTINGS, type Options, type PlayerID, type TakeBackSetting } from '../../game';
import type { PublicMatch } from '../../protocol/index';
import { TIME_CONTROLS, type TimeControl } from '../../protocol/rated';
import { roleName } from '../i18n/words';
import { go } from '../route';
import { GAME, dropReads, errorText, isRegisteredName, isTaken, joinSeat, listOpen, lobby, playVsComputer, retryAfter, type Level } from './api';
import { MyMatches } from './MyMatches';
import { MatchFacts, seatNamed, seatText } from './rows';
import { dropSeat, formName, heldSeats, savedName, saveName, type HeldSeat } from './seats';
import { LevelSelect } from '../LevelSelect';
import { useAccount, rememberAccount, syncSeats } from '../account/session';
import PlayNow, { type OpenList } from '../account/PlayNow';
import { ChallengesPanel } from '../account/Challenges';
import { ClockSelect } from './ClockSelect';
import { Friends } from './Friends';

const ROLES: PlayerID[] = ['0', '1'];
const OPTION_KEYS = Object.keys(OPTION_VALUES) as (keyof Options)[];

export default function LobbyPage(): ReactNode {
  const { t, i18n } = useTranslation();
  const [name, setName] = useState(savedName);
  const [matches, setMatches] = useState<PublicMatch[] | null>(null);
  const [mine, setMine] = useState<HeldSeat[]>(heldSeats);
  // Two kinds of trouble, kept apart: what an action of yours got (stays until your next action) and
  // whether the list can be fetched (the periodic refresh clears only that one).
  const [error, setError] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [vsRole, setVsRole] = useState<PlayerID>('0');
  const [vsLevel, setVsLevel] = useState<Level>('normal');
  const [unlisted, setUnlisted] = useState(false);
  const [options, setOptions] = useState<Options>(DEFAULT_OPTIONS);
  // The match's clock (a preset), what happens when it runs out, and after how long away a seat may be handed over.
  const [clock, setClock] = useState<TimeControl>('none');
  const [onTimeout, setOnTimeout] = useState<'lose' | 'bot'>('lose');
  const [abandon, setAbandon] = useState<number | null>(null);
  // "What would the computer do?": offered in untimed matches only; on by default against the computer.
  const [hints, setHints] = useState(false);
  const [vsHints, setVsHints] = useState(true);
  // Take-backs between people: with the opponent's consent unless chosen otherwise; none in a rated match.
  const [takeBacks, setTakeBacks] = useState<TakeBackSetting>('consent');
  const [tick, setTick] = useState(0);
  // Signed in: the account's name, its matches from every device, rated matches by default.
  const account = useAccount();
  const [rated, setRated] = useState(true);
  useEffect(() => {
    if (!account) return;
    setName(account);
    void import('../account/api')
      .then(({ me }) => me())
      .then(async (m) => {
        if (!m) return rememberAccount(null);
        await syncSeats();
        setMine(heldSeats());
      })
      .catch(() => undefined);
  }, [account]);
  // A challenge accepted (by the other player, or here): the account's seats again, the new match among them.
  const seatsChanged = useCallback(() => void syncSeats().then(() => setMine(heldSeats()), () => undefined), []);

  // The list comes a page at a time: as many pages as "More" asked for, and whether there are more.
  const pages = useRef(1);
  const [more, setMore] = useState(false);
  // Told to wait (429): no refresh asks again before then.
  const quietUntil = useRef(0);
  const refresh = useCallback(async () => {
    // "Your matches" follows the tick: it waits too.
    if (Date.now() < quietUntil.current) return;
    setTick((n) => n + 1);
    try {
      const all: PublicMatch[] = [];
      let next: string | undefined;
      for (let i = 0; i < pages.current; i++) {
        const page = await listOpen(next);
        all.push(...page.matches);
        next = page.next;
        if (!next) break;
      }
      const seen = new Set<string>();
      setMatches(all.filter((m) => !seen.has(m.matchID) && seen.add(m.matchID)).sort((a, b) => b.createdAt - a.createdAt));
      setMore(next !== undefined);
      setListError(null);
    } catch (e) {
      const wait = retryAfter(e);
      if (wait !== null) quietUntil.current = Date.now() + wait * 1000;
      setListError(e instanceof TypeError ? t('lobby.offline') : wait !== null ? t('lobby.rateLimited', { seconds: wait }) : t('lobby.error', { message: errorText(e) }));
    }
  }, [t]);
  const showMore = () => {
    pages.current++;
    void refresh();
  };

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), 3000);
    return () => clearInterval(timer);
  }, [refresh]);

  const needName = (): string | null => {
    const checked = formName(name);
    if ('error' in checked) {
      setError(t(checked.error));
      document.getElementById('player-name')?.focus();
      return null;
    }
    saveName(checked.name);
    return checked.name;
  };

  const run = async (f: () => Promise<void>, role?: PlayerID) => {
    setBusy(true);
    setError(null);
    try {
      await f();
    } catch (e) {
      const wait = retryAfter(e);
      setError(
        isRegisteredName(e) ? t('lobby.nameRefused.registered') : role && isTaken(e) ? t('lobby.seatTaken', { role: roleName(t, role) }) : wait !== null ? t('lobby.rateLimited', { seconds: wait }) : t('lobby.error', { message: errorText(e) }),
      );
      void refresh();
    } finally {
      setBusy(false);
    }
  };

  // A rated match's settings (protocol/rated.ts): its clock's abandon floor, never "never" without a clock.
  const ratedForm = !!account && rated;
  const floor = ratedForm ? TIME_CONTROLS[clock].ratedAbandonFloor : 0;
  const abandonChoices = ABANDON_CHOICES.filter((m) => m >= floor);
  const neverAllowed = !ratedForm || clock !== 'none';
  const handOver = abandon === null ? (neverAllowed ? null : floor) : Math.max(abandon, floor);

  const create = (role: PlayerID) => {
    const n = needName();
    if (!n) return;
    void run(async () => {
      const c = TIME_CONTROLS[clock].clock;
      const settings = { ...(c ? { clock: { ...c, onTimeout: ratedForm ? 'lose' : onTimeout } } : {}), ...(handOver === null ? {} : { abandonMinutes: handOver }) };
      // A rated match: the standard rules, no hints, no take-backs (the server refuses anything else).
      const free = ratedForm ? {} : { ...options, ...(hints && clock === 'none' ? { hints } : {}), takeBacks };
      const { matchID } = await lobby.createMatch(GAME, { numPlayers: 2, unlisted, ...(account ? { rated } : {}), setupData: { ...settings, ...free } } as never);
      await joinSeat(matchID, role, n);
      go(`#/match/${matchID}`);
    });
  };

  const vsComputer = (level: Level = vsLevel, role: PlayerID = vsRole) => {
    const n = needName();
    if (!n) return;
    void run(async () => {
      const matchID = await playVsComputer(role, level, n, vsHints);
      go(`#/match/${matchID}`);
    });
  };

  const join = (matchID: string, role: PlayerID) => {
    const n = needName();
    if (!n) return;
    void run(async () => {
      await joinSeat(matchID, role, n);
      go(`#/match/${matchID}`);
    }, role);
  };

  // Play now reads the list this page last fetched and joins through the same door as a Join button.
  const listed = useRef<PublicMatch[]>([]);
  listed.current = matches ?? [];
  const openList: OpenList = {
    read: () => ({ matches: listed.current, mine: new Set(heldSeats().map((s) => s.matchID)) }),
    join: async (matchID, seat, n) => {
      await joinSeat(matchID, seat, n);
      go(`#/match/${matchID}`);
    },
  };

  const forget = useCallback(() => setMine(heldSeats()), []);
  const leave = (seat: HeldSeat) =>
    void run(async () => {
      // Out of "Your matches" before the request, its reads of the match called off: a read answered
      // after the leave would ask for a match that leaving may have deleted (the last player gone).
      dropSeat(seat.matchID);
      dropReads(seat.matchID);
      forget();
      try {
        await lobby.leaveMatch(GAME, seat.matchID, { playerID: seat.playerID, credentials: seat.credentials });
      } finally {
        await refresh();
      }
    });

  return (
    <div className="lobby">
      <p className="tagline">{t('app.tagline')}</p>
      <p className="tutorial-link">
        <a href="#/tutorial" data-tutorial-link>
          {t('lobby.tutorialLink')}
        </a>
      </p>
      {mine.length > 0 && <MyMatches seats={mine} busy={busy} leave={leave} forget={forget} tick={tick} />}
      <section className="panel lobby-doors" data-lobby-doors>
        <h1>{t('lobby.title')}</h1>
        <label className="field">
          <span>{t('lobby.yourName')}</span>
          <input id="player-name" value={name} maxLength={40} placeholder={t('lobby.namePlaceholder')} onChange={(e) => setName(e.target.value)} autoComplete="nickname" readOnly={!!account} />
        </label>
        {account ? (
          <p className="hint" data-lobby-account>
            {t('account.playingAs', { name: account })}
          </p>
        ) : (
          <p className="hint">
            <a href="#/account">{t('account.lobbyHint')}</a>
          </p>
        )}
        <div className="doors">
          <div className="door" data-door="now">
            <PlayNow name={needName} signedIn={!!account} vsComputer={(level, side) => vsComputer(level as Level, side)} open={openList} />
          </div>
          <div className="door create" role="group" aria-labelledby="friend-title" data-door="friend">
            <h2 id="friend-title">{t('lobby.friend')}</h2>
            <p className="hint">{t('lobby.friendHint')}</p>
            {ROLES.map((r) => (
              <button key={r} type="button" className={`primary role-${r}`} data-create={r} disabled={busy} onClick={() => create(r)}>
                {t('lobby.createAs', { role: roleName(t, r) })}
              </button>
            ))}
            <label className="check">
              <input type="checkbox" data-private checked={unlisted} onChange={(e) => setUnlisted(e.target.checked)} /> {t('lobby.private')}
            </label>
            {account && (
              <label className="check">
                <input type="checkbox" data-rated-create checked={rated} onChange={(e) => setRated(e.target.checked)} /> {t('playNow.rated')}
              </label>
            )}
            {ratedForm && (
              <p className="hint" data-rated-rules>
                {t('lobby.ratedRules')}
              </p>
            )}
            <details className="friend-options" data-friend-options>
              <summary>{t('lobby.friendOptions')}</summary>
              <div className="clock-options">
                <ClockSelect value={clock} onChange={setClock} marker="data-clock-preset" />
                {clock === 'none' && !ratedForm && (
                  <label className="check">
                    <input type="checkbox" data-hints checked={hints} onChange={(e) => setHints(e.target.checked)} /> {t('lobby.hints')}
                  </label>
                )}
                {clock !== 'none' && !ratedForm && (
                  <label className="field">
                    <span>{t('clock.onTimeout')}</span>
                    <select data-on-timeout value={onTimeout} onChange={(e) => setOnTimeout(e.target.value as 'lose' | 'bot')}>
                      <option value="lose">{t('clock.lose')}</option>
                      <option value="bot">{t('clock.bot')}</option>
                    </select>
                  </label>
                )}
                <label className="field">
                  <span>{t('takeBack.setting')}</span>
                  <select data-take-backs value={account && rated ? 'off' : takeBacks} disabled={!!account && rated} title={account && rated ? t('takeBack.ratedOff') : undefined} onChange={(e) => setTakeBacks(e.target.value as TakeBackSetting)}>
                    {TAKE_BACK_SETTINGS.map((v) => (
                      <option key={v} value={v}>
                        {t(`takeBack.settings.${v}`)}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field">
                  <span>{t('clock.abandon')}</span>
                  <select data-abandon value={handOver ?? ''} onChange={(e) => setAbandon(e.target.value === '' ? null : Number(e.target.value))}>
                    {neverAllowed && <option value="">{t('clock.abandonNever')}</option>}
                    {abandonChoices.map((m) => (
                      <option key={m} value={m}>
                        {t('clock.abandonMinutes', { count: m })}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              <details className="rules-options" hidden={ratedForm}>
                <summary>{t('options.title')}</summary>
                {OPTION_KEYS.map((k) => (
                  <label key={k} className="field">
                    <span>{t(`options.${k}.label`)}</span>
                    <select data-option={k} value={options[k]} onChange={(e) => setOptions({ ...options, [k]: e.target.value })}>
                      {OPTION_VALUES[k].map((v) => (
                        <option key={v} value={v}>
                          {t(`options.${k}.${v}`)}
                        </option>
                      ))}
                    </select>
                  </label>
                ))}
              </details>
            </details>
          </div>
          <div className="door vs-computer" role="group" aria-labelledby="vs-computer-title" data-door="computer">
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
            <label className="check">
              <input type="checkbox" data-vs-hints checked={vsHints} onChange={(e) => setVsHints(e.target.checked)} /> {t('lobby.hints')}
            </label>
            <button type="button" className={`primary role-${vsRole}`} data-vs-computer disabled={busy} onClick={() => vsComputer()}>
              {t('lobby.vsComputerStart')}
            </button>
          </div>
        </div>
        {error && (
          <p className="error" role="alert" data-lobby-error>
            {error}{' '}
            <button type="button" className="link" onClick={() => setError(null)}>
              {t('lobby.dismiss')}
            </button>
          </p>
        )}
      </section>

      {account && <ChallengesPanel onSeats={seatsChanged} />}

      <Friends />
      <section className="panel" data-open-matches={matches?.length}>
        <h2>
          {t('lobby.openMatches')}{' '}
          <button type="button" className="link" onClick={() => void refresh()}>
            {t('lobby.refresh')}
          </button>
        </h2>
        {listError && (
          <p className="error" role="status">
            {listError}
          </p>
        )}
        {matches === null ? (
          <p>{t('app.loading')}</p>
        ) : matches.length === 0 ? (
          <p className="hint">{t('lobby.noMatches')}</p>
        ) : (
          <ul className="matches">
            {matches.map((m) => {
              const free = ROLES.filter((r) => !seatNamed(m, r)?.name);
              const taken = ROLES.filter((r) => !free.includes(r));
              return (
                <li key={m.matchID} className="match" data-match={m.matchID}>
                  <span className="who">
                    {free.length === 0
                      ? t('lobby.playing', { a: seatText(t, seatNamed(m, '0'), '0'), b: seatText(t, seatNamed(m, '1'), '1') })
                      : taken.length === 1
                        ? t('lobby.hosts', { who: seatText(t, seatNamed(m, taken[0]), taken[0]), role: roleName(t, free[0]) })
                        : t('lobby.empty')}
                    <br />
                    <MatchFacts m={m} />
                  </span>
                  <span className="actions">
                    {free.map((r) => (
                      // A rematch's seat kept for the old opponent: not for anyone else until then (the server refuses it too).
                      <button
                        key={r}
                        type="button"
                        className={`primary role-${r}`}
                        data-join={r}
                        disabled={busy || mine.some((s) => s.matchID === m.matchID) || (m.kept?.seat === r && m.kept.until > Date.now())}
                        title={m.kept?.seat === r ? t('lobby.keptSeat', { time: new Date(m.kept.until).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' }) }) : undefined}
                        onClick={() => join(m.matchID, r)}
                      >
                        {t('lobby.join', { role: roleName(t, r) })}
                      </button>
                    ))}
                    <a className="button" href={`#/match/${m.matchID}`} data-watch={m.matchID}>
                      {t('lobby.spectate')}
                    </a>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
        {more && (
          <button type="button" className="link" data-more onClick={showMore}>
            {t('lobby.more')}
          </button>
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
