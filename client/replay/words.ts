/** A decision of a finished game in the players' words, as the board's prompt words it (the caption, the analysis). */
import type { TFunction } from 'i18next';
import { CARDS, type MoveChoice, type WatergateState } from '../../game';
import { cardName, moveText } from '../i18n/words';
import { revealed } from './Revealed';

/** `G`: the state the decision was made in. A card played is named before what it did. */
export function decisionText(t: TFunction, G: WatergateState, m: { move: string; args: unknown[] }): string {
  if (m.move === 'timeout') return t('replay.timeout');
  const what = moveText(t, revealed(G), m as MoveChoice) || m.move;
  const card = m.move === 'play' ? (m.args[0] as { card?: string } | undefined)?.card : undefined;
  return card && CARDS[card] ? `${cardName(t, card)} — ${what}` : what;
}
