/**
 * A player card: value with its colour (or joker), name, type, the action text built from its steps,
 * the historical note, and where each part comes from (provenance R/S/H/D).
 */
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CARDS, type ProvenanceCode } from '../../game';
import { cardActionLines, cardName, colourName, historyNote, roleName, type T } from '../i18n/words';
import { COLOUR_HEX } from './tokens';

const JOKER = `conic-gradient(${COLOUR_HEX.blue} 0 33%, ${COLOUR_HEX.yellow} 0 66%, ${COLOUR_HEX.green} 0)`;

export function Provenance({ id }: { id: string }): ReactNode {
  const { t } = useTranslation();
  const p = CARDS[id].provenance;
  const parts = (['name', 'type', 'valueColour', 'effect'] as const).map((k) => [k, p[k]] as [string, ProvenanceCode]);
  // In the player's words only: the data's notes are for the project's developers (docs/COMPONENTS.md).
  const title = parts.map(([k, code]) => `${t(`provenance.${k}`)}: ${t(`provenance.${code}`)}`).join(' · ');
  return (
    <span className="provenance" title={title}>
      <span className="sr-only">{t('provenance.title')}: </span>
      {parts.map(([k, code]) => (
        <abbr key={k} className={`prov prov-${code.replace('+', '')}`} title={`${t(`provenance.${k}`)}: ${t(`provenance.${code}`)}`}>
          {code}
        </abbr>
      ))}
    </span>
  );
}

interface Props {
  id: string;
  selected?: boolean;
  onSelect?: () => void;
  /** Shown greyed out: the card cannot be played now. */
  muted?: boolean;
  /** The card of the suggested move (a hint, the tutorial), marked. */
  suggested?: boolean;
}

/** The card's face: its words change only with the language. */
function CardBody({ id, t }: { id: string; t: T }): ReactNode {
  const c = CARDS[id];
  const colour = c.colour === 'joker' ? t('colour.joker') : colourName(t, c.colour);
  return (
    <>
      <span className="card-head">
        {/* The swatch-* class adds the colour's pattern (styles.css), as on the tokens: not hue alone. */}
        <span className={`card-value swatch-${c.colour}`} style={c.colour === 'joker' ? { background: JOKER } : { backgroundColor: COLOUR_HEX[c.colour] }} title={colour}>
          {c.value}
        </span>
        <span className="card-title">
          <strong className="card-name">{cardName(t, id)}</strong>
          <span className="card-type">
            {t(`cardType.${c.type}`)} · {roleName(t, c.side)} · {colour}
          </span>
        </span>
      </span>
      <span className="card-action">
        {cardActionLines(t, c).map((line, i) => (
          <span key={i} className="card-line">
            {line}
          </span>
        ))}
        {c.after === 'REMOVE' && c.steps.length > 0 && !c.recycle && <span className="card-line card-after">{t('card.afterRemove')}</span>}
      </span>
      <span className="card-history">{historyNote(t, id)}</span>
      <Provenance id={id} />
    </>
  );
}

export function Card({ id, selected, onSelect, muted, suggested }: Props): ReactNode {
  const { t, i18n } = useTranslation();
  const c = CARDS[id];
  const name = cardName(t, id);
  // Kept between renders: the board re-renders with every state, and a hand or a pile has many cards.
  const body = useMemo(() => <CardBody id={id} t={t} />, [id, t, i18n.language]);
  const cls = `card side-${c.side}${selected ? ' selected' : ''}${muted ? ' muted' : ''}${suggested ? ' suggested' : ''}`;
  if (!onSelect)
    return (
      <article className={cls} data-card={id} aria-label={name}>
        {body}
      </article>
    );
  return (
    <button
      type="button"
      className={cls}
      data-card={id}
      data-suggested={suggested || undefined}
      aria-pressed={!!selected}
      onClick={onSelect}
    >
      {/* Named by its visible text (what a speech-input user says), the hint's mark added unseen. */}
      {body}
      {suggested && <span className="sr-only"> ({t('hint.suggested')})</span>}
    </button>
  );
}
