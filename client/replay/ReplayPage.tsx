/**
 * #/replay/<matchID>: a finished game, decision by decision, with everything revealed. The server gives the
 * stored initial state and moves once the game is over (protocol/replay.ts); the same reducer rebuilds
 * every state here (steps.ts). A slider, Previous/Next and the ←/→ keys (Home/End) choose the step; the
 * record shown is the state's own, so it follows. "Download game" saves the server's JSON as it came.
 * "Analyse" judges every decision with our bot (analysis/).
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID } from '../../game';
import { UNDO_MOVE } from '../../game/undo';
import { replayPath, type ReplayData } from '../../protocol/replay';
import { roleName } from '../i18n/words';
import { AnalysisPanel } from './analysis/AnalysisPanel';
import { Revealed } from './Revealed';
import { replayStates, takenBackSteps, type ReplayState } from './steps';
import { decisionText } from './words';

type Loaded = { data: ReplayData; raw: string; states: ReplayState[] } | { error: 'notOver' | 'notFound' | 'broken' | 'offline' };

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
  const raw = await res.text();
  try {
    const data = JSON.parse(raw) as ReplayData;
    return { data, raw, states: replayStates(data) };
  } catch (e) {
    console.error('the replay does not replay', e);
    return { error: 'broken' };
  }
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
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [step, setStep] = useState(0);
  useEffect(() => {
    let gone = false;
    void load(matchID).then((l) => !gone && setLoaded(l));
    return () => void (gone = true);
  }, [matchID]);
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
          {loaded.error === 'notOver' && (
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
        <a href={`#/match/${matchID}`}>{t('replay.toMatch')}</a>
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
