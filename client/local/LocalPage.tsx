/**
 * Local mode for developers (`npm run dev`, #/local): the whole match runs in this page (boardgame.io
 * single-player client, so the Debug panel's AI tab can play moves and whole games). Hotseat shows the
 * board of whoever must act (or a chosen seat); "vs bot" seats our own bot (bots/browser.ts) as Nixon at
 * a chosen level; its search runs in a Web Worker, so the board stays responsive.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Step } from 'boardgame.io/ai';
import { Debug } from 'boardgame.io/debug';
import { useTranslation } from 'react-i18next';
import { Watergate, type PlayerID, type WatergateState } from '../../game';
import { WatergateBoard } from '../board/Board';
import { ShellContext } from '../board/shell';
import { roleName } from '../i18n/words';
import { GameClient, type GameClientInstance } from '../net/GameClient';
// Imported here, not in the play page: this page is itself loaded on demand (App.tsx), and the bot's
// search runs in its own worker bundle, started at the bot's first decision.
import { browserBot, stopBrowserBot } from '../../bots/browser';
import type { Level } from '../../protocol/index';
import { LevelSelect } from '../LevelSelect';
import { debugRunner, installSlicedSearch, PANEL_SETTINGS } from './debugAI';



type Mode = 'hotseat' | 'bot';
type Follow = 'active' | PlayerID;

function Loading(): ReactNode {
  const { t } = useTranslation();
  return <p className="loading">{t('app.loading')}</p>;
}

/**
 * On a phone the panel would cover the board: it starts folded there (its own button or "." opens it).
 * Read once per load; the panel keeps whatever the player chooses afterwards.
 */
const DEBUG = { impl: Debug, collapseOnLoad: typeof window !== 'undefined' && window.matchMedia?.('(max-width: 800px)').matches };
// Hints ("What would the computer do?") are on in local games: no clock runs here.
const HOTSEAT = { hotseat: true, hints: true };

// The panel's bots search in slices and one run at a time (./debugAI.ts).
installSlicedSearch();

/**
 * boardgame.io 0.50.2's Debug panel builds its AI tab's MCTSBot with the stock 1,000 iterations and
 * depth 50 (only ai.enumerate reaches it), seconds per move (measured: docs/BOTS.md "MCTSBot time per
 * decision"). Its own sliders are the one way in: whenever the tab shows them, set PANEL_SETTINGS as a
 * person would.
 */
function useDebugAIDefaults(): void {
  useEffect(() => {
    const apply = () => {
      for (const [key, value] of Object.entries(PANEL_SETTINGS)) {
        const input = document.getElementById(`ai-option-${key}`) as HTMLInputElement | null;
        if (!input || input.dataset.preset) continue;
        input.dataset.preset = String(value);
        input.value = String(value);
        input.dispatchEvent(new Event('change'));
      }
    };
    const watch = new MutationObserver(apply);
    watch.observe(document.body, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, []);
}
const VS_BOT = { hints: true, computer: '1' as const };
/** Against our bot its decisions are shown one at a time (net/pace.ts). */
const COMPUTER_SEAT = () => '1';

export default function LocalPage(): ReactNode {
  const { t } = useTranslation();
  useDebugAIDefaults();
  const [mode, setMode] = useState<Mode>('hotseat');
  const [follow, setFollow] = useState<Follow>('active');
  const [game, setGame] = useState(0);
  const [seat, setSeat] = useState<PlayerID>('0');
  const [level, setLevel] = useState<Level>('normal');
  const [thinking, setThinking] = useState(false);
  // A press of the panel's play/simulate made during its bot's search waits for it (./debugAI.ts): said here.
  const [queued, setQueued] = useState(false);
  const busy = useRef(false);
  const generation = useRef(0); // bumped per match: a late bot answer for an old match is dropped
  // The Debug panel plays the player the game waits for, except the seat our bot plays (vs bot).
  const modeNow = useRef(mode);
  modeNow.current = mode;
  const runner = useMemo(() => debugRunner(() => (modeNow.current === 'bot' ? '1' : null), setQueued), []);
  // A fresh game object per "new game" gives a fresh match.
  const g = useMemo(() => ({ ...Watergate, seed: undefined, key: `${mode}-${game}-${level}`, ai: { enumerate: runner.enumerate } }), [mode, game, level, runner]);
  // Each match its own bot seed, so the bot does not repeat itself from game to game.
  const botSeed = useMemo(() => crypto.getRandomValues(new Uint32Array(1))[0], [g]);
  // A new match (or leaving the page) stops the bot's worker: a search for the old match is dropped.
  useEffect(
    () => () => {
      generation.current++;
      busy.current = false;
      stopBrowserBot();
    },
    [g],
  );

  const onUpdate = useCallback(
    (client: GameClientInstance) => {
      runner.attach(client);
      const G = client.store.getState().G as WatergateState;
      const active = G.prompt?.player ?? '0';
      if (mode === 'bot') {
        // One bot decision at a time; after each, look again (Nixon may have several in a row).
        if (active === '1' && G.winner === null && !busy.current) {
          busy.current = true;
          setThinking(true);
          const mine = generation.current;
          const WatergateBot = browserBot({ level, seed: botSeed });
          void Step(client, new WatergateBot({ game: Watergate, enumerate: Watergate.ai!.enumerate })).then(
            () => {
              if (generation.current !== mine) return;
              busy.current = false;
              setThinking(false);
              onUpdate(client);
            },
            (e: unknown) => {
              setThinking(false);
              if (generation.current !== mine) return; // stopped for a new match: nothing to do
              busy.current = false;
              console.error('the bot failed', e);
            },
          );
        }
        return;
      }
      // Switched here, before the board draws this state: drawn once, through the new seat's eyes (the
      // seat prop follows and finds nothing left to switch). The state drawn may be the Debug panel's
      // time travel (client.getState() gives it): follow the player that state waits for.
      const shownActive = (client.getState()?.G as WatergateState | undefined)?.prompt?.player ?? active;
      const next = follow === 'active' ? shownActive : follow;
      if (client.playerID !== next) client.updatePlayerID(next);
      setSeat(next);
    },
    [mode, follow, level, botSeed, runner],
  );

  const shown: PlayerID = mode === 'bot' ? '0' : seat;
  return (
    <div className="local">
      <div className="match-bar">
        <strong>{t('local.title')}</strong>
        <span role="radiogroup" aria-label={t('local.title')}>
          <label>
            <input type="radio" name="mode" checked={mode === 'hotseat'} onChange={() => setMode('hotseat')} /> {t('local.hotseat')}
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'bot'} onChange={() => setMode('bot')} /> {t('local.vsBot')}
          </label>
        </span>
        {mode === 'bot' && (
          <label>
            {t('local.botLevel')}{' '}
            <LevelSelect value={level} onChange={setLevel} marker="data-level" />
          </label>
        )}
        {mode === 'bot' && thinking && <span className="hint" data-bot-thinking>{t('local.botThinking')}</span>}
        {mode === 'hotseat' && (
          <label>
            {t('local.viewing')}{' '}
            <select
              value={follow}
              data-follow
              onChange={(e) => {
                const f = e.target.value as Follow;
                setFollow(f);
                if (f !== 'active') setSeat(f);
              }}
            >
              <option value="active">{t('local.followActive')}</option>
              <option value="0">{roleName(t, '0')}</option>
              <option value="1">{roleName(t, '1')}</option>
            </select>
          </label>
        )}
        <button type="button" onClick={() => setGame(game + 1)}>
          {t('local.newGame')}
        </button>
      </div>
      <p className="hint" data-debug-note>
        {t('local.debugNote')}
      </p>
      {/* A live region present from the start (no space while empty), so a screen reader announces what appears in it. */}
      <div className="hint" role="status">
        {queued && <p data-debug-queued>{t('local.debugQueued')}</p>}
      </div>
      <ShellContext.Provider value={mode === 'hotseat' ? HOTSEAT : VS_BOT}>
        <LocalMatch key={g.key} game={g} seat={shown} onUpdate={onUpdate} computer={mode === 'bot'} />
      </ShellContext.Provider>
    </div>
  );
}

/** One in-page match; the seat shown changes without restarting it. */
function LocalMatch({ game, seat, onUpdate, computer }: { game: typeof Watergate; seat: PlayerID; onUpdate: (c: GameClientInstance) => void; computer: boolean }): ReactNode {
  return <GameClient game={game} board={WatergateBoard} loading={Loading} matchID="local" playerID={seat} debug={DEBUG} onUpdate={onUpdate} computerSeat={computer ? COMPUTER_SEAT : undefined} />;
}
