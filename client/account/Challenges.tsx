/**
 * Challenges by name and blocks (docs/BOT-API.md "Challenges"): the lobby's panel of challenges in and out
 * (kept current by the account's event stream, GET /api/stream/event, read here as NDJSON; a slow poll
 * stands in while the stream is down), the profile's "Challenge" form and its block button.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TimeControl } from '../../protocol/rated';
import { roleName } from '../i18n/words';
import { ClockSelect } from '../lobby/ClockSelect';
import { holdSeat } from '../lobby/seats';
import { go } from '../route';
import { AccountError, call, myMatches } from './api';
import { refusalText } from './AccountPage';

export interface ChallengeView {
  id: string;
  from: string;
  to: string;
  fromBot?: true;
  toBot?: true;
  side: 'editor' | 'nixon' | 'random';
  clock: TimeControl;
  rated: boolean;
  takeBacks: boolean;
  paired?: true;
  expiresAt: number;
}

/** While the event stream is down, the list is asked for this often. */
const POLL_MS = 30_000;

async function remove(path: string): Promise<void> {
  const res = await fetch(`${window.location.origin}${path}`, { method: 'DELETE' });
  if (!res.ok) {
    const data = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new AccountError(res.status, data?.error ?? `HTTP ${res.status}`, null);
  }
}

/** Reads the account's event stream, calling `onLine` for each line, until `signal` aborts or the stream ends. */
async function follow(signal: AbortSignal, onLine: (l: { type?: string; matchID?: string }) => void): Promise<void> {
  const res = await fetch(`${window.location.origin}/api/stream/event`, { signal });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (line) onLine(JSON.parse(line) as { type?: string });
    }
  }
}

/** The challenger's side as the challenged player plays it (or "random"). */
const sideFor = (c: ChallengeView, incoming: boolean): '0' | '1' | null => (c.side === 'random' ? null : (c.side === 'editor') !== incoming ? '0' : '1');

/** The lobby's list of challenges to and from the signed-in player, with accept, decline and cancel. */
export function ChallengesPanel({ onSeats }: { onSeats: () => void }): ReactNode {
  const { t } = useTranslation();
  const [list, setList] = useState<{ in: ChallengeView[]; out: ChallengeView[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useCallback(() => void call<{ in: ChallengeView[]; out: ChallengeView[] }>('/api/challenge').then(setList, () => undefined), []);

  useEffect(() => {
    load();
    const ac = new AbortController();
    let timer: ReturnType<typeof setInterval> | undefined;
    // A gameStart is a new game of the account's: a challenge accepted, a pair's second game, an event's
    // round — so the note names none of them. The stream also opens with one for every unfinished match
    // the account holds (for bots that reconnect): those it already held are no news to a person.
    const held = myMatches().then((r) => new Set(r.matches.map((m) => m.matchID)), () => new Set<string>());
    held
      .then((known) =>
        follow(ac.signal, (l) => {
          if (l.type === 'gameStart' && !(l.matchID && known.has(l.matchID))) {
            setNote(t('challenge.started'));
            onSeats();
          }
          load();
        }),
      )
      .catch(() => undefined).finally(() => {
      if (!ac.signal.aborted) timer = setInterval(load, POLL_MS);
    });
    return () => {
      ac.abort();
      clearInterval(timer);
    };
  }, [load, onSeats, t]);

  const act = async (c: ChallengeView, what: 'accept' | 'decline' | 'cancel') => {
    setError(null);
    try {
      const r = await call<{ matchID?: string; playerID?: '0' | '1'; playerCredentials?: string }>(`/api/challenge/${c.id}/${what}`, {});
      if (what === 'accept' && r.matchID && r.playerID && r.playerCredentials) {
        holdSeat({ matchID: r.matchID, playerID: r.playerID, credentials: r.playerCredentials, name: c.to });
        go(`#/match/${r.matchID}`);
      }
    } catch (e) {
      setError(refusalText(t, e));
    }
    load();
  };

  if (!list || list.in.length + list.out.length === 0) return note ? <p className="hint" role="status">{note}</p> : null;
  const row = (c: ChallengeView, incoming: boolean) => {
    const side = sideFor(c, incoming);
    const facts = t('challenge.facts', {
      role: side ? roleName(t, side) : t('challenge.random'),
      clock: t(`clock.${c.clock}`),
      rated: [c.rated ? t('challenge.ratedGame') : t('challenge.casual'), ...(c.takeBacks ? [t('challenge.withTakeBacks')] : []), ...(c.paired ? [t('challenge.withPaired')] : [])].join(', '),
    });
    return (
      <li key={c.id} className="match" data-challenge={c.id} data-incoming={incoming || undefined}>
        <span className="who">
          {incoming ? t('challenge.from', { name: c.from }) : t('challenge.to', { name: c.to })}
          <br />
          <span className="facts">{facts}</span>
        </span>
        {incoming ? (
          <>
            <button type="button" data-accept onClick={() => void act(c, 'accept')}>
              {t('challenge.accept')}
            </button>
            <button type="button" data-decline onClick={() => void act(c, 'decline')}>
              {t('challenge.decline')}
            </button>
          </>
        ) : (
          <button type="button" data-cancel onClick={() => void act(c, 'cancel')}>
            {t('challenge.cancel')}
          </button>
        )}
      </li>
    );
  };
  return (
    <section className="panel" aria-labelledby="challenges-title" data-challenges>
      <h2 id="challenges-title">{t('challenge.title')}</h2>
      {error && <p className="error" role="alert">{error}</p>}
      {note && <p className="hint" role="status">{note}</p>}
      <ul className="matches">
        {list.in.map((c) => row(c, true))}
        {list.out.map((c) => row(c, false))}
      </ul>
    </section>
  );
}

/** The profile's "Challenge" form and block button, for a signed-in visitor of another player's profile. */
export function ChallengeForm({ username, bot }: { username: string; bot: boolean }): ReactNode {
  const { t, i18n } = useTranslation();
  const [side, setSide] = useState<ChallengeView['side']>('random');
  const [clock, setClock] = useState<TimeControl>('none');
  const [rated, setRated] = useState(false);
  const [takeBacks, setTakeBacks] = useState(false);
  const [paired, setPaired] = useState(false);
  const [blocked, setBlocked] = useState<boolean | null>(null);
  const [said, setSaid] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => {
    call<{ blocks: { username: string }[] }>('/api/block').then((b) => setBlocked(b.blocks.some((x) => x.username === username)), () => undefined);
  }, [username]);

  const send = async () => {
    try {
      const r = await call<{ challenge: ChallengeView }>(`/api/challenge/${encodeURIComponent(username)}`, { side, clock, rated: rated && !bot, takeBacks: takeBacks && !rated && !paired, ...(paired ? { paired: true } : {}) });
      const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(r.challenge.expiresAt);
      setSaid({ text: t('challenge.sent', { time }), error: false });
    } catch (e) {
      setSaid({ text: refusalText(t, e), error: true });
    }
  };
  const toggleBlock = async () => {
    try {
      if (blocked) await remove(`/api/block/${encodeURIComponent(username)}`);
      else await call(`/api/block/${encodeURIComponent(username)}`, {});
      setBlocked(!blocked);
      setSaid(blocked ? null : { text: t('challenge.blocked', { name: username }), error: false });
    } catch (e) {
      setSaid({ text: refusalText(t, e), error: true });
    }
  };

  return (
    <section className="panel" aria-labelledby="challenge-title" data-challenge-form>
      <h2 id="challenge-title">{t('challenge.send', { name: username })}</h2>
      {!blocked && (
        <div className="create">
          <label className="field">
            <span>{t('challenge.side')}</span>
            <select data-challenge-side value={side} onChange={(e) => setSide(e.target.value as ChallengeView['side'])}>
              <option value="random">{t('challenge.random')}</option>
              <option value="editor">{roleName(t, '0')}</option>
              <option value="nixon">{roleName(t, '1')}</option>
            </select>
          </label>
          <ClockSelect value={clock} onChange={setClock} marker="data-challenge-clock" />
          {bot ? (
            <p className="hint">{t('challenge.botCasual')}</p>
          ) : (
            <label className="check">
              <input type="checkbox" data-challenge-rated checked={rated} onChange={(e) => setRated(e.target.checked)} /> {t('challenge.rated')}
            </label>
          )}
          <label className="check">
            <input type="checkbox" data-challenge-paired checked={paired} onChange={(e) => setPaired(e.target.checked)} /> {t('challenge.paired')}
          </label>
          {!rated && !paired && (
            <label className="check">
              <input type="checkbox" data-challenge-takebacks checked={takeBacks} onChange={(e) => setTakeBacks(e.target.checked)} /> {t('challenge.takeBacks')}
            </label>
          )}
          <button type="button" data-send-challenge onClick={() => void send()}>
            {t('challenge.sendButton')}
          </button>
        </div>
      )}
      {said && (
        <p className={said.error ? 'error' : 'hint'} role={said.error ? 'alert' : 'status'}>
          {said.text}
        </p>
      )}
      {blocked !== null && (
        <button type="button" data-block={blocked ? 'on' : 'off'} onClick={() => void toggleBlock()}>
          {blocked ? t('challenge.unblock') : t('challenge.block')}
        </button>
      )}
    </section>
  );
}
