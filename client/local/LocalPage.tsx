/**
 * Local mode for developers (`npm run dev`, #/local): the whole match runs in this page (boardgame.io
 * single-player client, so the Debug panel's AI tab can play moves and whole games). Hotseat shows the
 * board of whoever must act (or a chosen seat); "vs bot" seats boardgame.io's RandomBot as Nixon until
 * our own bot (bots/) is wired through a Web Worker.
 */
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { RandomBot, Step } from 'boardgame.io/ai';
import { Debug } from 'boardgame.io/debug';
import { useTranslation } from 'react-i18next';
import { Watergate, type PlayerID, type WatergateState } from '../../game';
import { WatergateBoard } from '../board/Board';
import { ShellContext } from '../board/shell';
import { roleName } from '../i18n/words';
import { GameClient, type GameClientInstance } from '../net/GameClient';

type Mode = 'hotseat' | 'bot';
type Follow = 'active' | PlayerID;

function Loading(): ReactNode {
  const { t } = useTranslation();
  return <p className="loading">{t('app.loading')}</p>;
}

const DEBUG = { impl: Debug };
const HOTSEAT = { hotseat: true };
const VS_BOT = {};

export default function LocalPage(): ReactNode {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('hotseat');
  const [follow, setFollow] = useState<Follow>('active');
  const [game, setGame] = useState(0);
  const [seat, setSeat] = useState<PlayerID>('0');
  const busy = useRef(false);
  // A fresh game object per "new game" gives a fresh match.
  const g = useMemo(() => ({ ...Watergate, seed: undefined, key: `${mode}-${game}` }), [mode, game]);
  const bot = useMemo(() => new RandomBot({ enumerate: Watergate.ai!.enumerate }), []);

  const onUpdate = useCallback(
    (client: GameClientInstance) => {
      const G = client.store.getState().G as WatergateState;
      const active = G.prompt?.player ?? '0';
      if (mode === 'bot') {
        // One bot decision at a time; after each, look again (Nixon may have several in a row).
        if (active === '1' && G.winner === null && !busy.current) {
          busy.current = true;
          setTimeout(
            () =>
              void Step(client, bot).finally(() => {
                busy.current = false;
                onUpdate(client);
              }),
            250,
          );
        }
        return;
      }
      setSeat(follow === 'active' ? active : follow);
    },
    [mode, follow, bot],
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
      <ShellContext.Provider value={mode === 'hotseat' ? HOTSEAT : VS_BOT}>
        <LocalMatch key={`${mode}-${game}`} game={g} seat={shown} onUpdate={onUpdate} />
      </ShellContext.Provider>
    </div>
  );
}

/** One in-page match; the seat shown changes without restarting it. */
function LocalMatch({ game, seat, onUpdate }: { game: typeof Watergate; seat: PlayerID; onUpdate: (c: GameClientInstance) => void }): ReactNode {
  return <GameClient game={game} board={WatergateBoard} loading={Loading} matchID="local" playerID={seat} debug={DEBUG} onUpdate={onUpdate} />;
}
