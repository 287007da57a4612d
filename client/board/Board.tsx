/**
 * The board players see: everything comes from their player view (G is a WatergateView on the client),
 * and the only choices offered are the engine's legal moves for that view (client/legal.ts).
 */
import { lazy, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { BoardProps } from 'boardgame.io/react';
import { useTranslation } from 'react-i18next';
import { isOver, type MoveChoice, type PlayArgs, type PlayerID, type ValueTarget, type WatergateState, type WatergateView } from '../../game';
import { botLevelOf, isSeat, openSeat } from '../../protocol/index';
import { roleName } from '../i18n/words';
import { legalMovesFromView, moveKey } from '../legal';
import { Card } from './Card';
import { EvidenceBoard } from './EvidenceBoard';
import { GameOver, GameRecord, InitiativeCard, MomentumCards, Piles, StatusBar } from './Info';
import { PromptPanel } from './PromptPanel';
import { ShellContext } from './shell';
import { Track } from './Track';
import { BoardInfo, useShowSources } from './BoardInfo';
import { lastMove } from './lastMove';
import { LastMovePanel } from './LastMovePanel';
import { BoardZoom, Dock, useBoardInSight, useLayout, wideNow } from './phone';
import { ChatMark } from './ChatMark';
import { WideTable } from './WideSide';
import { PaceSelect } from './PaceSelect';
import type { ChatLine } from './Chat';
import type { WatchersRoom } from './Watchers';
import { chime } from '../sound';
import { Optional } from '../Optional';

// The chat (online only) loads on demand: the board is drawn without it; so does the spectators' room.
const Chat = lazy(() => import('./Chat'));
const Watchers = lazy(() => import('./Watchers'));
// So does "What would the computer do?" (the bot itself loads only when asked: Hint.tsx).
const Hint = lazy(() => import('./Hint'));

const targetKey = (t: ValueTarget): string | null =>
  t.kind === 'initiative' || t.kind === 'momentum' ? t.kind : t.kind === 'evidence' ? t.token : null;

/** "Resign", asked twice: the first click says what it does. */
function Resign({ me, resign }: { me: PlayerID; resign: () => void }): ReactNode {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <p className="resign">
        <button type="button" className="link" data-resign onClick={() => setAsking(true)}>
          {t('resign.button')}
        </button>
      </p>
    );
  return (
    <div className="resign confirm" role="alertdialog" aria-labelledby="resign-question">
      <p id="resign-question">{t('resign.confirm', { other: roleName(t, me === '0' ? '1' : '0') })}</p>
      <p className="actions">
        <button type="button" className="danger" data-resign-confirm onClick={resign}>
          {t('resign.yes')}
        </button>
        <button type="button" autoFocus onClick={() => setAsking(false)}>
          {t('resign.no')}
        </button>
      </p>
    </div>
  );
}

export function WatergateBoard(props: BoardProps<WatergateState>): ReactNode {
  const { t } = useTranslation();
  const shell = useContext(ShellContext);
  const view = props.G as unknown as WatergateView;
  const me = isSeat(props.playerID) ? props.playerID : null;
  // Online without the server: nothing can be played until it is back (no move is sent into the void).
  const offline = shell.online === true && props.isConnected === false;
  // Online, play starts when both seats are taken (the server refuses moves before): say whom we wait for.
  // A finished game waits for nobody, even with a seat left since (a rated game lost by leaving it).
  const waitingFor = shell.online && props.matchData && !isOver(view) ? openSeat(props.matchData) : null;
  const offered = useMemo(() => (offline || waitingFor ? [] : legalMovesFromView(view, me)), [view, me, offline, waitingFor]);
  // The tutorial offers only the move it asks for (shell.guide); a hint only marks one of them.
  const guide = shell.guide;
  const legal = useMemo(() => (guide ? offered.filter((m) => guide.move !== null && moveKey(m) === moveKey(guide.move)) : offered), [offered, guide]);
  const [selected, setSelected] = useState<string | null>(null);
  const [pinToken, setPinToken] = useState<string | null>(null);
  const [handOpen, setHandOpen] = useState(false); // the hand's drawer on a phone
  const pr = view.prompt;
  // A hint belongs to the decision it was asked for: a later decision drops it.
  const decision = `${view.log.length}:${pr?.kind}:${pr?.player}`;
  const [hint, setHint] = useState<{ at: string; move: MoveChoice } | null>(null);
  const hinted = hint?.at === decision ? hint.move : null;
  const suggestion = guide ? guide.move : hinted;
  const [sources, setSources] = useShowSources();
  // The opponent's last action (public record only), marked on the board and told beside it.
  const last = useMemo(() => lastMove(view.log, me), [view.log, me]);

  useBoardInSight(shell.online === true && me !== null && !waitingFor && !isOver(view));
  // The tab's title says when the player owes a decision (online: they may be in another tab).
  const owing = pr !== null && pr.player === me && !isOver(view) && !waitingFor;
  useEffect(() => {
    if (!shell.online) return;
    document.title = t(owing ? 'app.yourMoveTitle' : 'app.title');
    return () => void (document.title = t('app.title'));
  }, [owing, shell.online, t]);
  // And, if the player turned them on, a chime and the page's notice when a decision becomes theirs: when
  // they come to owe one, and when they owe one still but more than their own move came in between (the
  // opponent's answer can arrive in the same frame as the echo of the player's own move, so the page never
  // shows them not owing). Their own next decision (one state on) is not news.
  const owedAt = useRef<number | null>(null);
  useEffect(() => {
    const before = owedAt.current;
    owedAt.current = owing ? props._stateID : null;
    if (!shell.online || !owing || (before !== null && props._stateID <= before + 1)) return;
    chime();
    shell.yourTurn?.();
  }, [owing, props._stateID, shell.online]);

  // A card to choose: the hand's drawer (phone, tablet) opens by itself, so the cards are in sight at once;
  // a decision on the board closes it, so the board is.
  const cardDecision = owing && !offline && pr?.kind === 'play';
  useEffect(() => {
    if (!wideNow()) setHandOpen(cardDecision);
  }, [decision, cardDecision]);

  // A new decision clears the old selection.
  useEffect(() => {
    setSelected(null);
    setPinToken(null);
  }, [view.log.length, pr?.kind]);

  // One decision per state: quick repeated clicks would send moves the server can only refuse as stale
  // (the first one already answered the prompt). A refused move leaves the state as it was: after a
  // moment the board takes clicks again.
  const sent = useRef<{ G: unknown; at: number } | null>(null);
  const act = (m: MoveChoice) => {
    if (sent.current?.G === props.G && Date.now() - sent.current.at < 2000) return;
    sent.current = { G: props.G, at: Date.now() };
    const move = props.moves[m.move];
    if (move) move(m.args[0]);
    setSelected(null);
    setPinToken(null);
  };

  // Board elements that are legal targets now, and what clicking them does.
  const trackTargets = new Map<string, () => void>();
  const spaceTargets = new Map<string, () => void>();
  if (pr && pr.player === me) {
    if (pr.kind === 'play' || pr.kind === 'playDrawn') {
      const card = pr.kind === 'playDrawn' ? view.drawnCard?.card : selected;
      for (const m of legal) {
        const a = m.args[0] as PlayArgs;
        if (a.card !== card || a.as !== 'value' || !a.target) continue;
        const key = targetKey(a.target);
        if (key) trackTargets.set(key, () => act(m));
      }
    } else if (pr.kind === 'answer') {
      for (const m of legal) trackTargets.set(m.args[0] as string, () => act(m));
    } else if (pr.kind === 'target') {
      for (const m of legal) {
        const key = targetKey(m.args[0] as ValueTarget);
        if (key) trackTargets.set(key, () => act(m));
      }
    } else if (pr.kind === 'pin') {
      const token = pinToken && pr.tokens.includes(pinToken) ? pinToken : pr.tokens[0];
      for (const m of legal) {
        const a = m.args[0] as { token: string; space: string };
        if (a.token === token) spaceTargets.set(a.space, () => act(m));
      }
    }
  }

  // A decision made on the board or the track: every choice is a space or a piece there (a target the
  // track does not show keeps the prompt's options in sight). The phone's dock folds for it (phone.tsx).
  const onBoard =
    owing && !offline && (pr?.kind === 'pin' || pr?.kind === 'answer' || (pr?.kind === 'target' && legal.length > 0 && legal.every((m) => targetKey(m.args[0] as ValueTarget) !== null)));
  const hand = me ? (view.hands[me] ?? []) : [];
  // Offline, no card can be chosen: a choice could only be dropped (the prompt says that moves wait).
  const canPlay = pr?.kind === 'play' && pr.player === me && !offline;
  // The tutorial's card: another one picked says what the step wants and marks it again (`remark`).
  const guideCard = guide?.move?.move === 'play' ? (guide.move.args[0] as PlayArgs).card : null;
  const [wrong, setWrong] = useState<{ at: string; card: string; n: number } | null>(null);
  const wrongPick = wrong?.at === decision ? wrong : null;
  const select = (id: string) => {
    if (guide && guideCard && id !== guideCard) {
      setSelected(null);
      setWrong({ at: decision, card: id, n: (wrongPick?.n ?? 0) + 1 });
      requestAnimationFrame(() => document.querySelector('.hand-cards .card.suggested')?.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
      return;
    }
    setWrong(null);
    setSelected(selected === id ? null : id);
  };
  const playable = new Set(legal.filter((m) => m.move === 'play').map((m) => (m.args[0] as PlayArgs).card));
  const seats = !shell.online ? undefined : props.matchData?.map((s) => ({ id: s.id, name: s.name, isConnected: s.isConnected, data: (s as { data?: unknown }).data, account: (s as { account?: { username: string; rating: number } }).account }));
  const wide = useLayout() === 'wide';

  const chatLines = (props.chatMessages ?? []) as ChatLine[];
  const names = Object.fromEntries((props.matchData ?? []).map((s) => [String(s.id), s.name]));
  const prompt = waitingFor ? (
    <section className="prompt waiting" role="status" data-waiting={waitingFor}>
      <p>{t(me ? 'board.waitingForYou' : 'board.waitingFor', { role: roleName(t, waitingFor) })}</p>
    </section>
  ) : (
    <PromptPanel view={view} me={me} legal={legal} selected={selected} pinToken={pinToken} setPinToken={setPinToken} act={act} suggestion={suggestion} guided={!!guide} offline={offline} wrongPick={wrongPick && guideCard ? { picked: wrongPick.card, wanted: guideCard } : null} />
  );
  const hintBox = shell.hints && !guide && owing && !offline && (
    <Optional>
      <Hint view={view} hint={hinted} onHint={(move) => setHint({ at: decision, move })} key={decision} />
    </Optional>
  );
  const lastMovePanel = <LastMovePanel last={last} hideCards={pr?.kind === 'react' && pr.player === me} />;
  // Online, a seated player may resign at any moment; locally boardgame.io lets only the player to move do so.
  const resign = me && !isOver(view) && !offline && !waitingFor && !guide && (shell.online || pr?.player === me) && <Resign me={me} resign={() => props.moves.resign?.()} />;
  const handBox = me && (
    <section className="hand" aria-label={t('board.hand')}>
      <button type="button" className={`hand-toggle${suggestion?.move === 'play' ? ' suggested' : ''}`} aria-expanded={handOpen} aria-controls="hand-cards" onClick={() => setHandOpen(!handOpen)}>
        {t('board.hand')} ({hand.length})
      </button>
      <h2>
        {t('board.hand')} <span className="count">({hand.length})</span>
      </h2>
      <div className="hand-cards" id="hand-cards">
        {hand.map((id) => (
          <Card
            key={id === guideCard && wrongPick ? `${id}:${wrongPick.n}` : id}
            id={id}
            selected={selected === id}
            suggested={suggestion?.move === 'play' && (suggestion.args[0] as PlayArgs).card === id}
            muted={canPlay && !playable.has(id)}
            onSelect={canPlay ? () => select(id) : undefined}
          />
        ))}
      </div>
    </section>
  );
  const info = (
    <>
      <InitiativeCard view={view} />
      <MomentumCards view={view} />
      <Piles view={view} />
      <BoardInfo view={view} me={me} sources={sources} setSources={setSources}>
        {(shell.computer !== undefined || seats?.some((s) => botLevelOf(s))) && <PaceSelect />}
      </BoardInfo>
    </>
  );
  const record = <GameRecord view={view} />;
  // The players' chat is theirs: a spectator's page has none (the server never sends it one: docs/SECURITY.md
  // "Unlisted matches and the players' chat"); it has the spectators' room instead.
  const watchers = (props as { watchers?: WatchersRoom }).watchers;
  const chat =
    shell.online &&
    (me ? (
      <Optional>
        <Chat lines={chatLines as never} names={names} send={(text) => props.sendChatMessage(text)} />
      </Optional>
    ) : (
      watchers && (
        <Optional>
          <Watchers lines={watchers.lines} say={watchers.say} />
        </Optional>
      )
    ));
  const chatMark = shell.online && me && <ChatMark lines={chatLines} me={me} names={names} />;
  const table = (
    <div className="table">
      <BoardZoom>
        <EvidenceBoard view={view} targets={spaceTargets} last={last} />
      </BoardZoom>
      <Track view={view} viewer={me} targets={trackTargets} last={last} />
    </div>
  );

  return (
    <div className={`game viewer-${me ?? 'spectator'}${sources ? ' show-sources' : ''}`} data-round={view.round} data-phase={view.phase}>
      {!wide && shell.aside}
      <StatusBar view={view} me={me} seats={seats} offline={offline} />
      {offline && (
        <p className="offline" role="status" data-offline>
          {t('board.reconnecting')}
        </p>
      )}
      {wide ? (
        // Wide screens, one screen (docs/ARCHITECTURE.md "The client: playing online"): the board, the
        // track and the open cards in a row with the hand docked under them; beside them a column with the
        // prompt, the last move, the record and the chat. As tall as the screen allows, nothing below it.
        <WideTable
          board={
            <>
              <div className="table-row">
                {table}
                <div className="under-board">{info}</div>
              </div>
              {handBox}
            </>
          }
          side={
            <>
              {shell.aside}
              {chatMark}
              {prompt}
              <div className="side-actions">
                {hintBox}
                {resign}
              </div>
              {lastMovePanel}
              {record}
              {chat}
            </>
          }
        />
      ) : (
        <div className="game-main">
          {table}
          <div className="side">
            <Dock handOpen={handOpen} at={decision} onBoard={onBoard}>
              {chatMark}
              {prompt}
              {hintBox}
              {lastMovePanel}
              {resign}
              {handBox}
            </Dock>
            {info}
            {record}
            {chat}
          </div>
        </div>
      )}
      <GameOver view={view} me={shell.hotseat ? null : me} actions={isOver(view) ? shell.gameOverActions?.() : undefined} />
    </div>
  );
}
