/**
 * The card tracker (its own chunk, loaded when opened): for each side, which of its 20 cards have been seen
 * and which not yet. Public information only: the discard and removed piles, the cards in play (the chain,
 * the cards resolving, a drawn card the view shows) and, for the viewer's own side, the viewer's hand.
 * The opponent's hand and both decks are "not seen yet", whatever they hold.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CARDS, DECKS, type PlayerID, type WatergateView } from '../../game';
import { cardName, roleName } from '../i18n/words';

type Status = 'discard' | 'removed' | 'inPlay' | 'hand';

function seenCards(view: WatergateView, me: PlayerID | null): Map<string, Status> {
  const seen = new Map<string, Status>();
  for (const p of ['0', '1'] as PlayerID[]) {
    for (const id of view.discards[p]) seen.set(id, 'discard');
    for (const id of view.removed[p]) seen.set(id, 'removed');
  }
  const inPlay = [...view.chain.map((e) => e.card), ...view.resolving, view.drawnCard?.card ?? null];
  for (const id of inPlay) if (id && CARDS[id]) seen.set(id, 'inPlay');
  if (me) for (const id of view.hands[me] ?? []) seen.set(id, 'hand');
  return seen;
}

export default function CardTracker({ view, me }: { view: WatergateView; me: PlayerID | null }): ReactNode {
  const { t } = useTranslation();
  const seen = seenCards(view, me);
  return (
    <div className="tracker" data-tracker>
      <p className="hint">{t('info.trackerHint')}</p>
      {(['0', '1'] as PlayerID[]).map((p) => {
        const cards = DECKS[p];
        const known = cards.filter((id) => seen.has(id));
        const unknown = cards.filter((id) => !seen.has(id));
        return (
          <section key={p} className={`tracker-side role-${p}`} data-tracker-side={p}>
            <h3>{t('info.trackerSide', { role: roleName(t, p), seen: known.length, total: cards.length })}</h3>
            <h4>{t('info.seen')}</h4>
            <ul className="tracker-seen">
              {known.map((id) => (
                <li key={id} data-card={id} data-card-status={seen.get(id)}>
                  {cardName(t, id)} <span className="hint">({t(`info.status.${seen.get(id)}`)})</span>
                </li>
              ))}
            </ul>
            <h4>{t('info.unseen')}</h4>
            <ul className="tracker-unseen">
              {unknown.map((id) => (
                <li key={id} data-card={id}>
                  {cardName(t, id)}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
