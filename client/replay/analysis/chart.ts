/**
 * The win-chance chart, drawn by uPlot on a canvas: the Editor's chance after each decision, 50% dashed,
 * the swings as numbered buttons over the plot (each with `data-swing`), the step shown as a line. A click
 * on the plot or a mark picks that decision. Plain DOM, no React: this module and uPlot (with its CSS) are
 * a chunk of their own, loaded when an analysis is shown, and a chunk that shared React with the play page
 * would change how the play page's own code is split (it grew 0.6 KB gzip when this was a component).
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { spread } from './marks';

export interface ChartMark {
  rank: number;
  step: number;
  label: string;
}

export interface ChartOptions {
  /** The Editor's chance at steps 0…last, in [0, 1]. */
  curve: readonly number[];
  marks: readonly ChartMark[];
  seriesLabel: string;
  onPick: (step: number) => void;
}

export interface Chart {
  setStep(step: number): void;
  destroy(): void;
}

const HEIGHT = 170;
/** Under this the axes crowd the line; the page is at least this wide from a 390 px phone up. */
export const MIN_WIDTH = 300;
const EDITOR = '#1d3f6e';

export function drawChart(el: HTMLElement, { curve, marks, seriesLabel, onPick }: ChartOptions): Chart {
  const width = () => Math.max(MIN_WIDTH, el.clientWidth);
  const u = new uPlot(
    {
      width: width(),
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: { x: { time: false }, y: { range: [0, 100] } },
      axes: [{ size: 28 }, { size: 50, values: (_u, vals) => vals.map((v) => `${Math.round(v)}%`), splits: () => [0, 25, 50, 75, 100] }],
      series: [{}, { label: seriesLabel, stroke: EDITOR, width: 2, fill: 'rgba(29, 63, 110, 0.10)' }, { label: '50%', stroke: '#8a8170', width: 1, dash: [5, 4], points: { show: false } }],
    },
    [curve.map((_, i) => i), curve.map((v) => Math.round(v * 1000) / 10), curve.map(() => 50)],
    el,
  );
  let step = 0;
  const line = document.createElement('div');
  line.className = 'analysis-step';
  const buttons = marks.map((m) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'swing-mark';
    b.dataset.swing = String(m.rank);
    b.dataset.step = String(m.step);
    b.textContent = String(m.rank);
    b.setAttribute('aria-label', m.label);
    b.title = m.label;
    b.addEventListener('click', () => onPick(m.step));
    return b;
  });
  u.over.append(line, ...buttons);
  const place = () => {
    line.style.left = `${u.valToPos(step, 'x')}px`;
    line.dataset.graphStep = String(step);
    const spots = spread(
      marks.map((m) => ({ x: u.valToPos(m.step, 'x'), y: u.valToPos(curve[m.step] * 100, 'y') })),
      u.over.clientHeight || HEIGHT,
    );
    spots.forEach((p, i) => {
      buttons[i].style.left = `${p.x}px`;
      buttons[i].style.top = `${p.y}px`;
    });
  };
  const click = (e: MouseEvent) => {
    if ((e.target as Element).closest('[data-swing]')) return; // a mark picks its own decision
    const i = u.posToIdx(e.clientX - u.over.getBoundingClientRect().left);
    if (i >= 0 && i < curve.length) onPick(i);
  };
  u.over.addEventListener('click', click);
  // Follows the page's width (a phone turned, a window resized).
  const ro = new ResizeObserver(() => {
    if (u.width !== width()) u.setSize({ width: width(), height: HEIGHT });
    place();
  });
  ro.observe(el);
  place();
  return {
    setStep(s) {
      step = s;
      place();
    },
    destroy() {
      ro.disconnect();
      u.destroy();
    },
  };
}
