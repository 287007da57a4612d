/**
 * One state of a finished game with nothing hidden: the board components the players use, given a view
 * in which every secret is shown (both hands, the face-down track tokens by colour, a private draw), and
 * beside them what no board ever shows — both decks in order and the bag.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { hide, type PlayerID, type WatergateState, type WatergateView } from '../../game';
import { Card } from '../board/Card';
import { EvidenceBoard } from '../board/EvidenceBoard';
import { BoardZoom } from '../board/phone';
import { GameOver, GameRecord, InitiativeCard, MomentumCards, Pile, Piles, StatusBar } from '../board/Info';
import { Track } from '../board/Track';
import { roleName, tokenName } from '../i18n/words';

const NO_TARGETS = new Map<string, () => void>();
const SEATS: PlayerID[] = ['0', '1'];

/** Everything shown: Nixon's view (he alone sees face-down tokens), then both hands and every private draw. */
export function revealed(G: WatergateState): WatergateView {
  return {
    ...hide(G, '1'),
    viewer: null,
    hands: { '0': [...G.hands['0']], '1': [...G.hands['1']] },
    prompt: G.prompt,
    tasks: G.tasks,
    peek: G.peek && { player: G.peek.player, tokens: [...G.peek.tokens], count: G.peek.tokens.length },
    drawnCard: G.drawnCard && { ...G.drawnCard },
  };
}

export function Revealed({ G, names }: { G: WatergateState; names: Record<PlayerID, string | null> }): ReactNode {
  const { t } = useTranslation();
  const view = revealed(G);
  const who = (p: PlayerID) => (names[p] ? `${roleName(t, p)} (${names[p]})` : roleName(t, p));
  return (
    <div className="game replay-state viewer-spectator" data-round={view.round} data-phase={view.phase}>
      <StatusBar view={view} me={null} />
      <div className="game-main">
        <div className="table">
          <BoardZoom>
            <EvidenceBoard view={view} targets={NO_TARGETS} />
          </BoardZoom>
          <Track view={view} viewer={null} targets={NO_TARGETS} />
        </div>
        <div className="side">
          {SEATS.map((p) => (
            <section key={p} className={`hand role-${p}`} aria-label={t('replay.hand', { who: who(p) })} data-hand={p}>
              <h2>
                {t('replay.hand', { who: who(p) })} <span className="count">({G.hands[p].length})</span>
              </h2>
              <div className="hand-cards">
                {G.hands[p].map((id) => (
                  <Card key={id} id={id} />
                ))}
              </div>
              <Pile title={t('replay.deck')} cards={G.decks[p]} />
            </section>
          ))}
          {G.drawnCard && <p data-drawn>{t('replay.drawnCard', { who: roleName(t, G.drawnCard.player) })}</p>}
          {G.drawnCard && <Card id={G.drawnCard.card} />}
          {G.peek && <p data-peek>{t('replay.peek', { who: roleName(t, G.peek.player), tokens: G.peek.tokens.map((id) => tokenName(t, id)).join(', ') })}</p>}
          <p className="bag-contents" data-bag>
            {t('replay.bag', { count: G.bag.length })}: {G.bag.map((id) => tokenName(t, id)).join(', ') || t('board.none')}
          </p>
          <InitiativeCard view={view} />
          <MomentumCards view={view} />
          <Piles view={view} />
          <GameRecord view={view} />
        </div>
      </div>
      <GameOver view={view} me={null} />
    </div>
  );
}
