/**
 * The win-chance graph, drawn by uPlot (a canvas): the Editor's chance after each decision, 50% marked,
 * the swings as numbered buttons over the plot (each with `data-swing`), the step shown as a line. A click
 * anywhere on the plot, or on a mark, picks that decision. Loaded on demand with uPlot and its stylesheet,
 * only when an analysis is shown: nothing of it is in the play page.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface GraphMark {
  rank: number;
  step: number;
  label: string;
}

interface Props {
  /** The Editor's chance at steps 0…last, in [0, 1]. */
  curve: readonly number[];
  marks: readonly GraphMark[];
  step: number;
  onPick: (step: number) => void;
  /** The Editor's line in the legend and the graph's accessible name. */
  seriesLabel: string;
  label: string;
}

const HEIGHT = 170;
/** Under this the axes crowd the line; the page is at least this wide from a 390 px phone up. */
const MIN_WIDTH = 300;
const EDITOR = '#1d3f6e';

const percent = (v: number) => `${Math.round(v)}%`;

export default function Graph({ curve, marks, step, onPick, seriesLabel, label }: Props): ReactNode {
  const box = useRef<HTMLDivElement>(null);
  const [plot, setPlot] = useState<uPlot | null>(null);
  const [, relayout] = useState(0);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const el = box.current!;
    const width = () => Math.max(MIN_WIDTH, el.clientWidth);
    const xs = curve.map((_, i) => i);
    const u = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false }, points: { show: false } },
        scales: { x: { time: false }, y: { range: [0, 100] } },
        axes: [{ size: 28 }, { size: 40, values: (_u, vals) => vals.map(percent), splits: () => [0, 25, 50, 75, 100] }],
        series: [
          {},
          { label: seriesLabel, stroke: EDITOR, width: 2, fill: 'rgba(29, 63, 110, 0.10)' },
          { label: '50%', stroke: '#8a8170', width: 1, dash: [5, 4] },
        ],
      },
      [xs, curve.map((v) => Math.round(v * 1000) / 10), curve.map(() => 50)],
      el,
    );
    const click = (e: MouseEvent) => {
      if ((e.target as Element).closest('[data-swing]')) return; // a mark picks its own decision
      const i = u.posToIdx(e.clientX - u.over.getBoundingClientRect().left);
      if (i >= 0 && i < curve.length) pick.current(i);
    };
    u.over.addEventListener('click', click);
    // Follows the page's width (a phone turned, a window resized); the marks are placed again after.
    const ro = new ResizeObserver(() => {
      if (u.width !== width()) u.setSize({ width: width(), height: HEIGHT });
      relayout((n) => n + 1);
    });
    ro.observe(el);
    setPlot(u);
    return () => {
      ro.disconnect();
      u.over.removeEventListener('click', click);
      u.destroy();
      setPlot(null);
    };
  }, [curve, seriesLabel]);

  const x = (s: number) => plot!.valToPos(s, 'x');
  const y = (v: number) => plot!.valToPos(v * 100, 'y');
  return (
    <div className="analysis-graph" role="group" aria-label={label} ref={box}>
      {plot &&
        createPortal(
          <>
            <div className="analysis-step" data-graph-step={step} style={{ left: `${x(step)}px` }} />
            {marks.map((m) => (
              <button
                key={m.rank}
                type="button"
                className="swing-mark"
                data-swing={m.rank}
                data-step={m.step}
                aria-label={m.label}
                title={m.label}
                style={{ left: `${x(m.step)}px`, top: `${y(curve[m.step])}px` }}
                onClick={() => pick.current(m.step)}
              >
                {m.rank}
              </button>
            ))}
          </>,
          plot.over,
        )}
    </div>
  );
}
