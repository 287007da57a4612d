/**
 * #/replay/<matchID>: a finished game, decision by decision, with everything revealed. The server gives the
 * stored initial state and moves once the game is over (protocol/replay.ts); the same reducer rebuilds
 * every state here (steps.ts). A slider, Previous/Next and the ←/→ keys (Home/End) choose the step; the
 * record shown is the state's own, so it follows. "Download game" saves the server's JSON as it came;
 * #/replay-file opens such a file again (ReplayFromFile), with no server.
 * "Analyse" judges every decision with our bot (analysis/).
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID } from '../../game';
import { UNDO_MOVE } from '../../game/undo';
import { REPLAY_FORMAT, replayPath, type ReplayData } from '../../protocol/replay';
import { roleName } from '../i18n/words';
import { AnalysisPanel } from './analysis/AnalysisPanel';
import { Revealed } from './Revealed';
import { replayStates, takenBackSteps, type ReplayState } from './steps';
import { decisionText } from './words';

type Loaded = { data: ReplayData; raw: string; states: ReplayState[] } | { error: 'notOver' | 'notFound' | 'broken' | 'offline' };

/** A game as the server sent it or as "Download game" saved it: every state rebuilt, or 'broken'. */
function parse(raw: string): Loaded {
  try {
    const data = JSON.parse(raw) as ReplayData;
    if (data?.format !== REPLAY_FORMAT || typeof data.matchID !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(data.matchID)) return { error: 'broken' };
    return { data, raw, states: replayStates(data) };
  } catch (e) {
    console.error('the replay does not replay', e);
    return { error: 'broken' };
  }
}

async function load(matchID: string): Promise<Loaded> {
  let res: Response;
  try {
    res = await fetch(replayPath(matchID));
  } catch {
    return { error: 'offline' };
  }
  if (res.status === 403) return { error: 'notOver' };
  if (res.status === 404) return { error: 'notFound' };
  if (!res.ok) return { error: 'offline' };
  return parse(await res.text());
}

/** Saves the replay as the server sent it, as a .json file. */
function download(matchID: string, raw: string): void {
  const url = URL.createObjectURL(new Blob([raw], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `watergate-${matchID}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function ReplayPage({ matchID }: { matchID: string }): ReactNode {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    let gone = false;
    void load(matchID).then((l) => !gone && setLoaded(l));
    return () => void (gone = true);
  }, [matchID]);
  return <Replay matchID={matchID} loaded={loaded} />;
}

/** The largest game file opened (a whole game's replay is some hundred KB). */
const MAX_FILE = 8 * 1024 * 1024;

/**
 * #/replay-file: a game saved with "Download game", opened from the device — the replay and its analysis
 * (computed in this browser) with no server, e.g. offline (the service worker keeps this page).
 */
export function ReplayFromFile(): ReactNode {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const open = async (file: File | undefined) => {
    if (!file) return;
    setLoaded(file.size > MAX_FILE ? { error: 'broken' } : parse(await file.text()));
  };
  return (
    <>
      <p className="panel replay-open">
        <label>
          {t('replay.openFile')} <input type="file" accept=".json,application/json" data-replay-file onChange={(e) => void open(e.target.files?.[0])} />
        </label>
      </p>
      {loaded && <Replay matchID={'data' in loaded ? loaded.data.matchID : ''} loaded={loaded} fromFile />}
    </>
  );
}

function Replay({ matchID, loaded, fromFile = false }: { matchID: string; loaded: Loaded | null; fromFile?: boolean }): ReactNode {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const last = loaded && 'states' in loaded ? loaded.states.length - 1 : 0;

  // ←/→ step anywhere on the page, Home/End jump; a focused field keeps its own keys (the slider moves itself).
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      if ((e.target as Element | null)?.closest?.('input, select, textarea, [contenteditable="true"]')) return;
      const keys: Record<string, (s: number) => number> = { ArrowLeft: (s) => s - 1, ArrowRight: (s) => s + 1, Home: () => 0, End: () => last };
      const to = keys[e.key];
      if (!to) return;
      e.preventDefault();
      setStep((s) => Math.min(last, Math.max(0, to(s))));
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, [last]);

  const caption = useMemo(() => {
    if (!loaded || !('states' in loaded) || step === 0) return t('replay.start');
    const m = loaded.data.moves[step - 1];
    // A take-back returns to an earlier step (the replay keeps it as a step of its own, and greys the steps it undid).
    const back = m.move === UNDO_MOVE ? loaded.states.findIndex((s) => s.G === loaded.states[step].G) : -1;
    return t('replay.decision', { who: roleName(t, m.playerID), what: back >= 0 ? t('replay.undo', { step: back }) : decisionText(t, loaded.states[step - 1].G, m) });
  }, [loaded, step, t]);

  if (!loaded) return <p className="loading">{t('app.loading')}</p>;
  if ('error' in loaded)
    return (
      <div className="panel replay-refused" role="alert" data-replay-error={loaded.error}>
        <p>{loaded.error === 'notFound' ? t('lobby.notFound', { id: matchID }) : t(`replay.${loaded.error}`)}</p>
        <p className="actions">
          {loaded.error === 'offline' && (
            <a className="button" href="#/replay-file">
              {t('replay.openFile')}
            </a>
          )}
          {loaded.error === 'notOver' && !fromFile && (
            <a className="button primary" href={`#/match/${matchID}`}>
              {t('replay.toMatch')}
            </a>
          )}
          <a className="button" href="#/">
            {t('app.lobby')}
          </a>
        </p>
      </div>
    );

  const { data, raw, states } = loaded;
  const undone = takenBackSteps(data).has(step);
  const names = Object.fromEntries(data.players.map((p) => [p.id, p.name])) as Record<PlayerID, string | null>;
  const position = t('replay.position', { n: step, total: last });
  return (
    <div className="replay">
      <div className="match-bar replay-bar">
        <h1 className="replay-title">{t('replay.title', { id: matchID })}</h1>
        <button type="button" data-replay-prev disabled={step === 0} onClick={() => setStep(step - 1)}>
          ← {t('replay.previous')}
        </button>
        <input
          type="range"
          className="replay-slider"
          data-replay-slider
          min={0}
          max={last}
          value={step}
          aria-label={t('replay.slider')}
          aria-valuetext={position}
          onChange={(e) => setStep(Number(e.target.value))}
        />
        <button type="button" data-replay-next disabled={step === last} onClick={() => setStep(step + 1)}>
          {t('replay.next')} →
        </button>
        <span className="replay-position" data-replay-step={step}>
          {position}
        </span>
        <button type="button" data-replay-download onClick={() => download(matchID, raw)}>
          {t('replay.download')}
        </button>
        {!fromFile && <a href={`#/match/${matchID}`}>{t('replay.toMatch')}</a>}
      </div>
      <p className="replay-caption">
        <span role="status" data-replay-caption className={undone ? 'taken-back' : undefined} data-taken-back={undone || undefined}>
          {caption}
        </span>
        {undone && <span className="hint"> ({t('replay.undone')})</span>}{' '}
        <span className="hint">{t('replay.keys')}</span>
      </p>
      <AnalysisPanel data={data} states={states} step={step} onStep={setStep} />
      <Revealed G={states[step].G} names={names} />
    </div>
  );
}
