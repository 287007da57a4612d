/**
 * "Analyse" on the replay page: every decision judged by our bot from the decider's own view. The server
 * is asked first: its analysis is computed once for everyone, so while it works the page shows the
 * server's progress and waits (computing the same game twice at once would double the work and slow
 * both). Only when the server will not (it keeps none, is busy or away, or stops making progress) does
 * the page judge in a Web Worker of its own (bots/browser.ts), with a progress bar and Cancel; then the Editor's win-chance graph (Graph.tsx;
 * its chart and uPlot load only now), the three biggest swings with what the bot would have chosen instead, and
 * the record of every decision with the swings marked. Picking a point, a mark or a line moves the replay.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerID } from '../../../game';
import { ANALYSIS_BUDGET, analysisPath } from '../../../protocol/analysis';
import type { ReplayData } from '../../../protocol/replay';
import { roleName } from '../../i18n/words';
import type { ReplayState } from '../steps';
import { decisionText } from '../words';
import { Graph } from './Graph';
import { decisionsToJudge, editorCurve, pickSwings, servedAnalysis, type Judged, type Swing } from './judge';
import './analysis.css';

type Run =
  | { phase: 'idle' }
  | { phase: 'asking' }
  | { phase: 'server'; done: number | null; total: number | null }
  | { phase: 'running'; done: number; total: number }
  | { phase: 'done'; judged: Judged[]; source: 'server' | 'browser' }
  | { phase: 'cancelled' }
  | { phase: 'failed'; reason: string };

const pct = (v: number) => `${Math.round(v * 100)}%`;
/** How often the page asks the server how far it is, and how long without progress before computing here. */
export const SERVER_POLL_MS = 1500;
export const SERVER_STALL_MS = 60_000;
const wait = (ms: number, signal: AbortSignal) => new Promise<void>((r) => {
  const t = setTimeout(r, ms);
  signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
});

interface Props {
  data: ReplayData;
  states: readonly ReplayState[];
  step: number;
  onStep: (step: number) => void;
}

export function AnalysisPanel({ data, states, step, onStep }: Props): ReactNode {
  const { t, i18n } = useTranslation();
  const [run, setRun] = useState<Run>({ phase: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []); // leaving the page stops the work

  const start = async () => {
    const ctl = new AbortController();
    abort.current = ctl;
    // The server's, if it has it (computed once for everyone); asking also starts it there for the next visitor.
    setRun({ phase: 'asking' });
    let progress = { done: -1, at: Date.now() };
    for (;;) {
      const served = await askServer(data.matchID, states.length - 1);
      if (ctl.signal.aborted) return setRun({ phase: 'cancelled' });
      if (served.kind === 'ready') return setRun({ phase: 'done', judged: served.judged, source: 'server' });
      if (served.kind === 'none') break;
      const done = served.done ?? 0;
      if (done !== progress.done) progress = { done, at: Date.now() };
      else if (Date.now() - progress.at > SERVER_STALL_MS) break; // the server stopped: judge here
      setRun({ phase: 'server', done: served.done, total: served.total });
      await wait(SERVER_POLL_MS, ctl.signal);
      if (ctl.signal.aborted) return setRun({ phase: 'cancelled' });
    }
    const items = decisionsToJudge(data, states);
    setRun({ phase: 'running', done: 0, total: items.length });
    try {
      const { reviewInBrowser } = await import('../../../bots/browser');
      const reviews = await reviewInBrowser(
        items.map((i) => i.task),
        { signal: ctl.signal, onProgress: (done) => setRun({ phase: 'running', done, total: items.length }) },
      );
      setRun({ phase: 'done', judged: items.map((it, i) => ({ step: it.step, decider: it.decider, review: reviews[i] })), source: 'browser' });
    } catch (e) {
      setRun(ctl.signal.aborted ? { phase: 'cancelled' } : { phase: 'failed', reason: e instanceof Error ? e.message : String(e) });
    } finally {
      if (abort.current === ctl) abort.current = null;
    }
  };

  const iterations = ANALYSIS_BUDGET.iterations.toLocaleString(i18n.language);
  const help = t('analysis.help', { iterations, seconds: (ANALYSIS_BUDGET.timeMs / 1000).toLocaleString(i18n.language) });
  return (
    <section className="panel analysis" aria-label={t('analysis.analyse')} data-analysis={run.phase} data-source={run.phase === 'done' ? run.source : undefined}>
      <p className="analysis-controls">
        {run.phase === 'asking' && <span className="loading">{t('app.loading')}</span>}
        {(run.phase === 'idle' || run.phase === 'cancelled' || run.phase === 'failed') && (
          <button type="button" className="primary" data-analyse onClick={() => void start()}>
            {t('analysis.analyse')}
          </button>
        )}
        {run.phase === 'server' && <Progress done={run.done} total={run.total} server onCancel={() => abort.current?.abort()} />}
        {run.phase === 'running' && <Progress done={run.done} total={run.total} onCancel={() => abort.current?.abort()} />}
        {run.phase === 'cancelled' && <span role="status">{t('analysis.cancelled')}</span>}
        {run.phase === 'failed' && <span role="alert">{t('analysis.failed', { reason: run.reason })}</span>}
        {run.phase === 'done' && <span className="hint">{t(run.source === 'server' ? 'analysis.byServer' : 'analysis.byBrowser', { iterations })}</span>}
      </p>
      <p className="hint analysis-help">{help}</p>
      {run.phase === 'done' && <Result judged={run.judged} data={data} states={states} step={step} onStep={onStep} />}
    </section>
  );
}

type Served = { kind: 'ready'; judged: Judged[] } | { kind: 'pending'; done: number | null; total: number | null } | { kind: 'none' };

/**
 * The server's answer: its analysis when ready and sound; pending (202) with how far it is; otherwise
 * none — it computes none (204), is busy (503), refuses this client (429), sent something unsound, or
 * cannot be reached — and the page judges the game itself.
 */
async function askServer(matchID: string, last: number): Promise<Served> {
  try {
    const res = await fetch(analysisPath(matchID));
    if (res.status === 200) {
      const judged = servedAnalysis(await res.json(), matchID, last);
      return judged ? { kind: 'ready', judged } : { kind: 'none' };
    }
    if (res.status === 202) {
      const p = (await res.json().catch(() => null)) as { done?: unknown; total?: unknown } | null;
      const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
      return { kind: 'pending', done: n(p?.done), total: n(p?.total) };
    }
    return { kind: 'none' };
  } catch {
    return { kind: 'none' };
  }
}

/** The progress of the work, in this browser or on the server (whose count is unknown when another of its processes computes). */
function Progress({ done, total, server = false, onCancel }: { done: number | null; total: number | null; server?: boolean; onCancel: () => void }): ReactNode {
  const { t } = useTranslation();
  const known = done !== null && total !== null;
  const text = known ? t(server ? 'analysis.serverProgress' : 'analysis.progress', { done, total }) : t('analysis.serverWorking');
  return (
    <>
      <span className="analysis-progress" role="progressbar" aria-label={t('analysis.analyse')} aria-valuemin={0} aria-valuemax={total ?? undefined} aria-valuenow={done ?? undefined} aria-valuetext={text} data-progress={server ? 'server' : 'browser'}>
        <span className="analysis-bar" style={{ width: `${known && total ? (100 * done) / total : 0}%` }} />
      </span>
      <span className="analysis-count">{text}</span>
      <button type="button" data-analysis-cancel onClick={onCancel}>
        {t('analysis.cancel')}
      </button>
    </>
  );
}

function Result({ judged, data, states, step, onStep }: { judged: Judged[]; data: ReplayData; states: readonly ReplayState[]; step: number; onStep: (s: number) => void }): ReactNode {
  const { t } = useTranslation();
  const last = states.length - 1;
  const curve = useMemo(() => editorCurve(judged, last), [judged, last]);
  const swings = useMemo(() => pickSwings(judged), [judged]);
  const played = (s: number) => decisionText(t, states[s - 1].G, data.moves[s - 1]);
  // The bot's move may come from the server: words for a move that does not fit its prompt fall back to its name.
  const bestText = (s: Swing) => {
    try {
      return decisionText(t, states[s.step - 1].G, s.best);
    } catch {
      return s.best.move;
    }
  };
  const markLabel = (s: Swing) => `${t('analysis.swingMark', { rank: s.rank, step: s.step })}: ${roleName(t, s.decider)} — ${played(s.step)}`;
  // The marks change with the swings and the language only (markLabel is made anew each render).
  const marks = useMemo(() => swings.map((s) => ({ rank: s.rank, step: s.step, label: markLabel(s) })), [swings, t]);
  return (
    <>
      <Graph curve={curve} step={step} onPick={onStep} marks={marks} />
      <p className="hint">{t('analysis.graphHint')}</p>
      <h3>{t('analysis.swings')}</h3>
      {swings.length === 0 && <p>{t('analysis.noSwings')}</p>}
      <ol className="analysis-swings">
        {swings.map((s) => (
          <li key={s.rank} data-swing-summary={s.rank}>
            <button type="button" className="link" onClick={() => onStep(s.step)}>
              {markLabel(s)}
            </button>
            <span> {t('analysis.swingLoss', { who: roleName(t, s.decider), before: pct(s.before), after: pct(s.after) })}. </span>
            {/* One estimate per decision: the graph's point is this "after", turned round for Nixon (judge.ts). */}
            <span data-on-graph>{t('analysis.onGraph', { chance: pct(curve[s.step]) })} </span>
            <span data-instead>{t('analysis.instead', { move: bestText(s), chance: pct(s.before) })}</span>
          </li>
        ))}
      </ol>
      <DecisionRecord judged={judged} swings={swings} curve={curve} data={data} step={step} onStep={onStep} played={played} />
    </>
  );
}

/** Every decision, its words and the Editor's chance after it; the swings marked; the step shown is kept in view. */
function DecisionRecord(props: { judged: Judged[]; swings: Swing[]; curve: number[]; data: ReplayData; step: number; onStep: (s: number) => void; played: (s: number) => string }): ReactNode {
  const { judged, swings, curve, data, step, onStep, played } = props;
  const { t } = useTranslation();
  const box = useRef<HTMLOListElement>(null);
  const rank = new Map(swings.map((s) => [s.step, s.rank]));
  const forced = new Set(judged.filter((j) => j.review.forced).map((j) => j.step));
  const shown = new Set(judged.map((j) => j.step)); // a resignation or a clock running out is not judged
  useEffect(() => {
    const el = box.current;
    const item = el?.querySelector<HTMLElement>(`[data-record-step="${step}"]`);
    if (el && item) el.scrollTop = Math.max(0, item.offsetTop - el.offsetTop - el.clientHeight / 2); // the box scrolls, never the page
  }, [step]);
  return (
    <>
      <h3>{t('analysis.record')}</h3>
      <ol className="analysis-record" ref={box}>
        {data.moves.map((m, i) => {
          const s = i + 1;
          const r = rank.get(s);
          return (
            <li key={s} data-record-step={s} data-swing={r} className={`role-${m.playerID}${s === step ? ' current' : ''}`}>
              <button type="button" aria-current={s === step ? 'step' : undefined} onClick={() => onStep(s)}>
                <span className="num">{s}.</span>
                {r !== undefined && <span className="swing-badge">{r}</span>}
                <span className="who">{roleName(t, m.playerID as PlayerID)}:</span> {played(s)}
                {shown.has(s) && <span className="chance">{forced.has(s) ? t('analysis.forced') : t('analysis.after', { chance: pct(curve[s]) })}</span>}
              </button>
            </li>
          );
        })}
      </ol>
    </>
  );
}
