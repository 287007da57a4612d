/**
 * The open information around the board: round and phase, hands and connection of both players,
 * the initiative card, both momentum cards (with the Editor's abilities), the card piles (browsable),
 * the bag and supply, and the game record in words.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isOver, MOMENTUM_CARDS, type PlayerID, type WatergateView } from '../../game';
import { botLevelOf } from '../../protocol/index';
import { abilityText, cardName, informantName, logText, roleName } from '../i18n/words';
import { Card } from './Card';
import { MomentumDisc } from './tokens';
import { Explain } from './Explain';

export interface Seat {
  id: number;
  name?: string;
  isConnected?: boolean;
  data?: unknown;
  /** A signed-in player: the username and the side rating they sat down with. */
  account?: { username: string; rating: number; provisional?: boolean };
}

/** The server's bot is marked in its seat's data (`data.bot = level`): named in the player's language. */
function seatName(t: ReturnType<typeof useTranslation>['t'], seat: Seat): string {
  const level = botLevelOf(seat);
  if (level) return t('board.computer', { level: t(`lobby.levels.${level}`) });
  return seat.account ? `${seat.name ?? ''} · ${Math.round(seat.account.rating)}${seat.account.provisional ? '?' : ''}` : (seat.name ?? '');
}

export function StatusBar({ view, me, seats, offline }: { view: WatergateView; me: PlayerID | null; seats?: Seat[]; offline?: boolean }): ReactNode {
  const { t } = useTranslation();
  const players: PlayerID[] = me === '1' ? ['1', '0'] : ['0', '1'];
  const over = isOver(view);
  return (
    <div className="status">
      <span className="round">
        {t('board.round', { round: view.round })} · {t(`board.phase.${view.phase}`)}
      </span>
      <span className="me">{me ? t(`board.youAre${me}`) : t('board.spectating')}</span>
      {players.map((p) => {
        const seat = seats?.find((s) => String(s.id) === p);
        // Offline we cannot know whether the other side is there: the last news would be stale. An empty
        // seat waits for a player only while the game can start: once it is over, its player has left the
        // table (the Lobby's leave empties a seat, server/lobby/routes.ts), and nobody is awaited.
        const status = seat ? (offline ? 'unknown' : seat.name ? (seat.isConnected ? 'connected' : 'disconnected') : over ? 'left' : 'waiting') : null;
        return (
          <span key={p} className={`player-chip role-${p}`} data-seat={p}>
            <strong>{roleName(t, p)}</strong>
            {seat?.name ? ` (${seatName(t, seat)})` : ''} · {t('board.inHand', { count: view.handSizes[p] })}
            {status && p !== me && <span className={`conn ${status}`}> · {t(`board.${status}`)}</span>}
          </span>
        );
      })}
      <span>{t('board.bag', { count: view.bagSize })}</span>
      <span>{t('board.supply', { count: view.momentum.supply })}</span>
    </div>
  );
}

export function InitiativeCard({ view }: { view: WatergateView }): ReactNode {
  const { t } = useTranslation();
  const holder = view.initiative;
  const other: PlayerID = holder === '0' ? '1' : '0';
  return (
    <div className="initiative-card" role="group" aria-label={t('board.initiativeCard', { role: roleName(t, holder), other: roleName(t, other) })}>
      <Explain className={`init-face role-${holder}`} text={t('explain.initiativeHolder', { role: roleName(t, holder) })}>
        5 → {roleName(t, holder)}
      </Explain>
      <Explain className={`init-face small role-${other}`} text={t('explain.initiativeOther', { role: roleName(t, other) })}>
        4 → {roleName(t, other)}
      </Explain>
    </div>
  );
}

export function MomentumCards({ view }: { view: WatergateView }): ReactNode {
  const { t } = useTranslation();
  return (
    <div className="momentum-cards">
      {(['0', '1'] as PlayerID[]).map((p) => {
        const max = MOMENTUM_CARDS[p].spaces;
        const have = view.momentum.cards[p];
        return (
          <section key={p} className={`momentum-card role-${p}`} aria-label={`${t('board.momentumCard', { role: roleName(t, p) })}: ${t('board.momentumSlots', { count: have, max })}`}>
            <h3>
              {t('board.momentumCard', { role: roleName(t, p) })} <span className="count">{t('board.momentumSlots', { count: have, max })}</span>
            </h3>
            <ol className="slots">
              {Array.from({ length: max }, (_, i) => (
                <li key={i} className={i < have ? 'filled' : ''}>
                  <Explain className="slot" text={t(i < have ? 'explain.slotFilled' : 'explain.slotEmpty', { n: i + 1, max, role: roleName(t, p) })}>
                    <svg viewBox="0 0 24 24" width="22" height="22">
                      {i < have ? <MomentumDisc x={12} y={12} r={10} /> : <circle cx={12} cy={12} r={10} fill="none" stroke="#999" strokeDasharray="3 2" />}
                    </svg>
                  </Explain>
                  {p === '0' ? <span className="ability">{abilityText(t, i + 1)}</span> : i === max - 1 ? <span className="ability">{t('board.nixonWinsAt')}</span> : null}
                </li>
              ))}
            </ol>
          </section>
        );
      })}
    </div>
  );
}

export function Pile({ title, cards }: { title: string; cards: string[] }): ReactNode {
  const { t } = useTranslation();
  return (
    <details className="pile">
      <summary>
        {title}: {cards.length}
      </summary>
      {cards.length === 0 ? (
        <p className="hint">{t('board.none')}</p>
      ) : (
        <div className="pile-cards">
          {cards.map((id) => (
            <Card key={id} id={id} />
          ))}
        </div>
      )}
    </details>
  );
}

export function Piles({ view }: { view: WatergateView }): ReactNode {
  const { t } = useTranslation();
  const inPlay = [...new Set([...view.chain.map((c) => c.card), ...view.resolving])];
  return (
    <section className="piles" aria-label={t('board.piles')}>
      {inPlay.length > 0 && (
        <p className="in-play">
          {t('board.inPlay')}: {inPlay.map((id) => cardName(t, id)).join(', ')}
        </p>
      )}
      {(['0', '1'] as PlayerID[]).map((p) => (
        <div key={p} className={`pile-row role-${p}`}>
          <h3>{roleName(t, p)}</h3>
          <span className="deck">
            {t('board.deck')}: {view.deckSizes[p]}
          </span>
          <Pile title={t('board.discard')} cards={view.discards[p]} />
          <Pile title={t('board.removed')} cards={view.removed[p]} />
        </div>
      ))}
    </section>
  );
}

/** Round and assessment lines head sections and take no number; the others count on without gaps. */
const HEADERS = new Set(['round', 'assessment']);
function numbered<E extends { key: string }>(log: E[]): [E, number | null][] {
  let n = 0;
  return log.map((e) => [e, HEADERS.has(e.key) ? null : ++n]);
}

/**
 * Each line's element, kept while its words stay the same: a record of a few hundred lines is not put into
 * words again on every move (the board re-renders with each state, the Debug panel's runs many times a second).
 */
function useLines(log: WatergateView['log'], t: ReturnType<typeof useTranslation>['t'], lang: string): ReactNode[] {
  const kept = useRef<{ lang: string; lines: { sig: string; el: ReactNode }[] }>({ lang, lines: [] });
  if (kept.current.lang !== lang) kept.current = { lang, lines: [] };
  const lines = kept.current.lines;
  lines.length = Math.min(lines.length, log.length);
  return numbered(log).map(([e, n], i) => {
    const sig = `${n}|${e.key}|${e.player}|${JSON.stringify(e.params)}`;
    if (lines[i]?.sig !== sig)
      lines[i] = {
        sig,
        el: (
          <li key={i} value={n ?? undefined} data-n={n ?? undefined} className={`rec rec-${e.key.replace(/\./g, '-')} ${e.player ? `role-${e.player}` : ''}`}>
            {logText(t, e)}
          </li>
        ),
      };
    return lines[i].el;
  });
}

export function GameRecord({ view }: { view: WatergateView }): ReactNode {
  const { t, i18n } = useTranslation();
  const shown = useLines(view.log, t, i18n.language);
  const list = useRef<HTMLOListElement>(null);
  const [open, setOpen] = useState(true);
  useEffect(() => {
    // To the end, in the next frame: at once it would lay the whole page out inside the move's own task.
    const frame = requestAnimationFrame(() => {
      if (list.current) list.current.scrollTop = list.current.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [view.log.length, open]);
  // The box changes height with the room it is given (the wide layout's column): the newest line stays in
  // sight, unless the player scrolled back to read older ones.
  useEffect(() => {
    const el = list.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let atEnd = true;
    const scrolled = () => void (atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 4);
    const ro = new ResizeObserver(() => {
      if (atEnd) el.scrollTop = el.scrollHeight;
    });
    el.addEventListener('scroll', scrolled, { passive: true });
    ro.observe(el);
    return () => {
      ro.disconnect();
      el.removeEventListener('scroll', scrolled);
    };
  }, [open]);
  return (
    <section className="record" aria-label={t('board.record')}>
      <h2>
        {t('board.record')}{' '}
        <button type="button" className="link" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? t('board.hide') : t('board.show')}
        </button>
      </h2>
      {open && (
        <ol ref={list} className="record-lines" tabIndex={0}>
          {shown}
        </ol>
      )}
    </section>
  );
}

export function GameOver({ view, me, actions }: { view: WatergateView; me: PlayerID | null; actions?: ReactNode }): ReactNode {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  if (!isOver(view)) return null;
  if (!open)
    return (
      <button type="button" className="gameover-reopen primary" onClick={() => setOpen(true)}>
        {t('gameover.title')}
      </button>
    );
  const winner = view.winner;
  const headline = winner === null ? t('gameover.aborted') : me === null ? t(winner === '0' ? 'gameover.editorWins' : 'gameover.nixonWins') : t(winner === me ? 'gameover.youWin' : 'gameover.youLose');
  const why =
    winner === null
      ? t('gameover.abortedWhy', { side: t(`record.subject.${view.aborted ?? '0'}`) })
      : view.endReason === 'connected'
        ? t('gameover.connected', { names: view.connected.map((i) => informantName(t, i)).join(', ') })
        : t(`gameover.${view.endReason}`, { loser: roleName(t, winner === '0' ? '1' : '0') });
  return (
    <section className="gameover" role="alertdialog" aria-labelledby="gameover-title" data-winner={winner ?? 'none'}>
      <h2 id="gameover-title">{t('gameover.title')}</h2>
      <p className="headline">{headline}</p>
      {me !== null && winner !== null && <p>{t(winner === '0' ? 'gameover.editorWins' : 'gameover.nixonWins')}</p>}
      <p className="why">{why}</p>
      {actions}
      <button type="button" className="link gameover-close" onClick={() => setOpen(false)}>
        {t('app.close')}
      </button>
    </section>
  );
}
