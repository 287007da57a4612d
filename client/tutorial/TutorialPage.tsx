/**
 * The tutorial (#/tutorial): a first round as the Editor on a fixed seed, in the page (boardgame.io's
 * local client, like local mode). Each step says what to do; the board offers only the move the step
 * asks for, marked (shell.guide), and Nixon's answers are replayed from the script (./script.ts). At
 * the end the player may play on against our bot at level easy, which then thinks in a Web Worker.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CARDS, Watergate, type PlayArgs, type Step, type WatergateState } from '../../game';
import { WatergateBoard } from '../board/Board';
import { ShellContext, type Shell } from '../board/shell';
import { useHeightVarRef } from '../board/phone';
import { cardName, colourName, informantName, tokenName, type T } from '../i18n/words';
import { GameClient, type GameClientInstance } from '../net/GameClient';
import { expectedMove, SCRIPT, stepAt, STEPS, TUTORIAL_SEED, type StepId } from './script';

/** How long "Nixon" seems to think before each scripted answer, so the player sees one move at a time. */
const ANSWER_MS = 700;

function Loading(): ReactNode {
  const { t } = useTranslation();
  return <p className="loading">{t('app.loading')}</p>;
}

const argOf = (n: number) => SCRIPT[n].move.args[0];
const cardAt = (n: number) => (argOf(n) as PlayArgs).card;
/** The last scripted card Nixon played before move n. */
function nixonCardBefore(n: number): string {
  let i = n - 1;
  while (SCRIPT[i].player !== '1' || SCRIPT[i].move.move !== 'play') i--;
  return cardAt(i);
}
/** The informant a card's action pins. */
const pinnedBy = (card: string) => (CARDS[card].steps.find((s) => s.op === 'PIN_INFORMANT') as Extract<Step, { op: 'PIN_INFORMANT' }>).informant;
/** The Editor's event of the tutorial, whose informant the later steps point at. */
const EVENT_AT = STEPS.find((s) => s.id === 'event')!.at;

/** The names a step's words need, taken from the script in the chosen language. */
function stepParams(t: T, id: StepId, at: number): Record<string, string | number> {
  switch (id) {
    case 'value':
      return { card: cardName(t, cardAt(at)), value: CARDS[cardAt(at)].value };
    case 'reaction':
      return { card: cardName(t, argOf(at) as string), nixonCard: cardName(t, nixonCardBefore(at)), steps: CARDS[nixonCardBefore(at)].value };
    case 'ask': {
      const target = (argOf(at) as PlayArgs).target as { colour: string };
      return { card: cardName(t, cardAt(at)), colour: colourName(t, target.colour) };
    }
    case 'event':
      return { card: cardName(t, cardAt(at)), informant: informantName(t, pinnedBy(cardAt(at))), nixonInformant: informantName(t, pinnedBy(nixonCardBefore(at))) };
    case 'pin': {
      const target = (argOf(at) as PlayArgs).target as { token: string };
      return { card: cardName(t, cardAt(at)), token: tokenName(t, target.token), nixonCard: cardName(t, nixonCardBefore(at)), informant: informantName(t, pinnedBy(cardAt(EVENT_AT))) };
    }
    case 'assessment': {
      const pin = SCRIPT.findIndex((m, i) => i >= at && m.player === '0' && m.move.move === 'pin');
      return { token: tokenName(t, (argOf(pin) as { token: string }).token) };
    }
    case 'informants':
      return { informant: informantName(t, pinnedBy(cardAt(EVENT_AT))) };
    default:
      return {};
  }
}

export default function TutorialPage(): ReactNode {
  const { t } = useTranslation();
  const [run, setRun] = useState(0); // "Start again" begins a fresh match
  const [made, setMade] = useState(0); // scripted moves made: boardgame.io's _stateID (test/client/tutorial.test.ts)
  const [read, setRead] = useState(0); // read-only steps dismissed with "Next"
  const [free, setFree] = useState(false); // playing on against the easy bot after the last step
  const [thinking, setThinking] = useState(false);
  const game = useMemo(() => ({ ...Watergate, seed: TUTORIAL_SEED, key: `tutorial-${run}` }), [run]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const botBusy = useRef(false);
  const freeRef = useRef(false);
  freeRef.current = free;
  const clientRef = useRef<GameClientInstance | null>(null);

  // A new run or leaving the page drops a scripted answer still waiting, and stops the bot's worker.
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      botBusy.current = false;
      void import('../../bots/browser').then((b) => b.stopBrowserBot());
    },
    [game],
  );

  const onUpdate = useCallback((client: GameClientInstance) => {
    clientRef.current = client;
    const state = client.getState();
    if (!state) return;
    const G = state.G as WatergateState;
    const n = state._stateID;
    setMade(n);
    if (G.prompt?.player !== '1' || G.winner !== null) return setThinking(false);
    setThinking(true);
    if (freeRef.current) return void playBot(client, botBusy);
    if (n >= SCRIPT.length || timer.current) return;
    const { move } = SCRIPT[n];
    timer.current = setTimeout(() => {
      timer.current = null;
      // Only if nothing happened meanwhile (a restart makes a new client).
      if (client.getState()?._stateID === n) client.store.dispatch({ type: 'MAKE_MOVE', payload: { type: move.move, args: move.args, playerID: '1' } } as never);
    }, ANSWER_MS);
  }, []);

  // "Play on" hands Nixon's seat to the bot at once if the next decision is his (it is: he leads round 2).
  useEffect(() => {
    if (free && clientRef.current) onUpdate(clientRef.current);
  }, [free, onUpdate]);

  // On a phone the step's card is fixed above the dock (styles.css): the page keeps room for it below the board.
  const card = useHeightVarRef('--tutorial-card');

  const index = stepAt(made, read);
  const step = STEPS[index];
  const guided = !free && !step.read;
  const next = guided ? expectedMove(made) : null;
  const shell = useMemo<Shell>(() => (free ? { hints: true } : { guide: { move: next } }), [free, next]);
  const params = stepParams(t, step.id, step.at);

  const restart = () => {
    setMade(0);
    setRead(0);
    setFree(false);
    setThinking(false);
    setRun(run + 1);
  };

  // The step's card goes with the board (Shell.aside): beside it on a wide screen, above it elsewhere.
  const stepCard = (
    <section ref={card} className="tutorial-step" aria-labelledby="tutorial-step-title" aria-live="polite" data-tutorial-step={step.id}>
      <p className="tutorial-progress">
        <strong>{t('tutorial.title')}</strong> · {t('tutorial.progress', { n: index + 1, total: STEPS.length })}
      </p>
      <h1 id="tutorial-step-title">{t(`tutorial.steps.${step.id}.title`)}</h1>
      {t(`tutorial.steps.${step.id}.body`, params)
        .split('\n')
        .map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      <div className="actions">
        {step.read && (
          <button type="button" className="primary" data-tutorial-next autoFocus onClick={() => setRead(read + 1)}>
            {t('tutorial.next')}
          </button>
        )}
        {guided && thinking && (
          <p className="hint" data-tutorial-thinking>
            {t('tutorial.thinking')}
          </p>
        )}
        {guided && next && <p className="hint">{t('tutorial.yourMove')}</p>}
        {free && <p className="hint">{t('tutorial.playingOn')}</p>}
        {step.id === 'done' && !free && (
          <button type="button" className="primary" data-tutorial-play-on onClick={() => setFree(true)}>
            {t('tutorial.playOn')}
          </button>
        )}
        {step.id === 'done' && (
          <>
            <a className="button" href="#/">
              {t('tutorial.newGame')}
            </a>
            <a className="button" href="#/rules">
              {t('tutorial.readRules')}
            </a>
          </>
        )}
        <button type="button" className="link" data-tutorial-restart onClick={restart}>
          {t('tutorial.restart')}
        </button>
      </div>
    </section>
  );

  return (
    <div className="tutorial">
      <ShellContext.Provider value={{ ...shell, aside: stepCard }}>
        <GameClient key={game.key} game={game} board={WatergateBoard} loading={Loading} matchID="tutorial" playerID="0" onUpdate={onUpdate} />
      </ShellContext.Provider>
    </div>
  );
}

/** After the tutorial: Nixon's decisions come from our bot at level easy, in the browser's Web Worker. */
async function playBot(client: GameClientInstance, busy: { current: boolean }): Promise<void> {
  if (busy.current) return;
  busy.current = true;
  try {
    const [{ Step }, { browserBot }] = await Promise.all([import('boardgame.io/ai'), import('../../bots/browser')]);
    const Bot = browserBot({ level: 'easy' });
    await Step(client, new Bot({ game: Watergate, enumerate: Watergate.ai!.enumerate }));
  } catch {
    // stopped (a restart or leaving the page): nothing to do
  } finally {
    busy.current = false;
  }
  const G = client.getState()?.G as WatergateState | undefined;
  if (G?.prompt?.player === '1' && G.winner === null) void playBot(client, busy); // Nixon may have several decisions in a row
}
