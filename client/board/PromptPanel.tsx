/**
 * Says who must act and why, and offers the acting player exactly the engine's legal moves
 * (client/legal.ts): the card's value targets and action, the ask's answer, reactions or pass,
 * the choices of a multi-step effect, and pinning.
 */
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CARDS, type MoveChoice, type PlayArgs, type PlayerID, type WatergateView } from '../../game';
import { cardName, colourName, moveText, roleName, stepText, tokenName } from '../i18n/words';
import { Card } from './Card';
import { moveKey } from '../legal';

interface Props {
  view: WatergateView;
  me: PlayerID | null;
  legal: MoveChoice[];
  selected: string | null;
  pinToken: string | null;
  setPinToken: (id: string) => void;
  act: (m: MoveChoice) => void;
  /** A suggested move (a hint, the tutorial's step): its option is marked. */
  suggestion?: MoveChoice | null;
  /** The tutorial offers only its move: another use of the card is not "impossible", just not asked for. */
  guided?: boolean;
  /** Online without the server: nothing is offered, and the prompt says the move waits. */
  offline?: boolean;
  /** The tutorial: the player picked another card than the one the step asks for. */
  wrongPick?: { picked: string; wanted: string } | null;
}

/** The suggested move's key (client/legal.ts moveKey), for the options to compare themselves with. */
const Suggested = createContext<string | null>(null);

/** The sentence that says who decides and why. */
function promptText(t: ReturnType<typeof useTranslation>['t'], view: WatergateView, me: PlayerID | null): string {
  const pr = view.prompt;
  if (!pr) return '';
  const mine = pr.player === me;
  const role = roleName(t, pr.player);
  const other = (key: string, extra: Record<string, unknown> = {}) => (me === null ? t('prompt.who', { role }) : t(key, { role, ...extra }));
  switch (pr.kind) {
    case 'play':
      return mine ? t('prompt.play') : other('prompt.playOther');
    case 'playDrawn':
      return mine ? t('prompt.playDrawn') : other('prompt.playDrawnOther');
    case 'answer':
      return mine
        ? t('prompt.answer', { colour: colourName(t, pr.colour), card: cardName(t, pr.card), value: CARDS[pr.card].value })
        : other('prompt.answerOther', { colour: colourName(t, pr.colour) });
    case 'target':
      return mine
        ? pr.colour
          ? t('prompt.target', { colour: colourName(t, pr.colour), card: cardName(t, pr.card) })
          : t('prompt.targetAny', { card: cardName(t, pr.card) })
        : other('prompt.targetOther', { card: cardName(t, pr.card) });
    case 'react': {
      const top = view.chain[view.chain.length - 1];
      return mine
        ? t(`prompt.react.${pr.trigger}`, { card: top ? cardName(t, top.card) : '', token: top?.token ? tokenName(t, top.token) : '' })
        : other('prompt.reactOther');
    }
    case 'choose': {
      const source = pr.card ? cardName(t, pr.card) : t('prompt.ability');
      return mine ? `${t('prompt.choose', { source })} ${stepText(t, pr.step, pr.player)}` : other('prompt.chooseOther', { source });
    }
    case 'pin':
      return mine ? t(view.phase === 'assessment' ? 'prompt.pinAssessment' : 'prompt.pin') : other('prompt.pinOther');
  }
}

function kindOf(m: MoveChoice): string {
  if (m.move === 'play') {
    const a = m.args[0] as PlayArgs;
    return a.as === 'action' ? 'action' : (a.target?.kind ?? 'value');
  }
  if (m.move === 'react') return m.args[0] === null ? 'pass' : 'reaction';
  if (m.move === 'target') return (m.args[0] as { kind: string }).kind;
  return m.move;
}

function Option({ m, label, act }: { m: MoveChoice; label: string; act: (m: MoveChoice) => void }): ReactNode {
  const { t } = useTranslation();
  const suggested = useContext(Suggested) === moveKey(m);
  return (
    <button
      type="button"
      className={`option option-${kindOf(m)}${suggested ? ' suggested' : ''}`}
      data-move={m.move}
      data-kind={kindOf(m)}
      data-space={m.move === 'pin' ? (m.args[0] as { space: string }).space : undefined}
      data-suggested={suggested || undefined}
      onClick={() => act(m)}
    >
      {label}
      {suggested && <span className="sr-only"> ({t('hint.suggested')})</span>}
    </button>
  );
}

export function PromptPanel({ view, me, legal, selected, pinToken, setPinToken, act, suggestion, guided, offline, wrongPick }: Props): ReactNode {
  const { t } = useTranslation();
  const box = useRef<HTMLElement>(null);
  const pr = view.prompt;
  const mine = !!pr && pr.player === me;
  // When a decision becomes ours, keyboard users start from the prompt (Tab reaches its options). A long
  // prompt scrolls inside its own box on wide screens: each decision starts at its question.
  const decision = mine ? `${pr!.kind}:${view.log.length}` : null;
  useEffect(() => {
    if (box.current) box.current.scrollTop = 0;
    const active = document.activeElement;
    if (decision && (!active || active === document.body)) box.current?.focus({ preventScroll: true });
  }, [decision]);
  if (!pr) return null;
  const text = promptText(t, view, me);
  let options: ReactNode = null;
  if (mine && offline) {
    options = (
      <p className="hint offline-wait" data-offline-wait>
        {t('board.offlineWait')}
      </p>
    );
  } else if (mine && (pr.kind === 'play' || pr.kind === 'playDrawn')) {
    const card = pr.kind === 'playDrawn' ? view.drawnCard?.card ?? null : selected;
    if (!card && wrongPick)
      options = (
        <p className="hint wrong-pick" role="alert" data-wrong-pick={wrongPick.picked}>
          {t('prompt.guidedCard', { picked: cardName(t, wrongPick.picked), card: cardName(t, wrongPick.wanted) })}
        </p>
      );
    else if (!card) options = <p className="hint">{t('prompt.chooseCard')}</p>;
    else {
      const forCard = legal.filter((m) => (m.args[0] as PlayArgs).card === card);
      const values = forCard.filter((m) => (m.args[0] as PlayArgs).as === 'value');
      const action = forCard.find((m) => (m.args[0] as PlayArgs).as === 'action');
      options = (
        <>
          {pr.kind === 'playDrawn' && (
            <div className="drawn">
              <h3>{t('board.drawnCard')}</h3>
              <Card id={card} />
            </div>
          )}
          <div className="option-group" role="group" aria-label={t('card.useValue', { value: CARDS[card].value })}>
            <h3>
              {cardName(t, card)} — {t('card.useValue', { value: CARDS[card].value })}
            </h3>
            {values.map((m, i) => (
              <Option key={i} m={m} label={moveText(t, view, m)} act={act} />
            ))}
          </div>
          <div className="option-group">
            {action ? <Option m={action} label={t('card.useAction')} act={act} /> : !guided && <p className="hint">{t('card.actionBlocked')}</p>}
          </div>
        </>
      );
    }
  } else if (mine && pr.kind === 'pin') {
    const token = pinToken && pr.tokens.includes(pinToken) ? pinToken : pr.tokens[0];
    const forToken = legal.filter((m) => (m.args[0] as { token: string }).token === token);
    options = (
      <>
        {pr.tokens.length > 1 && (
          <div className="option-group" role="group" aria-label={t('prompt.pickToken')}>
            <h3>{t('prompt.pickToken')}</h3>
            {pr.tokens.map((id) => (
              <button
                key={id}
                type="button"
                className={`option${suggestion?.move === 'pin' && (suggestion.args[0] as { token: string }).token === id ? ' suggested' : ''}`}
                aria-pressed={id === token}
                data-pin-token={id}
                onClick={() => setPinToken(id)}
              >
                {tokenName(t, id)}
              </button>
            ))}
          </div>
        )}
        <div className="option-group">
          <h3>
            {tokenName(t, token)} — {t('prompt.pickSpace')}
          </h3>
          {forToken.map((m, i) => (
            <Option key={i} m={m} label={moveText(t, view, m)} act={act} />
          ))}
        </div>
      </>
    );
  } else if (mine) {
    // A reaction answers the opponent's card: its whole text (public once played) is shown with the choices.
    // It is the opponent's latest card, so it is marked as their last move (the last-move panel leaves it out).
    const reactTo = pr.kind === 'react' ? view.chain[view.chain.length - 1]?.card : undefined;
    options = (
      <>
        {reactTo && (
          <div className="react-to last-card" data-react-to={reactTo} data-last-move="card">
            <h3>{t('info.reactTo')}</h3>
            <Card id={reactTo} />
          </div>
        )}
        <div className="option-group" role="group" aria-label={t('prompt.options')}>
          {legal.map((m, i) => (
            <Option key={i} m={m} label={moveText(t, view, m)} act={act} />
          ))}
        </div>
      </>
    );
  }
  return (
    <section ref={box} tabIndex={-1} className={`prompt${mine ? ' mine' : ''}`} aria-live="polite" data-prompt={pr.kind} data-player={pr.player}>
      <p className="prompt-who">
        <span className={`role-chip role-${pr.player}`}>{roleName(t, pr.player)}</span>
        {mine && <strong className="your-move">{t('board.yourTurn')}</strong>}
      </p>
      <p className="prompt-text">{text}</p>
      {view.peek && view.peek.tokens && (
        <p className="hint">
          {t('board.peek')}: {view.peek.tokens.map((id) => tokenName(t, id)).join(', ')}
        </p>
      )}
      <Suggested.Provider value={suggestion ? moveKey(suggestion) : null}>{options}</Suggested.Provider>
    </section>
  );
}
