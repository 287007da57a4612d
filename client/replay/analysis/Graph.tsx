/** The win-chance graph's place on the page: loads the chart (chart.ts, with uPlot) and keeps it in step. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chart, ChartMark } from './chart';

interface Props {
  curve: readonly number[];
  marks: readonly ChartMark[];
  step: number;
  onPick: (step: number) => void;
}

export function Graph({ curve, marks, step, onPick }: Props): ReactNode {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const [ready, setReady] = useState(false);
  const pick = useRef(onPick);
  pick.current = onPick;
  const now = useRef(step);
  now.current = step;
  const seriesLabel = t('analysis.editorChance');

  useEffect(() => {
    let gone = false;
    void import('./chart').then(({ drawChart }) => {
      if (gone || !box.current) return;
      chart.current = drawChart(box.current, { curve, marks, seriesLabel, onPick: (s) => pick.current(s) });
      chart.current.setStep(now.current);
      setReady(true);
    });
    return () => {
      gone = true;
      chart.current?.destroy();
      chart.current = null;
    };
  }, [curve, marks, seriesLabel]);
  useEffect(() => chart.current?.setStep(step), [step, ready]);

  return (
    <div className="analysis-graph" role="group" aria-label={t('analysis.graph')} aria-busy={!ready} ref={box}>
      {!ready && <p className="loading">{t('app.loading')}</p>}
    </div>
  );
}
