/**
 * "Take back" above an online match's board (docs/ARCHITECTURE.md "Take-backs"): the button — also
 * Ctrl+Z (⌘Z) and, on a phone, a long press on the board — works only when the server's status says this
 * seat may take back now; otherwise it gives the reason (its title on hover, the text on a tap). With
 * consent, the opponent is asked (Accept / Refuse) and the asker sees the wait and the answer. Everything
 * comes from the match's status event (protocol TakeBackStatus); the request is the undo route's.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { undoPath, type MatchStatus, type TakeBackStatus, type UndoResponse } from '../../protocol/index';
import { roleName } from '../i18n/words';
import type { HeldSeat } from './seats';

/** How long a finger rests on the board to take back (a phone's long press). */
const LONG_PRESS_MS = 600;

/** The request on the state the status is about, while it stands (a refusal until the next state). */
function standing(tb: TakeBackStatus, now: number) {
  const r = tb.request;
  return r && r.stateID === tb.stateID && (r.refused || r.expiresAt > now) ? r : null;
}

/** Ctrl+Z / ⌘Z anywhere but in a text field, and a long press on the board: `act` (latest) runs. */
function useShortcuts(act: () => void): void {
  const latest = useRef(act);
  latest.current = act;
  useEffect(() => {
    const key = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.key.toLowerCase() !== 'z') return;
      if ((e.target as Element | null)?.closest?.('input, select, textarea, [contenteditable="true"]')) return;
      e.preventDefault();
      latest.current();
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    let start: { x: number; y: number } | null = null;
    const cancel = () => {
      clearTimeout(timer);
      start = null;
    };
    const down = (e: TouchEvent) => {
      if (e.touches.length !== 1 || !(e.target as Element | null)?.closest?.('.game')) return cancel();
      start = { x: e.touches[0].clientX, y: e.touches[0].clientY };
      timer = setTimeout(() => {
        start = null;
        // The finger lifted after a long press must not also tap what it rested on (a card).
        const swallow = (c: Event) => (c.preventDefault(), c.stopPropagation());
        window.addEventListener('click', swallow, { capture: true, once: true });
        setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 800);
        latest.current();
      }, LONG_PRESS_MS);
    };
    const move = (e: TouchEvent) => {
      if (start && Math.hypot(e.touches[0].clientX - start.x, e.touches[0].clientY - start.y) > 10) cancel();
    };
    window.addEventListener('keydown', key);
    window.addEventListener('touchstart', down, { passive: true });
    window.addEventListener('touchmove', move, { passive: true });
    window.addEventListener('touchend', cancel);
    window.addEventListener('touchcancel', cancel);
    return () => {
      cancel();
      window.removeEventListener('keydown', key);
      window.removeEventListener('touchstart', down);
      window.removeEventListener('touchmove', move);
      window.removeEventListener('touchend', cancel);
      window.removeEventListener('touchcancel', cancel);
    };
  }, []);
}

export default function TakeBack({ matchID, seat, status, stateID }: { matchID: string; seat: HeldSeat; status: MatchStatus; stateID: number | null }): ReactNode {
  const { t } = useTranslation();
  const tb = status.takeBack!;
  const me = seat.playerID;
  const them = me === '0' ? '1' : '0';
  // The server's time now, as measured when the status came (a request's expiry is in its time).
  const offset = useMemo(() => status.now - Date.now(), [status]);
  const request = standing(tb, Date.now() + offset);
  const why = tb.why[me];
  // The status is about the state on the board (a newer state's status follows it at once): until then, wait.
  const current = stateID === tb.stateID;
  // What the last answer said, for the state it was about.
  const [note, setNote] = useState<{ text: string; stateID: number } | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (accept?: boolean) => {
    if (busy) return;
    setBusy(true);
    const say = (text: string, stateID = tb.stateID) => setNote({ text, stateID });
    try {
      const res = await fetch(undoPath(matchID), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ playerID: me, credentials: seat.credentials, stateID: tb.stateID, ...(accept === undefined ? {} : { accept }) }),
      });
      const body = (await res.json().catch(() => ({}))) as Partial<UndoResponse & { error: string; reason: string; stateID: number; refused: true; pending: true }>;
      if (res.status === 200 && typeof body.stateID === 'number') say(t('takeBack.done'), body.stateID);
      else if (res.status === 200 && body.refused) say(t('takeBack.youRefused'));
      // 202: the request waits for the opponent, as the status now says on this board too.
      else if (res.status === 202) setNote(null);
      else if (res.status === 409 && body.reason) say(t(`takeBack.why.${body.reason}`));
      else if (res.status === 429) say(t('takeBack.tooMany', { seconds: Number(res.headers.get('Retry-After')) || 1 }));
      else say(t('takeBack.failed', { reason: body.error ?? `HTTP ${res.status}` }));
    } catch (e) {
      say(t('takeBack.failed', { reason: e instanceof Error ? e.message : String(e) }));
    } finally {
      setBusy(false);
    }
  };
  const take = () => {
    if (!current) return;
    if (why === null) void send();
    else setNote({ text: t(`takeBack.why.${why}`), stateID: tb.stateID });
  };
  useShortcuts(take);

  const shown = note && note.stateID === tb.stateID ? note.text : null;
  const asking = request && !request.refused ? request.by : null;
  return (
    <section className="take-back" aria-label={t('takeBack.title')} data-undo-bar>
      {asking === them && (
        <p className="take-back-request" role="alert" data-undo-request>
          {t('takeBack.request', { role: roleName(t, them) })}{' '}
          <button type="button" className="primary" data-undo-accept disabled={busy} onClick={() => void send(true)}>
            {t('takeBack.accept')}
          </button>{' '}
          <button type="button" data-undo-refuse disabled={busy} onClick={() => void send(false)}>
            {t('takeBack.refuse')}
          </button>
        </p>
      )}
      {asking === me && (
        <p role="status" data-undo-waiting>
          {t('takeBack.waiting')}
        </p>
      )}
      {request?.refused && request.by === me && (
        <p role="status" data-undo-refused>
          {t('takeBack.refusedByOpponent')}
        </p>
      )}
      <button
        type="button"
        data-undo
        data-undo-why={why ?? ''}
        data-undo-current={current || undefined}
        aria-disabled={why !== null || busy || !current}
        title={why === null ? t('takeBack.shortcut') : t(`takeBack.why.${why}`)}
        aria-keyshortcuts="Control+Z Meta+Z"
        onClick={take}
      >
        ↶ {t('takeBack.button')}
      </button>
      {shown && (
        <span className="hint" role="status" data-undo-note>
          {shown}
        </span>
      )}
    </section>
  );
}
